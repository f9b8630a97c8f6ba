"""Synthetic HTCondor jobs for benchmarks: a `condor_q -json -attributes ...` answer for N
procs (a third idle, a third running, a third held) and a `condor_history -json` one for
N procs (completed and removed), without any server.

    python3 -m standin.htcondor_synth N [--history] [--attributes A,B,...]
    python3 -m standin.htcondor synth-q N
"""

import sys
import time

from standin import core
from standin.htcondor_common import DEFAULTS, HOLD_JOB_DURATION
from standin.htcondor_json import json_list, select
from standin.htcondor_view import proc_ad

ATTRIBUTES = ("ClusterId,ProcId,JobStatus,JobBatchName,Owner,ExitCode,ExitBySignal,ExitSignal,"
              "HoldReason,HoldReasonCode,HoldReasonSubCode,RemoveReason,NumJobStarts,"
              "JobStartDate,CompletionDate,EnteredCurrentStatus,RemoteHost")


def synthetic_rows(n, start_seq=1, now=None, history=False):
    """N decoded proc rows as the server keeps them (one proc per cluster)."""
    now = now or time.time()
    rows = []
    for i in range(n):
        seq = start_seq + i
        attrs = {"exe": "/var/lib/yard/htcondor/%d.sh" % seq, "args": [], "iwd": "/home/user",
                 "out": "/dev/null", "err": "/dev/null", "cpus": 1, "mem": 512, "prio": 0,
                 "batch_name": "yard-%032x-job%d" % (seq, seq), "duration": 3600,
                 "env_text": "YARD_HTCONDOR_INDEX=0"}
        row = dict(rid=i + 1, seq=seq, idx=0, kind="sub", parent=None, attrs=attrs,
                   owner="user", uid=0, gid=0, submit_time=now - 600, mtime=now - 300,
                   phase="queued", how=None, dep_hold=0, user_hold=0, run_count=0,
                   request=None, kill_reason=None, start_time=None, end_time=None,
                   ncpus=1, ngpus=0, walltime=3600, history_time=None)
        k = i % 3
        if history:
            attrs.update(start_date=now - 500, last_host="slot1@synth", wall=200.0)
            row.update(phase="done", run_count=1, end_time=now - 300, history_time=now - 300)
            if k == 2:
                attrs.update(remove_reason="via condor_rm (by user user)", rm_time=now - 300)
                row["how"] = "deleted"
            else:
                attrs["exit"] = [False, 0] if k == 0 else [True, 9]
                row["how"] = "ok" if k == 0 else "failed"
        elif k == 1:
            attrs.update(start_date=now - 500, cur_start=now - 500, slot=1 + i % 4)
            row.update(phase="running", run_count=1, start_time=now - 500)
        elif k == 2:
            attrs["hold"] = [HOLD_JOB_DURATION, 0, "The job exceeded allowed job duration of "
                             "1:00:00"]
            attrs["start_date"] = now - 5000
            row.update(phase="held", user_hold=1, run_count=1)
        rows.append(row)
    return rows


def synth_q(argv):
    n = int(argv[0]) if argv and argv[0].isdigit() else 1000
    attrs = argv[argv.index("--attributes") + 1] if "--attributes" in argv[:-1] else ATTRIBUTES
    cfg = dict(core.DEFAULTS)
    cfg.update(DEFAULTS)
    now = time.time()
    rows = synthetic_rows(n, now=now, history="--history" in argv)
    ads = [select(proc_ad(r, None, "synth", now), attrs.split(",")) for r in rows]
    sys.stdout.write(json_list(ads))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(synth_q(args[1:] if args[:1] == ["synth-q"] else args))
