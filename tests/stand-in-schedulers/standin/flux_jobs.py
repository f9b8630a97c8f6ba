"""flux jobs: `flux jobs [-a|-A] [-u USER] [-f STATES] [--name N] [-q Q] [-c N] [-n]
[-o FORMAT] [--json] [JOBID ...]`.

Which jobs (src/cmd/flux-jobs.py, flux/job/list.py, job-list): the ids given, in that
order and in every state (filter options are then ignored, with a warning); else the
user's (-u USER|all, -A: everyone's) pending and running jobs, -a: also inactive ones,
-f: those states or results. Order: pending (priority, then submission), running
(latest start first), inactive (latest end first).
An id no job has: stderr `JobID <as given> unknown`; none found: exit 1, nothing on
stdout. --json: one id on the command line: that job's object alone; else
`{"jobs": [...]}` (json.dumps: `", "` and `": "`, non-ASCII as \\uXXXX).
-o: a named format (default, endreason, deps, long) or a format string (flux_format).
"""

import json
import os
import pwd

from standin import core
from standin.flux_common import (FluxError, client, command_utf8, error, find_job,
                                 parse_jobid, unsupported, usage_error, write_err,
                                 write_out)
from standin.flux_format import OutputFormat
from standin.flux_view import JobView

USAGE = "flux-jobs [OPTIONS] [JOBID ...]"
FORMATS = {
    "default": "{id.f58:>12} ?:{queue:<8.8} +:{username:<8} {name:<10.10+} "
               "{status_abbrev:>2.2} {ntasks:>6} {nnodes:>6h} "
               "{contextual_time!F:>8h} {contextual_info}",
    "endreason": "{id.f58:>12} ?:{queue:<8.8} {username:<8.8} {name:<10.10+} "
                 "{status_abbrev:>2.2} {t_inactive!D:>19h} {inactive_reason}",
    "deps": "{id.f58:>12} ?:{queue:<8.8} {name:<10.10+} {urgency:<3} {priority:<12} "
            "{state:<8.8} {dependencies}",
    "long": "{id.f58:>12} ?:{queue:<8.8} +:{username:<8} {name:<10.10+} {status:>9.9} "
            "{ntasks:>6} {nnodes:>6h} {t_submit!d:%b%d %R::>12} {t_remaining!F:>12h} "
            "{contextual_time!F:>8h} {contextual_info}",
}
STATES = {"depend": {"DEPEND"}, "priority": {"PRIORITY"}, "sched": {"SCHED"}, "run": {"RUN"},
          "cleanup": {"CLEANUP"}, "inactive": {"INACTIVE"},
          "pending": {"DEPEND", "PRIORITY", "SCHED"}, "running": {"RUN", "CLEANUP"},
          "active": {"DEPEND", "PRIORITY", "SCHED", "RUN", "CLEANUP"}}
RESULTS = ("completed", "failed", "canceled", "timeout")
VALUED = {"-u": "user", "--user": "user", "-f": "filter", "--filter": "filter",
          "-o": "format", "--format": "format", "--name": "name", "-q": "queue",
          "--queue": "queue", "-c": "count", "--count": "count"}
FLAGS = {"-a": "a", "-A": "A", "-n": "no_header", "--no-header": "no_header",
         "--suppress-header": "no_header", "--json": "json"}
FILTERING = ("a", "A", "user", "filter", "name", "queue", "count")


def jobs(argv):
    try:
        return _jobs(argv)
    except FluxError as e:
        write_err(e.message)
        return e.status


