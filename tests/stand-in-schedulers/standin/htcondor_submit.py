"""condor_submit [-terse] [-batch-name NAME] [-append LINE]... [-queue ARGS] [key=value]...
[FILE | -]: submit the procs of one cluster (src/condor_submit.V6/submit.cpp @ 7491a145).

Success: `Submitting job(s)`, a `.` a proc (none for a late-materialized cluster, i.e. with
max_materialize), `\\n`, `N job(s) submitted to cluster C.`, and on stderr `To monitor your
job(s), run: condor_watch_q -clusters C` (setting watch_q_hint); -terse: `C.0 - C.(N-1)`
only. Refusals go to stderr as condor_submit words them (`\\nERROR: ...`), exit 1; a cluster
is queued whole or not at all. The schedd is first asked for at the first queue statement
with procs (an outage is reported there).
"""

import contextlib
import os
import sys
import time

from standin import core
from standin.htcondor_common import (HOLD_SUBMITTED_ON_HOLD, CondorError, cfg_value,
                                     dash_option, refused, unsupported, user_name)
from standin.htcondor_submit_file import Hash, SubmitFile, SubmitSyntaxError
from standin.htcondor_submit_keys import build_proc, environment_text

MULTI_QUEUE_WARNING = (
    "\nWarning: Use of multiple queue statements in a single submit file is deprecated."
    "\n         This functionality will be removed in the 25.x feature series. To see"
    "\n         how multiple queue statements can be converted into one visit:"
    "\nhttps://htcondor.readthedocs.io/en/latest/auto-redirect.html?category=example&"
    "tag=convert-multi-queue-statements\n")
HOLD_REASON_SUBMIT = "submitted on hold at user's request"


def condor_submit(argv):
    try:
        return _submit(argv)
    except CondorError as e:
        sys.stdout.flush()
        sys.stderr.write(e.message)
        return e.status


