"""Synthetic PBS jobs for benchmarks: a `qstat -x -f -F json -t` answer for N jobs
without any server.

    python3 -m standin.pbs synth-qstat N [--printer old|cjson]
"""

import sys
import time

from standin import core
from standin.pbs_common import DEFAULTS, QUEUE
from standin.pbs_qstat_json import render_json
from standin.pbs_view import job_view

def synthetic_rows(n, cfg, start_seq=1, now=None):
    """N decoded job rows (finished, running and queued) as the server keeps them."""
    now = now or time.time()
    host = cfg["host"]
    rows = []
    variables = [("PBS_O_HOME", "/home/user"), ("PBS_O_LANG", "C.UTF-8"),
                 ("PBS_O_LOGNAME", "user"), ("PBS_O_PATH", "/usr/local/bin:/usr/bin:/bin"),
                 ("PBS_O_MAIL", "/var/mail/user"), ("PBS_O_SHELL", "/bin/bash"),
                 ("PBS_O_WORKDIR", "/home/user/work"), ("PBS_O_SYSTEM", "Linux"),
                 ("PBS_O_QUEUE", QUEUE), ("PBS_O_HOST", host)]
    for i in range(n):
        seq = start_seq + i
        kind = i % 3
        name = "job%d" % seq
        attrs = {
            "Job_Name": name, "Job_Owner": "user@" + host, "Checkpoint": "u",
            "Error_Path": "%s:/home/user/work/%s.e%d" % (host, name, seq), "Join_Path": "n",
            "Keep_Files": "n", "Mail_Points": "a",
            "Output_Path": "%s:/home/user/work/%s.o%d" % (host, name, seq), "Priority": "0",
            "Rerunable": "True",
            "Resource_List": [("ncpus", "1"), ("nodect", "1"), ("place", "pack"), ("select", "1"),
                              ("walltime", "01:00:00")],
            "Submit_arguments": "job.sh",
            "project": "_pbs_project_default", "Submit_Host": host,
            "chunks": [{"count": 1, "ncpus": 1, "mem": None, "ngpus": 0, "mpiprocs": None}],
        }
        row = dict(rid=i + 1, seq=seq, idx=None, kind="job", parent=None, attrs=attrs,
                   script=None, argv=None, submit_dir="/home/user/work", cwd="/home/user",
                   env=variables, owner="user", uid=0,
                   gid=0, submit_time=now - 600, eligible_time=now - 600, not_before=None,
                   start_time=None, end_time=None, mtime=now - 300, exit_status=None, pgid=None,
                   deps=None, dep_hold=0, user_hold=0, run_count=0, comment=None, ncpus=1,
                   ngpus=0, walltime=3600, max_running=None, rerunnable=1, request=None,
                   kill_reason=None, kill_sent=None, killed_hard=0, exec_host=None, usage=None,
                   history_time=None, dep_cause=None, how=None)
        stamp = time.strftime("%a %b %d at %H:%M", time.localtime(now - 500))
        if kind == 0:
            row.update(phase="done", how="ok" if i % 2 == 0 else "failed",
                       exit_status=0 if i % 2 == 0 else 3, start_time=now - 500, end_time=now - 300,
                       history_time=now - 300, run_count=1, exec_host=host,
                       usage={"walltime": 200, "cput": 150, "mem_kb": 3548, "ncpus": 1},
                       comment="Job run at %s on (%s:ncpus=1) and %s"
                       % (stamp, host, "finished" if i % 2 == 0 else "failed"))
        elif kind == 1:
            row.update(phase="running", start_time=now - 500, run_count=1, exec_host=host,
                       pgid=10000 + i, comment="Job run at %s on (%s:ncpus=1)" % (stamp, host))
        else:
            row.update(phase="queued")
        rows.append(row)
    return rows


def synth_qstat(argv):
    printer = "old"
    if "--printer" in argv:
        printer = argv[argv.index("--printer") + 1]
    n = int([a for a in argv if a.isdigit()][0]) if any(a.isdigit() for a in argv) else 1000
    cfg = dict(core.DEFAULTS)
    cfg.update(DEFAULTS)
    cfg.update(server_name="synth", host="synth", printer=printer)
    now = time.time()
    rows = synthetic_rows(n, cfg, now=now)
    views = [job_view(r, None, [], cfg, now) for r in rows]
    sys.stdout.write(render_json(cfg, now, views))
    return 0