def options(argv):
    opts, ids, i = {}, [], 0
    while i < len(argv):
        a, i = argv[i], i + 1
        value = None
        if a.startswith("--") and "=" in a:
            a, value = a.split("=", 1)
        elif len(a) > 2 and a[:2] in VALUED:
            a, value = a[:2], a[2:]
        if a in VALUED:
            if value is None:
                if i >= len(argv):
                    raise usage_error("flux-jobs", USAGE, "argument %s: expected one "
                                      "argument" % a)
                value, i = argv[i], i + 1
            opts[VALUED[a]] = value
        elif a in FLAGS:
            opts[FLAGS[a]] = True
        elif a.startswith("-") and len(a) > 1 and not a[1:].isdigit():
            if a in ("--since", "-i", "--include", "-R", "--recursive", "--stats",
                     "--stats-only", "--sort", "-L", "--color", "-w", "--width"):
                raise unsupported("flux jobs " + a)
            raise usage_error("flux-jobs", USAGE, "unrecognized arguments: %s" % a)
        else:
            if parse_jobid(a) is None:
                raise usage_error("flux-jobs", USAGE,
                                  "argument JOBID: invalid JobID value: '%s'" % a)
            ids.append(a)
    return opts, ids


def wanted_states(opts):
    """The states and results the listing keeps (-a, -f, default pending,running)."""
    states, results = set(), set()
    if opts.get("filter"):
        for name in opts["filter"].split(","):
            name = name.strip().lower()
            if name in STATES:
                states |= STATES[name]
            elif name in RESULTS:
                results.add(name.upper())
            else:
                raise error("jobs", "Invalid filter specified: %s" % name)
    elif opts.get("a") or opts.get("A"):
        states = STATES["active"] | STATES["inactive"]
    else:
        states = STATES["pending"] | STATES["running"]
    return states, results


def user_id(opts):
    user = opts.get("user")
    if opts.get("A") or user == "all":
        return None
    if user is None:
        return os.getuid()
    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        try:
            return int(user)
        except ValueError:
            raise error("jobs", "Invalid user %s specified" % user)


def order(view):
    if view.state in ("DEPEND", "PRIORITY", "SCHED"):
        return (0, -(view.priority or 0), view.t_submit, int(view.id))
    if view.state in ("RUN", "CLEANUP"):
        return (1, -view.t_run, -int(view.id), 0)
    return (2, -view.t_inactive, -int(view.id), 0)


def _jobs(argv):
    core.require_env("flux")
    opts, ids = options(argv)
    if opts.get("count") is not None and not opts["count"].isdigit():
        raise usage_error("flux-jobs", USAGE, "argument -c/--count: invalid int value: '%s'"
                          % opts["count"])
    fmt = FORMATS.get(opts.get("format", "default"), opts.get("format"))
    try:
        formatter = OutputFormat(fmt)
    except ValueError as e:
        raise error("jobs", "Error in user format: %s" % e)
    if ids and any(k in opts for k in FILTERING):
        write_err("flux-jobs: WARNING: Filtering options ignored with jobid list\n")
    states, results = wanted_states(opts)
    uid = user_id(opts)
    store = client("jobs")
    utf8 = command_utf8()
    views, unknown = [], []
    with store.read() as cur:
        if ids:
            for text in ids:
                job = find_job(cur, parse_jobid(text))
                if job is None:
                    unknown.append(text)
                else:
                    views.append(JobView(job, store.cfg, cur, utf8=utf8))
        else:
            for row in cur.execute("SELECT * FROM jobs WHERE kind='job'").fetchall():
                job = core.decode(row)
                if uid is not None and job["uid"] != uid:
                    continue
                v = JobView(job, store.cfg, cur, utf8=utf8)
                if v.state not in states and v.result.upper() not in results:
                    continue
                if opts.get("name") and v.name != opts["name"]:
                    continue
                if opts.get("queue") and v.queue != opts["queue"]:
                    continue
                views.append(v)
            views.sort(key=order)
            if opts.get("count") and int(opts["count"]) > 0:
                views = views[:int(opts["count"])]
    write_err("".join("JobID %s unknown\n" % text for text in unknown))
    if ids and not views:
        return 1
    if opts.get("json"):
        docs = [v.to_dict() for v in views]
        text = json.dumps(docs[0]) if len(ids) == 1 else json.dumps({"jobs": docs})
        write_out(text + "\n")
    else:
        lines = formatter.lines(views, no_header=bool(opts.get("no_header")))
        write_out("".join(line + "\n" for line in lines))
    return 0
