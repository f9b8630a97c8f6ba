"""PBS qstat: options, job selection, and which printer answers (qstat.c); `-Q -f`, the
queues, is pbs_qstat_queue.
"""

import getopt
import sys
import time

from standin import core
from standin.pbs_common import (PBSE_HISTJOBID, PBSE_UNKJOBID, PBSE_UNKQUE, QSTAT_USAGE, QUEUE,
                                parse_ref, refused)
from standin.pbs_qstat_json import render_json
from standin.pbs_qstat_queue import qstat_queues
from standin.pbs_qstat_text import render_table, render_text, table_row
from standin.pbs_view import job_view

class Jobs:
    """All jobs of an instance, loaded in one read."""

    def __init__(self, rows):
        self.top = []
        self.by_key = {}
        self.subs = {}
        self.by_rid = {}
        for row in rows:
            job = core.decode(row)
            self.by_rid[job["rid"]] = job
            self.by_key[(job["seq"], job["kind"], job["idx"])] = job
            if job["kind"] == "sub":
                self.subs.setdefault(job["parent"], []).append(job)
            else:
                self.top.append(job)

    def parent(self, job):
        return self.by_rid.get(job["parent"]) if job["kind"] == "sub" else None

    def history(self, job):
        top = self.parent(job) if job["kind"] == "sub" else job
        return top is not None and top["phase"] == "done"


def load_jobs(store, seqs=None):
    """All jobs, or only those with the given sequence numbers (a job id poll)."""
    with store.read() as cur:
        if seqs is None:
            rows = cur.execute("SELECT * FROM jobs ORDER BY seq, ifnull(idx, -1)").fetchall()
        else:
            rows = []
            seqs = sorted(set(seqs))
            for i in range(0, len(seqs), 500):
                part = seqs[i:i + 500]
                rows += cur.execute("SELECT * FROM jobs WHERE seq IN (%s) ORDER BY seq, "
                                    "ifnull(idx, -1)" % ",".join("?" * len(part)),
                                    part).fetchall()
    return Jobs(rows)


def qstat(argv):
    core.require_env("qstat")
    try:
        pairs, operands = getopt.gnu_getopt(argv, "ainpqrstwxu:fGHJMQEBW:T1F:D:")
    except getopt.GetoptError as e:
        if "requires argument" in e.msg:
            sys.stderr.write("qstat: option requires an argument -- '%s'\n" % e.opt)
        else:
            sys.stderr.write("qstat: invalid option -- '%s'\n" % e.opt)
        sys.stderr.write(QSTAT_USAGE)
        return 2
    flags = {}
    for opt, val in pairs:
        flags[opt[1:]] = val if val else True
    errflg = False
    fmt = "default"
    if "F" in flags:
        fmt = str(flags["F"]).lower()
        if fmt not in ("default", "dsv", "json"):
            errflg = True
    alt = [c for c in "ainrsHTGMu" if c in flags]
    conflict = False
    if fmt != "default" and (not flags.get("f") or alt):
        conflict = True
    if flags.get("f") and alt:
        conflict = True
    if "1" in flags and not ("n" in flags or "s" in flags):
        conflict = True
    if "w" in flags and fmt != "default":
        sys.stderr.write("qstat: option w cannot be used with -F\n")
        errflg = True
    if conflict:
        sys.stderr.write("qstat: conflicting options.\n")
        errflg = True
    if errflg:
        sys.stderr.write(QSTAT_USAGE)
        return 2
    if "Q" in flags:
        return qstat_queues(flags, fmt, operands)
    unsupported = [c for c in "QBqainrsTGM1pD" if c in flags] + (["F dsv"] if fmt == "dsv" else [])
    if unsupported:
        sys.stderr.write("qstat: the stand-in does not support -%s\n" % unsupported[0])
        return 2
    as_json = fmt == "json"
    full = bool(flags.get("f"))
    history = "x" in flags or "H" in flags
    subjobs = "t" in flags
    store = core.client_store("qstat", refused("qstat", json_prologue=as_json))
    cfg = store.cfg
    server = cfg["server_name"]
    now = time.time()
    refs = [parse_ref(op, server) for op in operands]
    if operands and all(refs):
        jobs = load_jobs(store, [r.seq for r in refs])
    else:
        jobs = load_jobs(store)
    selected = []
    status = 0
    errors = []

    def want(job):
        if "H" in flags and not jobs.history(job):
            return False
        if "u" in flags:
            base = jobs.parent(job) if job["kind"] == "sub" else job
            if base["owner"] not in str(flags["u"]).split(","):
                return False
        if "J" in flags and job["kind"] == "job":
            return False
        return True

    def add(job):
        selected.append(job)
        if job["kind"] == "array" and subjobs:
            selected.extend(jobs.subs.get(job["rid"], []))

    if not operands:
        for job in jobs.top:
            if (history or job["phase"] != "done") and want(job):
                add(job)
    for op, ref in zip(operands, refs):
        if ref is None:
            dest = op.split("@")[0]
            if dest in ("", QUEUE):
                for job in jobs.top:
                    if (history or job["phase"] != "done") and want(job):
                        add(job)
                continue
            errors.append("qstat: Unknown queue destination %s\n" % op)
            status = PBSE_UNKQUE
            continue
        if ref.bracket and ref.hi is not None:
            found = [jobs.by_key.get((ref.seq, "sub", i)) for i in range(ref.lo, ref.hi + 1)]
            found = [j for j in found if j is not None] if ref.server_ok else []
        else:
            j = jobs.by_key.get((ref.seq, ref.kind, ref.lo)) if ref.server_ok else None
            found = [j] if j is not None else []
        if not found:
            errors.append("qstat: Unknown Job Id %s\n" % ref.shown)
            status = PBSE_UNKJOBID
            continue
        if not history and jobs.history(found[0]):
            errors.append("qstat: %s Job has finished, use -x or -H to obtain historical job "
                          "information\n" % ref.shown)
            status = PBSE_HISTJOBID
            continue
        for job in found:
            if want(job):
                add(job)

    if as_json or full:
        views = [job_view(job, jobs.parent(job), jobs.subs.get(job["rid"], []), cfg, now)
                 for job in selected]
        text = render_json(cfg, now, views) if as_json else render_text(views, "w" in flags)
    else:
        text = render_table([table_row(j, jobs.parent(j), cfg, now) for j in selected], cfg,
                            "w" in flags)
    sys.stdout.write(text)
    sys.stdout.flush()
    sys.stderr.write("".join(errors))
    return status % 256
