"""condor_history [C | C.P | OWNER]... [-json | -jsonl | -long | -af[:jtV,] A...]
[-attributes A,B,...] [-limit N | -match N] [-completedsince T] [-forwards]: the jobs that
left the queue, newest first (src/condor_tools/history.cpp, docs/man-pages/condor_history.rst
@ 7491a145).

A proc enters the history when it leaves the queue: completed (JobStatus 4) at once,
removed (3) once its processes are gone. condor_history reads the schedd's history FILE,
not the schedd: it keeps working during an outage (and never hangs). Clusters are
forgotten `history_duration` seconds after their last proc left (standin-ctl purge: now).
-completedsince T scans back until the first ad whose CompletionDate <= T (`-since
'CompletionDate<=T'`; a removed job has no CompletionDate and never stops the scan).
Nothing is printed when nothing matches.
"""

import os
import sqlite3
import sys
import time

from standin import core
from standin.htcondor_common import CondorError, format_time, fqdn, qdate, unsupported
from standin.htcondor_q import parse_args, render, wanted
from standin.htcondor_view import proc_ad

EXTRA = ("-limit", "-match", "-completedsince", "-scanlimit")


def condor_history(argv):
    try:
        return _history(argv)
    except CondorError as e:
        sys.stdout.flush()
        sys.stderr.write(e.message)
        return e.status


def history_store():
    """The instance's history, read directly (no schedd involved)."""
    core.require_env("condor_history")
    state_dir = os.environ["YARD_STANDIN_DIR"]
    try:
        return core.Store(state_dir)
    except (OSError, core.StandinError, sqlite3.Error, ValueError) as e:
        sys.stderr.write("condor_history: stand-in instance %s unusable: %s\n" % (state_dir, e))
        sys.exit(1)


def number(text, what):
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        raise CondorError("Error: '%s' not valid parameter for %s " % (text, what))


def table(ads, now):
    out = [" ID         OWNER          SUBMITTED   RUN_TIME     ST COMPLETED   CMD\n"]
    for ad in ads:
        d = dict(ad)
        st = {1: "I", 2: "R", 3: "X", 4: "C", 5: "H", 7: "S"}.get(d.get("JobStatus"), "?")
        cmd = os.path.basename(d.get("Cmd") or "")
        if d.get("Arguments"):
            cmd += " " + d["Arguments"]
        done = qdate(d["CompletionDate"]) if d.get("CompletionDate") else ""
        out.append("%-11s %-14s %11s %12s %-2s %11s %s\n"
                   % ("%d.%d" % (d["ClusterId"], d["ProcId"]), d.get("Owner") or "",
                      qdate(d["QDate"]), format_time(d.get("RemoteWallClockTime", 0.0)), st,
                      done, cmd))
    return "".join(out)


def _history(argv):
    forwards = False
    if "-forwards" in argv or "-backwards" in argv:
        forwards = "-forwards" in argv
        argv = [a for a in argv if a not in ("-forwards", "-backwards")]
    o = parse_args("condor_history", argv, extra=EXTRA)
    o["allusers"] = True
    if o.get("scanlimit") is not None:
        raise unsupported("condor_history", "-scanlimit")
    limit = o.get("limit") or o.get("match")
    limit = number(limit, "-limit") if limit is not None else None
    since = o.get("completedsince")
    since = number(since, "-completedsince") if since is not None else None
    store = history_store()
    host, now = fqdn(), time.time()
    with store.read() as cur:
        rows = [core.decode(r) for r in cur.execute(
            "SELECT * FROM jobs WHERE kind='sub' AND phase='done' AND dep_hold=0 "
            "ORDER BY history_time DESC, rid DESC").fetchall()]
        parents = {r["rid"]: core.decode(r) for r in cur.execute(
            "SELECT * FROM jobs WHERE kind='array'").fetchall()}
    if forwards:
        rows.reverse()
    ads = []
    for job in rows:
        ad = proc_ad(job, parents.get(job["parent"]), host, now)
        completion = dict(ad).get("CompletionDate")
        if since is not None and completion is not None and completion <= since:
            break
        if not wanted(job, o, None):
            continue
        ads.append(ad)
        if limit is not None and len(ads) >= limit:
            break
    if o["format"]:
        sys.stdout.write(render(ads, o))
    elif ads:
        sys.stdout.write(table(ads, now))
    return 0
