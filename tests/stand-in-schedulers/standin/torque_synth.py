"""Synthetic Torque jobs for benchmarks: a `qstat -x -t` answer for N jobs (a third
completed, a third running, a third queued) without any server.

    python3 -m standin.torque_synth N       (or python3 -m standin.torque synth-qstat N)
"""

import sys
import time

from standin import core
from standin.torque_common import DEFAULTS, QUEUE
from standin.torque_qstat_xml import render_document
from standin.torque_view import job_view


def synthetic_rows(n, cfg, start_seq=1, now=None):
    """N decoded job rows as the server keeps them."""
    now = now or time.time()
    host, server = cfg["host"], cfg["server_name"]
    variables = [("PBS_O_QUEUE", QUEUE), ("PBS_O_HOME", "/home/user"),
                 ("PBS_O_LOGNAME", "user"), ("PBS_O_PATH", "/usr/local/bin:/usr/bin:/bin"),
                 ("PBS_O_MAIL", "/var/mail/user"), ("PBS_O_SHELL", "/bin/bash"),
                 ("PBS_O_LANG", "C.UTF-8"), ("PBS_O_WORKDIR", "/home/user/work"),
                 ("PBS_O_HOST", host), ("PBS_O_SERVER", server)]
    rows = []
    for i in range(n):
        seq, name = start_seq + i, "job%d" % (start_seq + i)
        attrs = {
            "Job_Name": name, "Job_Owner": "user@" + host, "Checkpoint": "u",
            "Error_Path": "%s:/home/user/work/%s.e%d" % (host, name, seq), "Join_Path": "n",
            "Keep_Files": "n", "Mail_Points": "a",
            "Output_Path": "%s:/home/user/work/%s.o%d" % (host, name, seq), "Priority": "0",
            "Rerunable": "True", "egroup": "user", "submit_args": "job.sh",
            "Resource_List": [("walltime", "01:00:00"), ("nodes", "1"), ("nodect", "1")],
            "submit_host": host, "init_work_dir": "/home/user/work", "ppn": 1, "nodes": 1,
        }
        row = dict(rid=i + 1, seq=seq, idx=None, kind="job", parent=None, attrs=attrs,
                   script=None, argv=None, submit_dir="/home/user/work", cwd="/home/user",
                   env=variables, owner="user", uid=0, gid=0, submit_time=now - 600,
                   eligible_time=now - 600, not_before=None, start_time=None, end_time=None,
                   mtime=now - 300, exit_status=None, pgid=None, deps=None, dep_hold=0,
                   user_hold=0, run_count=0, comment=None, ncpus=1, ngpus=0, walltime=3600,
                   max_running=None, rerunnable=1, request=None, kill_reason=None,
                   kill_sent=None, killed_hard=0, exec_host=None, usage=None,
                   history_time=None, dep_cause=None, how=None, phase="queued")
        started = "Job started on %s" % time.strftime("%a %b %d at %H:%M",
                                                      time.localtime(now - 500))
        if i % 3 == 0:
            row.update(phase="done", how="ok" if i % 2 == 0 else "failed",
                       exit_status=0 if i % 2 == 0 else 3, start_time=now - 500,
                       end_time=now - 300, history_time=now - 300, run_count=1,
                       exec_host=host + "/0", comment=started,
                       usage={"walltime": 200, "cput": 150, "mem_kb": 3548, "ncpus": 1,
                              "session": 20000 + i})
        elif i % 3 == 1:
            row.update(phase="running", start_time=now - 500, run_count=1,
                       exec_host=host + "/0", pgid=10000 + i, comment=started)
        rows.append(row)
    return rows


def synth_qstat(argv):
    n = int(argv[0]) if argv and argv[0].isdigit() else 1000
    cfg = dict(core.DEFAULTS)
    cfg.update(DEFAULTS)
    cfg.update(server_name="synth", host="synth")
    now = time.time()
    views = [job_view(r, None, [], cfg, now) for r in synthetic_rows(n, cfg, now=now)]
    sys.stdout.write(render_document(views))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(synth_qstat(args[1:] if args[:1] == ["synth-qstat"] else args))
