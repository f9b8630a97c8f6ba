"""Synthetic LSF jobs for benchmarks: a `bjobs -a -json -o "jobid stat exit_code
exit_reason job_name pend_reason exec_host start_time finish_time"` answer for N jobs (a
third finished, DONE or EXIT, a third running, a third pending) without any server.

    python3 -m standin.lsf_synth N [--fields "jobid stat ..."]
    python3 -m standin.lsf synth-bjobs N
"""

import sys
import time

from standin import core
from standin.lsf_common import DEFAULTS, QUEUE, json_document
from standin.lsf_view import Context, canonical, field_values

FIELDS = "jobid stat exit_code exit_reason job_name pend_reason exec_host start_time finish_time"


def synthetic_rows(n, cfg, start_seq=1, now=None):
    """N decoded job rows as the server keeps them."""
    now = now or time.time()
    rows = []
    for i in range(n):
        seq = start_seq + i
        attrs = {"name": "yard-%032x-job%d" % (seq, seq), "queue": QUEUE, "project": "default",
                 "command": "sleep 60", "from_host": cfg["host"], "slots": 1, "out": "/dev/null",
                 "runlimit_min": 60}
        row = dict(rid=i + 1, seq=seq, idx=None, kind="job", parent=None, attrs=attrs,
                   script=None, argv=None, submit_dir="/home/user/work", cwd="/home/user/work",
                   env=[], owner="user", uid=0, gid=0, submit_time=now - 600,
                   eligible_time=now - 600, not_before=None, start_time=None, end_time=None,
                   mtime=now - 300, exit_status=None, pgid=None, deps=None, dep_hold=0,
                   user_hold=0, run_count=0, comment=None, ncpus=1, ngpus=0, walltime=3600,
                   max_running=None, rerunnable=0, request=None, kill_reason=None,
                   kill_sent=None, killed_hard=0, exec_host=None, usage=None,
                   history_time=None, dep_cause=None, how=None, phase="queued")
        if i % 3 == 0:
            failed = i % 2 == 1
            row.update(phase="done", how="failed" if failed else "ok",
                       exit_status=3 if failed else 0, start_time=now - 500,
                       end_time=now - 300, history_time=now - 300, run_count=1,
                       exec_host=cfg["host"])
        elif i % 3 == 1:
            row.update(phase="running", start_time=now - 500, run_count=1,
                       exec_host=cfg["host"], pgid=10000 + i)
        rows.append(row)
    return rows


def synth_bjobs(argv):
    n = int(argv[0]) if argv and argv[0].isdigit() else 1000
    fields = argv[argv.index("--fields") + 1] if "--fields" in argv[:-1] else FIELDS
    keys = [canonical(f) for f in fields.split()]
    cfg = dict(core.DEFAULTS)
    cfg.update(DEFAULTS)
    cfg.update(server_name="synth", host="synth")
    ctx = Context(cfg)
    records = []
    for row in synthetic_rows(n, cfg, now=ctx.now):
        values = field_values(row, None, ctx)
        records.append([(k, values[k]) for k in keys])
    sys.stdout.write(json_document(records))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(synth_bjobs(args[1:] if args[:1] == ["synth-bjobs"] else args))
