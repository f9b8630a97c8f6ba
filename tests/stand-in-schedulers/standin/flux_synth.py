"""Synthetic Flux jobs for benchmarks: a `flux jobs --json -a` answer for N jobs (a third
inactive, COMPLETED or FAILED, a third running, a third pending) without any server.

    python3 -m standin.flux_synth N
    python3 -m standin.flux synth-jobs N
"""

import json
import os
import sys
import time

from standin import core
from standin.flux_common import DEFAULTS

EPOCH_MS = 1000 * 3600 * 24 * 100        # FLUIDs of an instance up for 100 days


def synthetic_rows(n, cfg, now=None):
    """N decoded job rows as the server keeps them, FLUIDs increasing."""
    now = now or time.time()
    rows = []
    for i in range(n):
        fluid = (EPOCH_MS + i) << 24
        attrs = {"name": "yard-%032x-job%d" % (i, i), "queue": None, "urgency": 16,
                 "ntasks": 1, "ncores": 1, "nnodes": None, "ngpus": 0, "duration": 3600.0,
                 "batch": True, "deps": [], "cores": [i % 4], "gpus": []}
        row = dict(rid=i + 1, seq=fluid, idx=None, kind="job", parent=None, attrs=attrs,
                   script=None, argv=[], cwd="/home/user/work", env=[], uid=os.getuid(),
                   gid=os.getgid(), owner="user", submit_time=now - 600,
                   eligible_time=now - 600, start_time=None, end_time=None,
                   history_time=None, phase="queued", how=None, dep_hold=0, user_hold=0,
                   exit_status=None, pgid=None)
        if i % 3 == 0:
            failed = i % 2 == 1
            attrs.update(result="FAILED" if failed else "COMPLETED",
                         waitstatus=768 if failed else 0)
            row.update(phase="done", how="failed" if failed else "ok", start_time=now - 500,
                       end_time=now - 300, history_time=now - 300)
        elif i % 3 == 1:
            row.update(phase="running", start_time=now - 500, pgid=10000 + i)
        rows.append(row)
    return rows


def synth_jobs(argv):
    from standin.flux_view import JobView
    n = int(argv[0]) if argv and argv[0].isdigit() else 1000
    cfg = dict(core.DEFAULTS)
    cfg.update(DEFAULTS)
    cfg.update(server_name="synth", host="synth")
    now = time.time()
    docs = [JobView(row, cfg, None, now=now).to_dict() for row in synthetic_rows(n, cfg, now)]
    sys.stdout.write(json.dumps({"jobs": docs}) + "\n")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(synth_jobs(args[1:] if args[:1] == ["synth-jobs"] else args))