def options(argv):
    o = {"terse": False, "batch_name": None, "append": [], "queue": None, "file": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        takes = None
        for name, least in (("batch-name", 1), ("append", 1), ("queue", 1)):
            if dash_option(a, name, least):
                takes = name
                break
        if takes:
            if i + 1 >= len(argv):
                raise CondorError("condor_submit: -%s requires another argument\n" % takes)
            value = argv[i + 1]
            if takes == "append":
                o["append"].append(value)
            else:
                o["batch_name" if takes == "batch-name" else "queue"] = value
            i += 2
            continue
        if dash_option(a, "terse", 3):
            o["terse"] = True
        elif dash_option(a, "disable", 3):
            pass
        elif a.startswith("-") and a != "-":
            raise unsupported("condor_submit", a)
        elif "=" in a:
            o["append"].append(a)
        elif o["file"] is None:
            o["file"] = a
        else:
            raise unsupported("condor_submit", "more than one submit file")
        i += 1
    if o["file"] == "-" and not o["terse"]:
        raise unsupported("condor_submit", "'-' without -terse (verbose output)")
    return o


def submit_cwd():
    cwd = os.getcwd()
    pwd = os.environ.get("PWD")
    if pwd and os.path.isdir(pwd) and os.path.samefile(pwd, "."):
        cwd = pwd
    return cwd


def _submit(argv):
    core.require_env("condor_submit")
    o = options(argv)
    cwd, environ = submit_cwd(), dict(os.environ)
    if o["file"] in (None, "-"):
        text, filename = sys.stdin.buffer.read().decode("utf-8", "surrogateescape"), "<stdin>"
    else:
        filename = o["file"]
        try:
            with open(o["file"], "rb") as f:
                text = f.read().decode("utf-8", "surrogateescape")
        except OSError as e:
            raise CondorError("\nERROR: Failed to open command file (%s) (%s)\n"
                              % (o["file"], e.strerror))
    out = sys.stdout
    if o["file"] != "-" and not o["terse"]:
        out.write("Submitting job(s)")
        out.flush()
    sf = SubmitFile(text, filename)
    h = Hash({"submit_file": filename})
    st = {"queues": 0, "procs": [], "factory": None, "store": None, "cur": None, "seq": None}
    with contextlib.ExitStack() as stack:
        try:
            for s in sf.statements():
                if s[0] == "set":
                    h.set(s[2], s[3], s[1])
                elif s[0] == "plus":
                    h.set_plus(s[2], s[3])
                else:
                    if o["queue"] is not None:
                        raise SubmitSyntaxError(s[1], "-queue argument conflicts with queue "
                                                      "statement in submit file")
                    run_queue(s[2], s[1], sf, h, o, st, stack, cwd, environ)
            if not st["queues"] and o["queue"] is not None:
                run_queue(o["queue"], sf.line, sf, h, o, st, stack, cwd, environ)
            if not st["queues"]:
                raise SubmitSyntaxError(sf.line, "no queue statement")
        except SubmitSyntaxError as e:
            sys.stdout.flush()
            sys.stderr.write("\nERROR: on Line %d of %s: %s\n" % (e.line, filename, e.errmsg)
                             + e.extra + "\nERROR: Failed to parse command file (line %d).\n"
                             % sf.line)
            raise SystemExit(1)
        if st["queues"] > 1:
            sys.stderr.write(MULTI_QUEUE_WARNING)
        if st["procs"]:
            insert(st, filename, cwd)
    procs, seq = st["procs"], st["seq"]
    if not procs and not o["terse"]:
        sys.stderr.write("\nWARNING: \"%s\" has only empty \"queue\" commands -- no jobs queued\n"
                         % ("(stdin)" if o["file"] == "-" else filename))
    if o["terse"]:
        if procs:
            out.write("%d.0 - %d.%d\n" % (seq, seq, len(procs) - 1))
        return 0
    out.write("\n")
    if procs:
        out.write("%d job(s) submitted to cluster %d.\n" % (len(procs), seq))
        out.flush()
        if int(cfg_value(st["store"].cfg, "watch_q_hint")):
            sys.stderr.write("To monitor your job(s), run: condor_watch_q -clusters %d\n" % seq)
    return 0


def run_queue(args, line, sf, h, o, st, stack, cwd, environ):
    """One queue statement: its procs, checked and kept for the insert."""
    st["queues"] += 1
    for extra in o["append"]:
        kind = SubmitFile(extra, "<append>").statements()
        for s in kind:
            if s[0] == "set":
                h.set(s[2], s[3])
            elif s[0] == "plus":
                h.set_plus(s[2], s[3])
    if o["batch_name"] is not None:
        h.set("batch_name", o["batch_name"])
    q = sf.parse_queue(h.expand(args, {}), line)
    if st["queues"] == 1:
        limit = h.get({}, "max_materialize", "JobMaterializeLimit")
        if limit:
            try:
                st["factory"] = int(limit) if int(limit) > 0 else None
            except ValueError:
                st["factory"] = None
            st["factory"] = st["factory"] or sys.maxsize
    procs = q.procs()
    if not procs:
        return
    if st["store"] is None:
        st["store"] = core.client_store("condor_submit", refused("condor_submit"))
        st["cur"] = stack.enter_context(st["store"].write())
        st["seq"] = core.Store.alloc_seq(st["cur"])
    for live in procs:
        number = len(st["procs"])
        live.update(cluster=str(st["seq"]), clusterid=str(st["seq"]), process=str(number),
                    procid=str(number))
        st["procs"].append(build_proc(h, live, cwd, environ))
        if not st["factory"] and not o["terse"]:
            sys.stdout.write(".")
    if st["factory"] and sf.rest_has_data():
        raise SubmitSyntaxError(sf.line, "Extra data found after queue statement")


def insert(st, filename, cwd):
    """The cluster (an `array` row) and its procs (`sub` rows, ProcId = idx). Procs beyond
    max_materialize wait unmaterialized (dep_hold; the Policy materializes them)."""
    cur, seq, procs = st["cur"], st["seq"], st["procs"]
    now = time.time()
    uid, gid = os.getuid(), os.getgid()
    owner = user_name()
    common = dict(seq=seq, submit_dir=cwd, owner=owner, uid=uid, gid=gid, submit_time=now,
                  mtime=now, rerunnable=1)
    rid = core.Store.insert_job(
        cur, kind="array", phase="queued", eligible_time=now,
        attrs={"submit_file": filename, "materialize": st["factory"], "procs": len(procs)},
        **common)
    limit = st["factory"] or len(procs)
    for number, p in enumerate(procs):
        attrs = dict(p, env_text=environment_text(p["env"]))
        del attrs["env"]
        materialized = number < limit
        hold = p["hold"]
        if hold:
            attrs["hold"] = [HOLD_SUBMITTED_ON_HOLD, 0, HOLD_REASON_SUBMIT]
        phase = "queued" if materialized and not hold else "held"
        core.Store.insert_job(
            cur, kind="sub", idx=number, parent=rid, phase=phase, attrs=attrs,
            argv=[p["exe"]] + p["args"], cwd=p["iwd"], env=[list(kv) for kv in p["env"]],
            eligible_time=now if materialized else None, dep_hold=0 if materialized else 1,
            user_hold=1 if hold else 0, ncpus=p["cpus"], ngpus=p["gpus"],
            walltime=p["duration"], **common)
