"""PBS qdel, qhold and qrls, and the job lookup standin-ctl uses (qdel.c, qhold.c, qrls.c).
"""

import getopt
import sys
import time

from standin import core, qhold_qrls
from standin.pbs_common import (PBSE_BADSTATE, PBSE_HISTJOBID, PBSE_UNKJOBID, QDEL_USAGE,
                                parse_ref, refused)

def find(cur, ref):
    if not ref.server_ok:
        return []
    if ref.bracket and ref.hi is not None:
        rows = cur.execute("SELECT * FROM jobs WHERE seq=? AND kind='sub' AND idx BETWEEN ? AND ? "
                           "ORDER BY idx", (ref.seq, ref.lo, ref.hi)).fetchall()
    else:
        rows = cur.execute("SELECT * FROM jobs WHERE seq=? AND kind=? AND ifnull(idx, -1)=?",
                           (ref.seq, ref.kind, -1 if ref.lo is None else ref.lo)).fetchall()
    return [core.decode(r) for r in rows]


def is_history(cur, job):
    if job["kind"] == "sub":
        row = cur.execute("SELECT phase FROM jobs WHERE rid=?", (job["parent"],)).fetchone()
        return row is not None and row["phase"] == "done"
    return job["phase"] == "done"


def delete_job(cur, job, now):
    """qdel of one job or subjob (inside the caller's transaction)."""
    if job["phase"] in ("queued", "held", "waiting"):
        comment = job.get("comment")
        if comment and "terminated" not in comment:
            comment += " and terminated"
        core.Store.update_job(cur, job["rid"], phase="done", how="deleted", end_time=now,
                              history_time=now, mtime=now, comment=comment, dep_hold=0)
    elif job["phase"] == "running" and not job.get("request"):
        core.Store.update_job(cur, job["rid"], request="delete", mtime=now)


def qdel(argv):
    core.require_env("qdel")
    try:
        pairs, operands = getopt.gnu_getopt(argv, "W:x")
    except getopt.GetoptError:
        sys.stderr.write(QDEL_USAGE)
        return 2
    flags = dict((o[1:], v) for o, v in pairs)
    if not operands:
        sys.stderr.write(QDEL_USAGE)
        return 2
    store = core.client_store("qdel", refused("qdel"))
    server = store.cfg["server_name"]
    now = time.time()
    status = 0
    errors = []
    from standin.server import purge_jobs
    with store.write() as cur:
        for op in operands:
            ref = parse_ref(op, server)
            if ref is None:
                errors.append("qdel: illegally formed job identifier: %s\n" % op)
                status = 1
                continue
            found = find(cur, ref)
            if not found:
                errors.append("qdel: Unknown Job Id %s\n" % ref.shown)
                status = PBSE_UNKJOBID
                continue
            if is_history(cur, found[0]):
                if "x" in flags and found[0]["kind"] != "sub":
                    purge_jobs(cur, [found[0]["rid"]])      # -x: its history goes too
                    continue
                errors.append("qdel: Job has finished %s\n" % ref.shown)
                status = PBSE_HISTJOBID
                continue
            if len(found) == 1 and found[0]["kind"] == "sub" and found[0]["phase"] == "done":
                errors.append("qdel: Request invalid for state of job %s\n" % ref.shown)
                status = PBSE_BADSTATE
                continue
            for job in found:
                if job["kind"] != "array":
                    delete_job(cur, job, now)
                    continue
                subs = [core.decode(r) for r in cur.execute(
                    "SELECT * FROM jobs WHERE parent=? AND phase!='done'", (job["rid"],))]
                for sub in subs:
                    delete_job(cur, sub, now)
                if job["phase"] != "running":
                    # Never began: the whole array goes now. Once begun, the server
                    # finishes the parent when its last running subjob has gone.
                    delete_job(cur, job, now)
    sys.stderr.write("".join(errors))
    return status % 256


def _lookup(cur, op, server):
    ref = parse_ref(op, server)
    return (find(cur, ref) if ref else []), (ref.shown if ref else op)


WORDS = qhold_qrls.Words(_lookup, lambda name, op, shown: "%s: Unknown Job Id %s\n" % (name, shown), refused,
                         "[-h hold_list] job_identifier...", PBSE_UNKJOBID, PBSE_BADSTATE)


def qhold(argv):
    """qhold [-h u] JOB...: a user hold (Hold_Types u, state H) on a queued job; a running
    one is refused as PBS refuses a job that cannot be checkpointed. Only the user hold."""
    return qhold_qrls.command("qhold", argv, qhold_qrls.hold, WORDS, holds={"u"})


def qrls(argv):
    return qhold_qrls.command("qrls", argv, qhold_qrls.release, WORDS)


# =============================================================== standin-ctl support

def find_for_ctl(cur, cfg, text):
    ref = parse_ref(text, cfg["server_name"])
    if ref is None:
        return []
    return find(cur, ref)
