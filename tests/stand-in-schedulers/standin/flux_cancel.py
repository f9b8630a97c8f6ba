"""flux cancel, flux job id and flux job urgency.

`flux cancel [-m NOTE] [-n] JOBID...` (src/cmd/flux-cancel.py, job-manager raise.c):
a `cancel` exception (severity 0, the note -m) on each job; nothing on stdout, exit 0.
A pending job ends at once (CANCELED, returncode -128, no waitstatus); a running one
is signalled (SIGTERM, SIGKILL after the kill timeout) and ends CANCELED; a job in
CLEANUP is left alone. Errors, after trying every id, exit 1:
`flux-cancel: ERROR: <id in F58>: unknown job id` / `...: job is inactive`.
`flux cancel --all|-u USER|-S STATES` cancels the user's active jobs:
stderr `flux-cancel: Canceled N jobs (0 errors)` or `flux-cancel: Matched 0 jobs`.

`flux job id [--to=dec|f58|f58plain|hex|dothex|kvs] [ID...]` (src/cmd/job/id.c, a C
program: its F58 prefix follows LC_ALL/LC_CTYPE/LANG, no Python coercion): each id
converted, one a line (ids from stdin when none given); works without a broker.

`flux job urgency [-v] ID URGENCY` (src/cmd/job/urgency.c, job-manager urgency.c): one
job's urgency (0-31, or hold 0, default 16, expedite 31), nothing printed (-v: the old
value). Urgency 0 holds a pending job (SCHED with priority 0, never started) until it
is raised again. Errors, exit 1: `flux-job: <id>: unknown job id`, `... job is
inactive`, `... urgency cannot be changed once resources are allocated` (UNVERIFIED
words: FLUX.md), `flux-job: urgency range is [0:31]`.
"""

import locale
import os
import sys
import time

from standin import core
from standin.flux_common import (FluxError, client, encode, error, f58, find_job,
                                 parse_jobid, unsupported, usage_error, write_err,
                                 write_out)

USAGE = "flux cancel [OPTIONS] [JOBID...]"
PENDING = ("queued", "held", "waiting")


def cancel(argv):
    try:
        return _cancel(argv)
    except FluxError as e:
        write_err(e.message)
        return e.status


def _options(argv):
    opts, ids, i = {}, [], 0
    valued = {"-m": "message", "--message": "message", "-u": "user", "--user": "user",
              "-S": "states", "--states": "states"}
    flags = {"--all": "all", "-n": "dry_run", "--dry-run": "dry_run", "-q": "quiet",
             "--quiet": "quiet"}
    while i < len(argv):
        a, i = argv[i], i + 1
        value = None
        if a.startswith("--") and "=" in a:
            a, value = a.split("=", 1)
        elif len(a) > 2 and a[:2] in valued:
            a, value = a[:2], a[2:]
        if a in valued:
            if value is None:
                if i >= len(argv):
                    raise usage_error("flux-cancel", USAGE, "argument %s: expected one "
                                      "argument" % a)
                value, i = argv[i], i + 1
            opts[valued[a]] = value
        elif a in flags:
            opts[flags[a]] = True
        elif a.startswith("-") and len(a) > 1:
            raise usage_error("flux-cancel", USAGE, "unrecognized arguments: %s" % a)
        else:
            if parse_jobid(a) is None:
                raise usage_error("flux-cancel", USAGE,
                                  "argument JOBID...: invalid JobID value: '%s'" % a)
            ids.append(parse_jobid(a))
    return opts, ids


def raise_cancel(cur, job, note, now):
    """The cancel exception: a pending job ends now, a running one is killed."""
    attrs = dict(job["attrs"] or {})
    exc = {"type": "cancel", "severity": 0, "note": note or ""}
    if job["phase"] in PENDING:
        attrs.update(exception=exc, result="CANCELED")
        core.Store.update_job(cur, job["rid"], phase="done", how="deleted", end_time=now,
                              history_time=now, mtime=now, dep_hold=0, user_hold=0,
                              attrs=attrs)
    elif job["phase"] == "running":
        attrs.setdefault("exception", exc)
        fields = dict(attrs=attrs, mtime=now)
        if not job.get("request"):
            fields["request"] = "delete"
        core.Store.update_job(cur, job["rid"], **fields)


def _cancel(argv):
    core.require_env("flux")
    opts, ids = _options(argv)
    if opts.get("user") or opts.get("states"):
        opts["all"] = True
    if ids and opts.get("all"):
        raise error("cancel", "Do not specify a list of jobids with --all,--user,--states "
                    "options")
    if opts.get("all"):
        return cancel_all(opts)
    if not ids:
        raise error("cancel", "No target jobs were provided")
    if opts.get("dry_run"):
        write_err("flux-cancel: Would cancel %d job%s\n" % (len(ids), "s"[:len(ids) ^ 1]))
        return 0
    store = client("cancel")
    errors, now = [], time.time()
    with store.write() as cur:
        for fluid in ids:
            job = find_job(cur, fluid)
            if job is None:
                errors.append("%s: unknown job id" % f58(fluid))
            elif job["phase"] == "done":
                errors.append("%s: job is inactive" % f58(fluid))
            else:
                raise_cancel(cur, job, opts.get("message"), now)
    write_err("".join("flux-cancel: ERROR: %s\n" % e for e in errors))
    return 1 if errors else 0


