"""qhold and qrls as PBS Pro and Torque share them (both from OpenPBS's qhold.c and
qrls.c): `[-h hold_list] JOB...`, a user hold (Hold_Types u, state H) on a queued job, its
owner's to release. Each scheduler's module gives its own job lookup, words and numbers.
"""

import getopt
import sys
import time

from standin import core


class Words:
    """A scheduler's side: `lookup(cur, op, server)` -> (jobs, shown id) (no jobs: unknown),
    `unknown(name, op, shown)` its error line, `refused(name)` the outage handler, the
    usage text's tail and the error numbers."""

    def __init__(self, lookup, unknown, refused, usage_tail, unkjobid, badstate):
        self.lookup, self.unknown, self.refused = lookup, unknown, refused
        self.usage_tail, self.unkjobid, self.badstate = usage_tail, unkjobid, badstate


def hold(cur, job, now):
    """qhold -h u of one job: a running one is refused (the stand-ins' jobs are not
    checkpointable)."""
    if job["phase"] not in ("queued", "waiting", "held"):
        return "Request invalid for state of job"
    core.Store.update_job(cur, job["rid"], user_hold=1, phase="held", mtime=now)
    return None


def release(cur, job, now):
    """qrls -h u of one job: with no other hold it is queued again (or waits for its
    Execution_Time)."""
    if not job["user_hold"]:
        return None
    fields = dict(user_hold=0, mtime=now)
    if job["phase"] == "held" and not job["dep_hold"]:
        if job.get("not_before") and job["not_before"] > now:
            fields["phase"] = "waiting"
        else:
            fields.update(phase="queued", eligible_time=now)
    core.Store.update_job(cur, job["rid"], **fields)
    return None


def command(name, argv, change, words, holds=None):
    """`change(cur, job, now)` on every job named; it returns an error's words, or None.
    `holds`: the hold lists the stand-in takes (None: any). The exit status is the last
    failure's error number (& 255)."""
    core.require_env(name)
    usage = "usage: %s %s\n" % (name, words.usage_tail)
    try:
        pairs, operands = getopt.gnu_getopt(argv, "h:")
    except getopt.GetoptError:
        sys.stderr.write(usage)
        return 2
    if not operands:
        sys.stderr.write(usage)
        return 2
    if holds is not None and any(v not in holds for o, v in pairs):
        sys.stderr.write("%s: the stand-in takes only -h %s\n" % (name, "|".join(sorted(holds))))
        return 2
    store = core.client_store(name, words.refused(name))
    server = store.cfg["server_name"]
    now = time.time()
    status = 0
    errors = []
    with store.write() as cur:
        for op in operands:
            jobs, shown = words.lookup(cur, op, server)
            if not jobs:
                errors.append(words.unknown(name, op, shown))
                status = words.unkjobid
                continue
            for job in jobs:
                said = change(cur, job, now)
                if said:
                    errors.append("%s: %s %s\n" % (name, said, shown))
                    status = words.badstate
    sys.stderr.write("".join(errors))
    return status % 256
