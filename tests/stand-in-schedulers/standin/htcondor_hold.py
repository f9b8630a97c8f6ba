"""condor_hold and condor_release [-reason R] C.P... | C... | OWNER... | -all: the same tool
as condor_rm (src/condor_rm.V6/rm.cpp), acting on the same operands in the same words.

condor_hold: stdout `Job C.P held` (`All jobs in cluster C have been held`); stderr `Job
C.P already held`. An idle proc is held at once (JobStatus 5, HoldReasonCode 1
UserRequest, HoldReason `via condor_hold (by user U)`); a running one is vacated first
(TERM, KILL after kill_grace) and held then. condor_release: stdout `Job C.P released`;
stderr `Job C.P not held to be released`; whatever held it, the proc is idle again.
"""

import sys

from standin import core
from standin.htcondor_common import HELD, CondorError
from standin.htcondor_rm import Action, act
from standin.htcondor_view import job_status

HOLD_USER_REQUEST = 1


def condor_hold(argv):
    return _run(argv, HOLD)


def condor_release(argv):
    return _run(argv, RELEASE)


def _run(argv, action):
    try:
        return act(argv, action)
    except CondorError as e:
        sys.stdout.flush()
        sys.stderr.write(e.message)
        return e.status


def hold(cur, job, reason, now):
    held = [HOLD_USER_REQUEST, 0, reason]
    attrs = dict(job["attrs"] or {})
    if job["phase"] == "running":  # vacated: the server requeues it held (Policy.outcome)
        attrs["hold_request"] = held
        core.Store.update_job(cur, job["rid"], request="preempt", attrs=attrs)
        return
    attrs["hold"] = held
    core.Store.update_job(cur, job["rid"], phase="held", user_hold=1, attrs=attrs, mtime=now)


def release(cur, job, reason, now):
    attrs = dict(job["attrs"] or {})
    attrs.pop("hold", None)
    core.Store.update_job(cur, job["rid"], phase="queued", user_hold=0, attrs=attrs,
                          eligible_time=now, mtime=now)


def _held(job):
    return job_status(job) == HELD or bool((job["attrs"] or {}).get("hold_request"))


HOLD = Action("condor_hold", "via condor_hold", "hold", "held", _held, "already held", hold)
RELEASE = Action("condor_release", "via condor_release", "release", "released",
                 lambda job: job_status(job) != HELD, "not held to be released", release)
