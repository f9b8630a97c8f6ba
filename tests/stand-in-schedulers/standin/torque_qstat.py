"""Torque qstat: options, which jobs each operand names, and which printer answers
(src/cmds/qstat.c main, run_job_mode; src/server/req_stat.c).

Each operand is answered on its own: `qstat -x A B` prints one XML document per
operand that was found, and the error lines (`qstat: Unknown Job Id Error <id>`) come
after everything else; the exit status is that of the first failing operand
(pbs_errno & 255). Without operands every job is listed. Without -t an array appears
as its parent `N[]` only; with -t as its subjobs `N[i]` only (the server's job list
holds no array parents: svr_jobfunc.c svr_enquejob, req_stat.c). `-Q -f`, the queues,
is torque_qstat_queue.
"""

import getopt
import sys
import time

from standin import core
from standin.torque_common import (PBSE_UNKJOBID, PBSE_UNKQUE, QSTAT_USAGE, QUEUE,
                                   VERSION_COMMIT, cfg_or_default, parse_ref, refused, version)
from standin.torque_qstat_queue import qstat_queues
from standin.torque_qstat_text import HEADER, render_full, summary_row
from standin.torque_qstat_xml import render_document
from standin.torque_view import job_view

OPTSTRING = "acCeE:filn1pqrstu:xGMQRBW:"
UNSUPPORTED = "ainqrsGMQRBW"


class Jobs:
    """The instance's jobs, loaded in one read: top-level jobs in order, subjobs by parent."""

    def __init__(self, store):
        with store.read() as cur:
            rows = cur.execute("SELECT * FROM jobs ORDER BY seq, ifnull(idx, -1)").fetchall()
        self.top, self.subs, self.by_rid, self.by_key = [], {}, {}, {}
        for row in rows:
            job = core.decode(row)
            self.by_rid[job["rid"]] = job
            self.by_key[(job["seq"], job["kind"], job["idx"])] = job
            if job["kind"] == "sub":
                self.subs.setdefault(job["parent"], []).append(job)
            else:
                self.top.append(job)

    def expand(self, job, subjobs):
        """An array as its parent (summary) or as its subjobs (-t)."""
        if job["kind"] == "array" and subjobs:
            return list(self.subs.get(job["rid"], []))
        return [job]

    def everything(self, subjobs):
        out = []
        for job in self.top:
            out += self.expand(job, subjobs)
        return out

    def view(self, job, cfg, now):
        parent = self.by_rid.get(job["parent"]) if job["kind"] == "sub" else None
        return job_view(job, parent, self.subs.get(job["rid"], []), cfg, now)


def usage(message=""):
    sys.stderr.write(message + QSTAT_USAGE)
    return 2


def qstat(argv):
    core.require_env("qstat")
    if "--version" in argv or "--about" in argv:
        sys.stdout.write("Version: %s\nCommit: %s\n" % (version(cfg_or_default()), VERSION_COMMIT))
        return 0
    try:
        pairs, operands = getopt.gnu_getopt(argv, OPTSTRING, ["xml"])
    except getopt.GetoptError as e:
        what = "option requires an argument" if "requires argument" in e.msg else "invalid option"
        return usage("qstat: %s -- '%s'\n" % (what, e.opt))
    flags = {}
    for opt, val in pairs:
        flags["x" if opt == "--xml" else opt[1:]] = val if val else True
    if "Q" in flags and not any(c in flags for c in "aiBqn"):
        return qstat_queues(flags, operands)
    for c in UNSUPPORTED:
        if c in flags:
            sys.stderr.write("qstat: the stand-in does not support -%s\n" % c)
            return 2
    xml, full, subjobs = "x" in flags, "f" in flags, "t" in flags
    if "1" in flags and not full:
        return usage("qstat: conflicting options.\n")
    if "u" in flags and not full:
        sys.stderr.write("qstat: the stand-in does not support -u without -f\n")
        return 2
    users = str(flags["u"]).split(",") if "u" in flags else None
    store = core.client_store("qstat", refused("qstat"))
    cfg, now = store.cfg, time.time()
    jobs = Jobs(store)

    def shown(job):
        if "c" in flags and job["phase"] == "done":
            return False
        owner = (jobs.by_rid[job["parent"]] if job["kind"] == "sub" else job)["owner"]
        return users is None or owner in users

    answers, errors, status = [], [], 0
    for op in operands or [None]:
        found = None
        if op is None or not op.strip()[:1].isdigit():
            dest = (op or "").split("@")[0]
            if dest in ("", QUEUE):
                found = jobs.everything(subjobs)
            else:
                errors.append("qstat: Unknown queue %s" % dest)
                status = status or PBSE_UNKQUE
        else:
            ref = parse_ref(op, cfg["server_name"])
            if ref is None:
                sys.stderr.write("qstat: illegally formed job identifier: %s\n" % op)
                errors.append("qstat: Error (1 - Operation not permitted) ")
                status = status or 1
                continue
            job = jobs.by_key.get((ref.seq, ref.kind, ref.idx)) if ref.server_ok else None
            if job is None:
                errors.append("qstat: Unknown Job Id Error %s" % ref.shown)
                status = status or PBSE_UNKJOBID
            else:
                found = jobs.expand(job, subjobs)
        if found is not None:
            answers.append([jobs.view(j, cfg, now) for j in found if shown(j)])
    out = []
    header = True
    for views in answers:
        if xml:
            out.append(render_document(views))
        elif full:
            out.append(render_full(views, one_line="1" in flags))
        elif views:
            out.append((HEADER if header else "") + "".join(summary_row(j, a) for j, a in views))
            header = False
    sys.stdout.write("".join(out))
    sys.stdout.flush()
    sys.stderr.write("".join(e + "\n" for e in errors))
    return status % 256
