"""Torque qdel, qhold and qrls (src/cmds/qdel.c, qhold.c, qrls.c; src/server/req_delete.c,
req_deletearray.c, req_holdjob.c).

`qdel ID...` prints nothing when it worked. `N[]` deletes a whole array, `N[i]` one
subjob, `-t RANGE` the subjobs of an array in RANGE, `all` every job of the caller.
A queued or held job is completed at once (state C, no exit_status); a running job gets
SIGTERM and, `kill_grace` seconds later, SIGKILL (C with exit_status 271 or 265);
deleting a completed job does nothing. An id the server does not know prints
`qdel: nonexistent job id: <operand>`; the exit status is that of the first failing
operand (pbs_errno & 255: 153).
"""

import getopt
import os
import sys
import time

from standin import core, qhold_qrls
from standin.torque_common import (PBSE_BADSTATE, PBSE_UNKJOBID, QDEL_USAGE, find, parse_ref, refused)
from standin.torque_qsub_options import parse_array_request


def delete_job(cur, job, now):
    """qdel of one job or subjob, inside the caller's transaction."""
    if job["phase"] in ("queued", "held", "waiting"):
        core.Store.update_job(cur, job["rid"], phase="done", how="deleted", end_time=now,
                              history_time=now, mtime=now, dep_hold=0)
    elif job["phase"] == "running" and not job.get("request"):
        core.Store.update_job(cur, job["rid"], request="delete", mtime=now)


def delete_array(cur, job, now, indices=None):
    subs = [core.decode(r) for r in cur.execute(
        "SELECT * FROM jobs WHERE parent=? AND phase!='done'", (job["rid"],))]
    for sub in subs:
        if indices is None or sub["idx"] in indices:
            delete_job(cur, sub, now)
    if indices is None and job["phase"] != "running":
        # Never began: the whole array goes now. Once begun, the server finishes the
        # parent when its last running subjob has gone.
        delete_job(cur, job, now)


def qdel(argv):
    core.require_env("qdel")
    try:
        pairs, operands = getopt.gnu_getopt(argv, "ab:cm:pW:t:")
    except getopt.GetoptError:
        sys.stderr.write(QDEL_USAGE)
        return 2
    flags = dict((o[1:], v) for o, v in pairs)
    exclusive = [c for c in "acmptW" if c in flags]
    if len(exclusive) > 1 or not operands:
        sys.stderr.write(QDEL_USAGE)
        return 2
    if "c" in flags or "p" in flags:
        sys.stderr.write("qdel: the stand-in does not support -%s\n" % exclusive[0])
        return 2
    indices = None
    if "t" in flags:
        if not flags["t"]:
            sys.stderr.write("qdel: illegal -t value (array range cannot be zero length)\n")
            sys.stderr.write(QDEL_USAGE)
            return 2
        parsed = parse_array_request(flags["t"])
        indices = set(parsed[0]) if parsed else set()
    store = core.client_store("qdel", refused("qdel"))
    server = store.cfg["server_name"]
    now = time.time()
    status = 0
    with store.write() as cur:
        for op in operands:
            if op.lower() == "all":
                for r in cur.execute("SELECT * FROM jobs WHERE kind!='sub' AND phase!='done' "
                                     "AND owner=?", (core.user_info(os.getuid())[0],)):
                    job = core.decode(r)
                    (delete_array if job["kind"] == "array" else delete_job)(cur, job, now)
                continue
            if indices is not None and "[]" not in op:
                sys.stderr.write("qdel: Error: job id '%s' isn't a job array but -t was "
                                 "specified.\n" % op)
                return 1
            ref = parse_ref(op, server)
            if ref is None:
                sys.stderr.write("qdel: illegally formed job identifier: %s\n" % op)
                return 1
            found = find(cur, ref)
            if not found:
                sys.stderr.write("qdel: nonexistent job id: %s\n" % op)
                status = status or PBSE_UNKJOBID
                continue
            job = found[0]
            if job["kind"] == "array":
                delete_array(cur, job, now, indices)
            else:
                delete_job(cur, job, now)
    return status % 256


def _lookup(cur, op, server):
    """The job named, and an array's unfinished subjobs with it."""
    ref = parse_ref(op, server)
    found = find(cur, ref) if ref else []
    if found and found[0]["kind"] == "array":
        found += [core.decode(r) for r in cur.execute(
            "SELECT * FROM jobs WHERE parent=? AND phase!='done'", (found[0]["rid"],))]
    return found, (ref.shown if ref else op)


WORDS = qhold_qrls.Words(_lookup, lambda name, op, shown: "%s: nonexistent job id: %s\n" % (name, op), refused,
                         "[{-h <HOLD LIST>|-t <array_range>}] <JOBID>[ <JOBID>] ...", PBSE_UNKJOBID, PBSE_BADSTATE)


def qhold(argv):
    """qhold [-h u] JOB...: a user hold (Hold_Types u, state H) on a queued job or array. A
    running job is refused (the stand-in's jobs are not checkpointable). Only the user hold."""
    return qhold_qrls.command("qhold", argv, qhold_qrls.hold, WORDS, holds={"u"})


def qrls(argv):
    """qrls [-h u] JOB...: the user hold goes."""
    return qhold_qrls.command("qrls", argv, qhold_qrls.release, WORDS)
