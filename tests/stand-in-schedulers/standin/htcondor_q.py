"""condor_q [C | C.P | OWNER]... [-json | -long[:nosort] | -af[:jtV,] A... | -nobatch |
-batch] [-attributes A,B,...] [-allusers]: the jobs in the queue (src/condor_q.V6/queue.cpp
@ 7491a145).

Which: the ids and owners given (any of them: they are OR'ed), else the caller's jobs
(-allusers: everyone's); jobs that left the queue (completed, removed) are not shown.
Unknown ids are no error. How: -json (the unit test's layout, attributes sorted; NOTHING
printed when no job matches), -long, -af, or the tables (-nobatch: the man page's; the
default: one line per batch). -attributes keeps only the attributes named that the ad
defines (ServerTime, which the schedd adds for -json/-long, only when named).
"""

import sys
import time

from standin import core
from standin.htcondor_common import (COMPLETED, HELD, IDLE, REMOVED, RUNNING, SUSPENDED,
                                     CondorError, dash_option, fqdn, parse_job_id, qdate,
                                     refused, schedd_address, unsupported, user_name)
from standin.htcondor_json import (af_list, json_list, jsonl_list, long_list, parse_af,
                                   select)
from standin.htcondor_view import proc_ad, table_row

NOBATCH_HEADER = " ID      OWNER            SUBMITTED     RUN_TIME ST PRI SIZE CMD\n"


def condor_q(argv):
    try:
        return _q(argv)
    except CondorError as e:
        sys.stdout.flush()
        sys.stderr.write(e.message)
        return e.status