def cancel_all(opts):
    if opts.get("user") not in (None, core.user_info(os.getuid())[0], str(os.getuid())):
        raise unsupported("flux cancel --user other than yourself")
    phases = {"depend": ("held",), "priority": (), "sched": ("queued", "held"),
              "run": ("running",), "pending": PENDING, "running": ("running", "exiting"),
              "active": PENDING + ("running", "exiting")}
    wanted = set()
    for name in (opts.get("states") or "active").split(","):
        if name.strip().lower() not in phases:
            raise error("cancel", "Invalid state %s specified" % name)
        wanted.update(phases[name.strip().lower()])
    store = client("cancel")
    now, count = time.time(), 0
    with store.write() as cur:
        rows = cur.execute("SELECT * FROM jobs WHERE kind='job' AND uid=? AND phase!='done'",
                           (os.getuid(),)).fetchall()
        for row in rows:
            job = core.decode(row)
            if job["phase"] in wanted:
                count += 1
                if not opts.get("dry_run"):
                    raise_cancel(cur, job, opts.get("message"), now)
    plural = "s"[:count ^ 1]
    if count and opts.get("dry_run"):
        write_err("flux-cancel: Would cancel %d job%s\n" % (count, plural))
    elif count:
        write_err("flux-cancel: Canceled %d job%s (0 errors)\n" % (count, plural))
    elif not opts.get("quiet"):
        write_err("flux-cancel: Matched 0 jobs\n")
    return 0


def c_locale_utf8():
    """A C program's setlocale(LC_ALL, ""): UTF-8 only when the locale named by
    LC_ALL, LC_CTYPE or LANG exists and is UTF-8."""
    if os.environ.get("FLUX_F58_FORCE_ASCII"):
        return False
    name = next((os.environ[k] for k in ("LC_ALL", "LC_CTYPE", "LANG")
                 if os.environ.get(k)), "C")
    saved = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, name)
        return locale.nl_langinfo(locale.CODESET) == "UTF-8"
    except locale.Error:
        return False
    finally:
        locale.setlocale(locale.LC_CTYPE, saved)


def job(argv):
    """flux job SUBCOMMAND: `id` and `urgency` in the stand-in."""
    if argv and argv[0] == "urgency":
        try:
            return urgency(argv[1:])
        except FluxError as e:
            write_err(e.message)
            return e.status
    if not argv or argv[0] != "id":
        write_err(unsupported("flux job %s" % (argv[0] if argv else "")).message)
        return 2
    to, ids = "dec", []
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a.startswith("--to="):
            to = a[5:]
        elif a in ("--to", "-t") and args:
            to = args.pop(0)
        elif a.startswith("--from"):
            if a == "--from" and args:
                args.pop(0)
        else:
            ids.append(a)
    utf8 = c_locale_utf8()
    out = []
    for text in ids or [line.strip() for line in sys.stdin if line.strip()]:
        fluid = parse_jobid(text)
        if fluid is None:
            write_out("".join(out))
            write_err("flux-job: %s: malformed input\n" % text)
            return 1
        value = encode(fluid, to, utf8)
        if value is None:
            write_out("".join(out))
            write_err("flux-job: Unknown to=%s\n" % to)
            return 1
        out.append(value + "\n")
    write_out("".join(out))
    return 0


URGENCY_WORDS = {"hold": 0, "default": 16, "expedite": 31}


def urgency(argv):
    verbose = bool(argv) and argv[0] in ("-v", "--verbose")
    args = argv[1:] if verbose else argv
    if len(args) != 2 or parse_jobid(args[0]) is None:
        raise FluxError("Usage: flux-job urgency [-v] id urgency\n", 1)
    fluid, text = parse_jobid(args[0]), args[1]
    value = URGENCY_WORDS.get(text)
    if value is None:
        try:
            value = int(text)
        except ValueError:
            raise FluxError("flux-job: urgency: invalid value: %s\n" % text, 1)
    if not 0 <= value <= 31:
        raise FluxError("flux-job: urgency range is [0:31]\n", 1)
    store = client("job")
    now = time.time()
    with store.write() as cur:
        found = find_job(cur, fluid)
        if found is None:
            raise FluxError("flux-job: %s: unknown job id\n" % args[0], 1)
        if found["phase"] == "done":
            raise FluxError("flux-job: %s: job is inactive\n" % args[0], 1)
        if found["phase"] not in PENDING:
            raise FluxError("flux-job: %s: urgency cannot be changed once resources are allocated\n"
                            % args[0], 1)
        attrs = dict(found["attrs"] or {})
        old = attrs.get("urgency", 16)
        attrs["urgency"] = value
        fields = dict(attrs=attrs, mtime=now, user_hold=1 if value == 0 else 0)
        if value == 0:
            fields["phase"] = "held"
        elif not found["dep_hold"] and found["phase"] == "held":
            fields.update(phase="queued", eligible_time=found["eligible_time"] or now)
        core.Store.update_job(cur, found["rid"], **fields)
    if verbose:
        write_out("%s: %d\n" % (args[0], old))
    return 0
