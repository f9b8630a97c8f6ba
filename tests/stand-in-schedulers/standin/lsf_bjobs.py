"""LSF bjobs: `bjobs [-a|-d|-p|-r|-s] [-w] [-o "fields" [-json] [-noheader] [-hms]]
[-u user|all] [-J name] [-q queue] [ID ...]`.

Which jobs: the ids given (an array's id: every element; `N[i]`, `N[1-3]`: those), else
every job of the user (-u; `all`: everyone's). Without -a only unfinished jobs are shown;
-d finished ones only (DONE, EXIT), -p pending, -r running, -s suspended.
How: -o's fields as JSON (-json; the published samples' layout), as columns (-o), or
the default table (`JOBID USER STAT QUEUE FROM_HOST EXEC_HOST JOB_NAME SUBMIT_TIME`;
names over 10 characters cut to `*` and their tail unless -w).
Unknown ids (cmd.err.c jobInfoErr): with -json and bjobs_unknown=record (the default) a
record {"JOBID":"N","ERROR":"Job <N> is not found"} in its place, exit 0; otherwise
stderr `Job <N> is not found`, exit 255. Nothing to show: stderr `No job found` (-a),
`No unfinished job found` (none of -a -d -p -r -s), ..., exit 0.
"""

import sys

from standin import core
from standin.lsf_common import (LsfError, cfg_value, json_document, parse_id, refused,
                                unsupported, user_name)
from standin.lsf_view import Context, canonical, field_values

UNFINISHED = ("PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN")
STATES = {"a": None, "d": ("DONE", "EXIT"), "p": ("PEND", "PSUSP"), "r": ("RUN",),
          "s": ("PSUSP", "USUSP", "SSUSP"), "": UNFINISHED}
NOTHING = {"a": "No job found", "d": "No DONE/EXIT job found", "p": "No pending job found",
           "r": "No running job found", "s": "No suspended job found",
           "": "No unfinished job found"}
WITH_VALUE = ("-o", "-u", "-J", "-q")
FLAGS = ("-a", "-d", "-p", "-r", "-s", "-w", "-json", "-noheader", "-hms")


def bjobs(argv):
    try:
        return _bjobs(argv)
    except LsfError as e:
        sys.stderr.write(e.message)
        return e.status


def options(argv):
    opts, ids, i = {}, [], 0
    while i < len(argv):
        a = argv[i]
        if a in WITH_VALUE:
            if i + 1 >= len(argv):
                raise LsfError("bjobs: option requires an argument -- %s\n" % a[1:])
            opts[a], i = argv[i + 1], i + 2
        elif a in FLAGS:
            opts[a], i = True, i + 1
        elif a.startswith("-") and len(a) > 1:
            raise unsupported("bjobs", a)
        else:
            ids.append(a)
            i += 1
    return opts, ids


def output_format(text):
    """-o "jobid stat:10 exit_code delimiter='^'" -> ([KEY...], delimiter)."""
    keys, delimiter = [], " "
    for item in text.split():
        if item.startswith("delimiter="):
            delimiter = item.split("=", 1)[1].strip("'\"") or " "
            continue
        key = canonical(item.split(":", 1)[0])
        if key is None:
            raise unsupported("bjobs", "the field %s" % item.split(":", 1)[0])
        keys.append(key)
    return keys, delimiter


def table(values, wide):
    """The default listing (the published `bjobs -w` samples)."""
    out = ["JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME\n"]
    for v in values:
        name = v["JOB_NAME"]
        if not wide and len(name) > 10:
            name = "*" + name[-9:]
        out.append("%-7s %-7s %-5s %-10s %-11s %-11s %-10s %s\n"
                   % (v["JOBID"], v["USER"], v["STAT"], v["QUEUE"], v["FROM_HOST"],
                      v["EXEC_HOST"], name, v["SUBMIT_TIME"]))
    return "".join(out)


def _bjobs(argv):
    core.require_env("bjobs")
    opts, ids = options(argv)
    keys, delimiter = output_format(opts["-o"]) if "-o" in opts else (None, " ")
    which = "".join(c for c in "adprs" if "-" + c in opts)[:1]
    store = core.client_store("bjobs", refused("Connection refused by server\n"))
    cfg = store.cfg
    with store.read() as cur:
        rows = [core.decode(r) for r in cur.execute(
            "SELECT * FROM jobs ORDER BY seq, ifnull(idx, -1)").fetchall()]
    by_rid = {r["rid"]: r for r in rows}
    subs, tops = {}, {}
    for r in rows:
        if r["kind"] == "sub":
            subs.setdefault(r["parent"], []).append(r)
        else:
            tops[r["seq"]] = r
    running = {p: sum(1 for s in ss if s["phase"] in ("running", "exiting"))
               for p, ss in subs.items()}
    ctx = Context(cfg, hms=bool(opts.get("-hms")), running=running)

    def units(top, indices=None):
        if top["kind"] != "array":
            return [top]
        return [s for s in subs.get(top["rid"], []) if indices is None or s["idx"] in indices]

    # (job row or None, operand) in the order bjobs answers
    wanted = []
    if ids:
        for op in ids:
            ref = parse_id(op)
            if ref is None:
                raise LsfError("%s: Illegal job ID.\n" % op)
            top = tops.get(ref[0])
            found = units(top, ref[1]) if top is not None else []
            if top is not None and top["kind"] != "array" and ref[1] is not None:
                found = []
            shown = str(ref[0]) if ref[1] is None else "%d[%s]" % (ref[0], op.split("[", 1)[1][:-1])
            wanted += [(u, shown) for u in found] or [(None, shown)]
    else:
        user = opts.get("-u", user_name())
        for top in tops.values():
            if user == "all" or top["owner"] == user:
                wanted += [(u, None) for u in units(top)]

    states = STATES[which]
    records, unknown = [], []
    for job, shown in wanted:
        if job is None:
            unknown.append(shown)
            records.append((None, shown))
            continue
        parent = by_rid.get(job["parent"]) if job["kind"] == "sub" else None
        values = field_values(job, parent, ctx)
        if states is not None and values["STAT"] not in states:
            continue
        if "-J" in opts and values["JOB_NAME"] != opts["-J"] and \
                (job["kind"] != "sub" or (parent["attrs"].get("name") != opts["-J"])):
            continue
        if "-q" in opts and values["QUEUE"] != opts["-q"]:
            continue
        records.append((values, shown))

    as_records = bool(opts.get("-json")) and keys is not None
    in_records = as_records and cfg_value(cfg, "bjobs_unknown") == "record"
    found = [v for v, _ in records if v is not None]
    out, err = [], []
    if as_records and (found or (in_records and unknown)):
        docs = []
        for values, shown in records:
            if values is not None:
                docs.append([(k, values[k]) for k in keys])
            elif in_records:
                docs.append([("JOBID", shown), ("ERROR", "Job <%s> is not found" % shown)])
        out.append(json_document(docs))
    elif found and keys is not None:
        if not opts.get("-noheader"):
            out.append(delimiter.join(keys) + "\n")
        out += [delimiter.join(v[k] or "-" for k in keys) + "\n" for v in found]
    elif found:
        out.append(table(found, bool(opts.get("-w"))))
    if not in_records:
        err += ["Job <%s> is not found\n" % shown for shown in unknown]
    if not found and not unknown:
        err.append(NOTHING[which] + "\n")
    sys.stdout.write("".join(out))
    sys.stdout.flush()
    sys.stderr.write("".join(err))
    return 255 if unknown and not in_records else 0