def parse_args(cmd, argv, extra=()):
    """The options condor_q and condor_history share, and the id/owner operands."""
    o = {"format": None, "attrs": None, "af": None, "af_opts": "", "ids": [], "owners": [],
         "nosort": False, "batch": None, "allusers": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        af = parse_af(a)
        if not a.startswith("-"):
            ref = parse_job_id(a)
            (o["ids"] if ref else o["owners"]).append(ref or a)
        elif af is not None:
            names = []
            while i + 1 < len(argv) and not argv[i + 1].startswith("-"):
                names.append(argv[i + 1])
                i += 1
            if not names:
                raise CondorError("Error: %s requires at least one attribute parameter\n" % a)
            if set(af) - set("jtV,"):
                raise unsupported(cmd, "-af:%s" % af)
            o.update(format="af", af=names, af_opts=af)
        elif dash_option(a, "json", 2) or dash_option(a, "jsonl", 5):
            o["format"] = "jsonl" if dash_option(a, "jsonl", 5) else "json"
        elif a.split(":")[0] == "-l" or dash_option(a.split(":")[0], "long", 2):
            o["format"] = "long"
            o["nosort"] = a.endswith(":nosort")
        elif dash_option(a, "attributes", 2):
            if i + 1 >= len(argv):
                raise CondorError("Error: -attributes requires a list of attributes to show\n")
            o["attrs"] = [x for x in argv[i + 1].replace(" ", ",").split(",") if x]
            i += 1
        elif a in extra:
            if i + 1 >= len(argv):
                raise CondorError("Error: Argument %s requires another parameter\n" % a)
            o[a.lstrip("-")] = argv[i + 1]
            i += 1
        elif dash_option(a, "nobatch", 3) or dash_option(a, "batch", 2):
            o["batch"] = dash_option(a, "batch", 2)
        elif dash_option(a, "allusers", 2):
            o["allusers"] = True
        elif dash_option(a, "wide", 1):
            pass
        else:
            raise unsupported(cmd, a)
        i += 1
    if o["format"] == "jsonl" and cmd == "condor_q":
        raise unsupported(cmd, "-jsonl")
    return o


def wanted(job, o, me):
    if o["ids"] or o["owners"]:
        for cluster, proc in o["ids"]:
            if job["seq"] == cluster and (proc is None or job["idx"] == proc):
                return True
        return job["owner"] in o["owners"]
    return o.get("allusers") or job["owner"] == me


def render(ads, o):
    """-json, -jsonl, -long, -af of the ads ([(name, value)] lists), as text."""
    if o["format"] == "af":
        return af_list(ads, o["af"], o["af_opts"])
    shown = [select(ad, o["attrs"], keep_order=o["nosort"]) for ad in ads]
    if o["format"] == "json":
        return json_list(shown)
    if o["format"] == "jsonl":
        return jsonl_list(shown)
    return long_list(shown)


def counts(jobs_status):
    c = {k: 0 for k in (COMPLETED, REMOVED, IDLE, RUNNING, HELD, SUSPENDED)}
    for s in jobs_status:
        c[s] = c.get(s, 0) + 1
    return ("%d jobs; %d completed, %d removed, %d idle, %d running, %d held, %d suspended"
            % (len(jobs_status), c[COMPLETED], c[REMOVED], c[IDLE], c[RUNNING], c[HELD],
               c[SUSPENDED]))


def batch_table(rows, by_rid, ads):
    """One line per batch (JobBatchName, else `ID: C`) and owner."""
    groups = {}
    for job, ad in zip(rows, ads):
        d = dict(ad)
        name = d.get("JobBatchName") or "ID: %d" % job["seq"]
        g = groups.setdefault((job["owner"], name), {"qdate": d["QDate"], "ids": [],
                                                     "st": [], "clusters": set()})
        g["ids"].append((job["seq"], job["idx"]))
        g["st"].append(d["JobStatus"])
        g["clusters"].add(job["parent"])
    width = max([5] + [len(k[0]) for k in groups])
    held = any(HELD in g["st"] for g in groups.values())
    out = ["%-*s BATCH_NAME    SUBMITTED   DONE   RUN    IDLE%s  TOTAL JOB_IDS\n"
           % (width, "OWNER", "   HOLD" if held else "")]
    for (owner, name), g in groups.items():
        total = sum((by_rid[c]["attrs"] or {}).get("procs", 0) for c in g["clusters"])
        done = total - len(g["ids"])

        def n(v):
            return "%6s" % (v if v else "_")
        ids = g["ids"]
        idtext = "%d.%d" % ids[0] if len(ids) == 1 else "%d.%d-%d" % (ids[0] + (ids[-1][1],))
        out.append("%-*s %-12s %12s %s %s %s%s %s %s\n"
                   % (width, owner, name, qdate(g["qdate"]), n(done), n(g["st"].count(RUNNING)),
                      n(g["st"].count(IDLE)), " " + n(g["st"].count(HELD)) if held else "",
                      n(total), idtext))
    return "".join(out)


def _q(argv):
    core.require_env("condor_q")
    o = parse_args("condor_q", argv)
    store = core.client_store("condor_q", refused("condor_q"))
    host, me, now = fqdn(), user_name(), time.time()
    with store.read() as cur:
        rows = [core.decode(r) for r in cur.execute(
            "SELECT * FROM jobs ORDER BY seq, ifnull(idx, -1)").fetchall()]
    by_rid = {r["rid"]: r for r in rows}
    queue = [r for r in rows if r["kind"] == "sub" and not r["dep_hold"] and r["phase"] != "done"]
    shown = [r for r in queue if wanted(r, o, me)]
    ads = [proc_ad(r, by_rid.get(r["parent"]), host, now, server_time=True) for r in shown]
    if o["format"]:
        sys.stdout.write(render(ads, o))
        return 0
    out = ["\n\n-- Schedd: %s : %s @ %s\n" % (fqdn(), schedd_address(store).split("?")[0] + "?...",
                                             time.strftime("%m/%d/%y %H:%M:%S",
                                                           time.localtime(now)))]
    if o["batch"] is False:
        out.append(NOBATCH_HEADER)
        out += [table_row(ad, now) for ad in ads]
        out.append("\n" + counts([dict(ad)["JobStatus"] for ad in ads]) + "\n")
    else:
        out.append(batch_table(shown, by_rid, ads))
        out.append("\nTotal for query: %s\n" % counts([dict(ad)["JobStatus"] for ad in ads]))
        out.append("Total for all users: %s\n"
                   % counts([dict(proc_ad(r, None, host, now))["JobStatus"] for r in queue]))
    sys.stdout.write("".join(out))
    return 0
