"""condor_rm [-reason R] C.P... | C... | OWNER... | -all (src/condor_rm.V6/rm.cpp,
src/condor_daemon_client/dc_schedd.cpp, src/condor_schedd.V6/schedd.cpp actOnJobs @ 7491a145).

Job ids are acted on together, one line each: stdout `Job C.P marked for removal`; stderr
`Job C.P not found` / `Job C.P already marked for removal`; when none of them could be
removed the error stack (empty: a blank line) comes first and the exit status is 1.
Clusters and owners make one constraint (`ClusterId == C || Owner == "u"`): stdout `All
jobs in cluster C have been marked for removal` (`of user "u"`, `matching constraint
(...)`); nothing matched: stderr a blank line and `Couldn't find/remove all jobs in cluster
C`, exit 1 (`condor_rm:0:There are no jobs in the queue`, exit 0, when the queue is empty).
A removed job gets JobStatus 3 and RemoveReason `via condor_rm (by user U)`; an idle or held
one leaves the queue at once, a running one once TERM (KILL after kill_grace) ended it.
"""

import sys
import time

from standin import core
from standin.htcondor_common import (REMOVED, CondorError, RmUnreachable, dash_option,
                                     in_queue, refused, unsupported, user_name)
from standin.htcondor_view import job_status

UNREACHABLE = "DCSchedd::actOnJobs:6001:Failed to connect to schedd\n"


def condor_rm(argv):
    try:
        return _rm(argv)
    except CondorError as e:
        sys.stdout.flush()
        sys.stderr.write(e.message)
        return e.status


def remove(cur, job, reason, now):
    """Mark one proc removed: gone at once unless it runs (the server kills it)."""
    attrs = dict(job["attrs"] or {}, remove_reason=reason, rm_time=now)
    job["request"] = "delete"  # as the rest of the command sees it
    if job["phase"] == "running":
        core.Store.update_job(cur, job["rid"], request="delete", attrs=attrs)
    elif job["phase"] == "exiting":
        core.Store.update_job(cur, job["rid"], how="deleted", attrs=attrs, mtime=now)
    else:
        core.Store.update_job(cur, job["rid"], phase="done", how="deleted", end_time=now,
                              history_time=now, mtime=now, attrs=attrs)


def parse(argv, tool="condor_rm"):
    ids, clauses, reason, bad, i = [], [], None, [], 0
    while i < len(argv):
        a = argv[i]
        if dash_option(a, "reason", 1) and i + 1 < len(argv):
            reason, i = argv[i + 1], i + 2
            continue
        if dash_option(a, "all", 1):
            clauses.append(("all", None))
        elif a.startswith("-"):
            raise unsupported(tool, a)
        elif a.replace(".", "", 1).isdigit():
            cluster, _, proc = a.partition(".")
            if int(cluster) <= 0:
                bad.append("Invalid cluster # from %s.\n" % a)
            elif proc:
                ids.append((int(cluster), int(proc), a))
            else:
                clauses.append(("cluster", int(cluster)))
        else:
            clauses.append(("owner", a))
        i += 1
    return ids, clauses, reason, bad


def constraint_words(clauses):
    """rm.cpp's summary: ` in cluster C`, ` of user "u"`, ` matching constraint (...)`."""
    if any(k == "all" for k, _ in clauses):
        return ""
    texts = ["ClusterId == %d" % v if k == "cluster" else 'Owner == "%s"' % v
             for k, v in clauses]
    if len(clauses) == 1:
        return (" in cluster %d" if clauses[0][0] == "cluster" else ' of user "%s"') \
            % clauses[0][1]
    return " matching constraint (%s)" % " || ".join(texts)


class Action:
    """What one of the tools does to a proc (rm.cpp's JobAction): its words, whether a proc
    had it already, and the change."""

    def __init__(self, tool, reason, verb, done, already, already_words, apply):
        self.tool, self.reason, self.verb, self.done = tool, reason, verb, done
        self.already, self.already_words, self.apply = already, already_words, apply


REMOVE = Action("condor_rm", "via condor_rm", "remove", "marked for removal",
                lambda job: job_status(job) == REMOVED, "already marked for removal", remove)


def _rm(argv):
    return act(argv, REMOVE)


def act(argv, action):
    """`action` on the procs named: ids one line each, clusters and owners as one
    constraint."""
    core.require_env(action.tool)
    ids, clauses, reason, bad = parse(argv, action.tool)
    if not ids and not clauses and not bad:
        raise CondorError("You did not specify any jobs\nUsage: %s [options] "
                          "[constraints]\n" % action.tool)
    reason = "%s (by user %s)" % (reason or action.reason, user_name())
    out, err = [], list(bad)
    had_error = bool(bad)
    words = constraint_words(clauses) if clauses else None
    try:
        store = core.client_store(action.tool, refused(action.tool))
    except RmUnreachable:
        if ids:
            err += [UNREACHABLE] + ["No result found for job %d.%d\n" % (c, p) for c, p, _ in ids]
        if clauses:
            err += [UNREACHABLE, "Couldn't find/%s all jobs%s\n" % (action.verb, words)]
        sys.stderr.write("".join(err))
        return 1
    now = time.time()
    with store.write() as cur:
        rows = [core.decode(r) for r in cur.execute(
            "SELECT * FROM jobs WHERE kind='sub' AND phase!='done' ORDER BY seq, idx")]
        if ids:
            lines, done = [], 0
            for cluster, proc, _ in ids:
                job = next((r for r in rows if r["seq"] == cluster and r["idx"] == proc
                            and in_queue(r)), None)
                if job is None:
                    lines.append((False, "Job %d.%d not found\n" % (cluster, proc)))
                elif action.already(job):
                    lines.append((False, "Job %d.%d %s\n" % (cluster, proc, action.already_words)))
                else:
                    action.apply(cur, job, reason, now)
                    lines.append((True, "Job %d.%d %s\n" % (cluster, proc, action.done)))
                    done += 1
            if not done:
                had_error = True
                err.append("\n")
            for ok, text in lines:
                (out if ok else err).append(text)
        if clauses:
            matched = 0
            for job in rows:
                if action.already(job):
                    continue
                if any(k == "all" or (k == "cluster" and job["seq"] == v) or
                       (k == "owner" and job["owner"] == v) for k, v in clauses):
                    action.apply(cur, job, reason, now)
                    matched += 1
            if matched:
                out.append("All jobs%s have been %s\n" % (words, action.done))
            elif any(in_queue(r) for r in rows):
                had_error = True
                err += ["\n", "Couldn't find/%s all jobs%s\n" % (action.verb, words)]
            else:
                err.append("%s:0:There are no jobs in the queue\n" % action.tool)
    sys.stdout.write("".join(out))
    sys.stdout.flush()
    sys.stderr.write("".join(err))
    return 1 if had_error else 0
