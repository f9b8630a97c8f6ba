"""LSF bkill, bstop and bresume (lsbatch/cmd/cmd.sig.c): `bkill [-s SIGNAL] [-u user|all]
ID... | 0`; `bstop` is `bkill -s STOP`, `bresume` is `bkill -s CONT`, in the same words.

Each operand in turn (`N`: a job or a whole array, `N[i]` or `N[1-3]`: elements, `0`:
every unfinished job of the user): stdout `Job <N> is being terminated`, or on stderr
`Job <N>: No matching job found` / `Job <N>: Job has already finished`; exit 255 if any
operand failed (`-1`), else 0. A running job gets SIGINT, then SIGTERM and SIGKILL
`kill_grace` seconds apart (JOB_TERMINATE_INTERVAL) and ends EXIT with TERM_OWNER; a
pending one ends EXIT with TERM_OWNER at once, never started.
-s STOP suspends (a pending job: PSUSP, a running one: SIGSTOP, USUSP), -s CONT resumes,
another signal goes to a running job (`is being signaled`; pending: `Job has not started
yet`); `is being stopped` / `is being resumed`.
"""

import signal
import sys
import time

from standin import core
from standin.lsf_common import LsfError, find, parse_id, refused, unsupported, user_name

PENDING = ("queued", "held", "waiting")


def bkill(argv):
    try:
        return _bkill(argv)
    except LsfError as e:
        sys.stderr.write(e.message)
        return e.status


def bstop(argv):
    return _signal_command("bstop", signal.SIGSTOP, argv)


def bresume(argv):
    return _signal_command("bresume", signal.SIGCONT, argv)


def _signal_command(name, sig, argv):
    """bstop / bresume [-u user|all] ID... | 0: bkill -s STOP / CONT."""
    for i, a in enumerate(argv):
        if a.startswith("-") and len(a) > 1 and a != "-u" and (i == 0 or argv[i - 1] != "-u"):
            sys.stderr.write("%s: the stand-in does not support %s\n" % (name, a))
            return 2
    if not [a for i, a in enumerate(argv) if a != "-u" and (i == 0 or argv[i - 1] != "-u")]:
        sys.stderr.write("Usage: %s [-u user_name | -u all] [0] [job_ID ... | \"job_ID[index]\" ...]\n" % name)
        return 255
    return bkill(["-s", "STOP" if sig == signal.SIGSTOP else "CONT"] + argv)


def signal_of(text):
    name = text.upper()
    if name.isdigit():
        return int(name)
    try:
        return int(getattr(signal, name if name.startswith("SIG") else "SIG" + name))
    except AttributeError:
        raise LsfError("%s: Illegal signal value\n" % text)


def finish_array(cur, top, now):
    """An array that never began ends when its last element has (bkill of a pending
    array); a running one is finished by the server."""
    if top["kind"] == "array" and top["phase"] in PENDING:
        left = cur.execute("SELECT count(*) FROM jobs WHERE parent=? AND phase!='done'",
                           (top["rid"],)).fetchone()[0]
        if not left:
            core.Store.update_job(cur, top["rid"], phase="done", how="deleted", end_time=now,
                                  history_time=now, mtime=now, dep_hold=0)


def terminate(cur, job, now):
    if job["phase"] in PENDING:
        core.Store.update_job(cur, job["rid"], phase="done", how="deleted", end_time=now,
                              history_time=now, mtime=now, dep_hold=0)
    elif job["phase"] == "running" and not job.get("request"):
        core.Store.update_job(cur, job["rid"], request="delete", mtime=now)


def suspend(cur, top, units, sig, now):
    """-s STOP / CONT. Pending: the hold of the job (the array for its elements)."""
    for job in units:
        attrs = dict(job["attrs"] or {})
        if job["phase"] == "running":
            core.kill_group(job["pgid"], sig)
            attrs["_susp"] = sig == signal.SIGSTOP
            core.Store.update_job(cur, job["rid"], attrs=attrs)
    holder = top
    if holder["phase"] in PENDING:
        hold = 1 if sig == signal.SIGSTOP else 0
        phase = "held" if hold or holder["dep_hold"] else "queued"
        core.Store.update_job(cur, holder["rid"], user_hold=hold, phase=phase, mtime=now)


def _bkill(argv):
    core.require_env("bkill")
    sig, users, ops, i = None, None, [], 0
    while i < len(argv):
        a = argv[i]
        if a in ("-s", "-u") and i + 1 < len(argv):
            if a == "-s":
                sig = signal_of(argv[i + 1])
            else:
                users = argv[i + 1]
            i += 2
        elif a.startswith("-") and len(a) > 1:
            raise unsupported("bkill", a)
        else:
            ops.append(a)
            i += 1
    if not ops:
        raise LsfError("Usage: bkill [-s signal_value | signal_name] [-u user_name | -u all] "
                       "[0] [job_ID ... | \"job_ID[index]\" ...]\n")
    store = core.client_store("bkill", refused("Connection refused by server\n"))
    now, out, err = time.time(), [], []
    with store.write() as cur:
        targets = []
        for op in ops:
            if op == "0":
                user = users or user_name()
                rows = cur.execute("SELECT seq FROM jobs WHERE kind IN ('job', 'array') AND "
                                   "phase!='done' AND (owner=? OR ?='all') ORDER BY seq",
                                   (user, user)).fetchall()
                if not rows:
                    err.append("No unfinished job found\n")
                targets += [(str(r["seq"]), (r["seq"], None)) for r in rows]
            else:
                targets.append((op, parse_id(op)))
        for op, ref in targets:
            top, subs = find(cur, ref[0], ref[1]) if ref else (None, [])
            if ref is None:
                err.append("%s: Illegal job ID.\n" % op)
                continue
            if top is None:
                err.append("Job <%s>: No matching job found\n" % op)
                continue
            units = subs if top["kind"] == "array" else [top]
            alive = [u for u in units if u["phase"] not in ("done", "exiting")]
            if not alive:
                err.append("Job <%s>: Job has already finished\n" % op)
                continue
            if sig in (signal.SIGSTOP, signal.SIGCONT):
                suspend(cur, top, alive, sig, now)
                word = "stopped" if sig == signal.SIGSTOP else "resumed"
            elif sig is not None and sig != signal.SIGKILL:
                if not any(u["phase"] == "running" for u in alive):
                    err.append("Job <%s>: Job has not started yet\n" % op)
                    continue
                for u in alive:
                    if u["phase"] == "running":
                        core.kill_group(u["pgid"], sig)
                word = "signaled"
            else:
                for u in alive:
                    terminate(cur, u, now)
                finish_array(cur, top, now)
                word = "terminated"
            out.append("Job <%s> is being %s\n" % (op, word))
    sys.stdout.write("".join(out))
    sys.stdout.flush()
    sys.stderr.write("".join(err))
    return 255 if err else 0
