"""flux queue list: `flux queue list [-q QUEUE,...] [-n] [-o FORMAT]`, the queues and their
limits as flux-core 0.65 - 0.72 print them (src/cmd/flux-queue.py FluxQueueConfig, QueueInfo,
list(); flux/util.py fsd, OutputFormat; t/t2241-queue-cmd-list.t).

The default format, one line per queue after the header:

    ?:{queuem:<8.8} {color_enabled}{enabled:>2}{color_off} {color_started}{started:>2}{color_off}
    {defaults.timelimit!F:>8} {limits.timelimit!F:>8} {limits.range.nnodes:>10}
    {limits.range.ncores:>10} {limits.range.ngpus:>10}

Without named queues (setting `queues` empty) there is one anonymous queue: its name is
"", so `?:` drops the QUEUE column. With `queues=a,b` each is listed in that order, the
first (policy.jobspec.defaults.system.queue) marked `a*`. EN/ST are `✔` in ANSI green,
always (no terminal test in flux-queue.py). TDEFAULT/TLIMIT: the queue_default_walltime /
queue_max_walltime settings as FSD (`1h`), `inf` when unset; NCORES `0-<queue_max_cpus>`,
`0-inf` when unset; NNODES and NGPUS `0-inf`. Flux has no memory limit: queue_max_mem is
not shown. The same limits apply to every queue.
`-q NAME` naming no queue (any name when there are no named queues):
`flux-queue: ERROR: No such queue: NAME`, exit 1.
"""

import math

from standin.flux_common import (FluxError, cfg_value, client, error, unsupported,
                                 usage_error, write_err, write_out)
from standin.flux_format import OutputFormat
from standin.queue_limits import Limits

USAGE = "flux-queue [-h] {list,status,enable,disable,start,stop,drain,idle} ..."
LIST_USAGE = "flux-queue list [-h] [-q QUEUE,...] [-o FORMAT] [-n]"
DEFAULT_FORMAT = ("?:{queuem:<8.8} {color_enabled}{enabled:>2}{color_off} "
                  "{color_started}{started:>2}{color_off} {defaults.timelimit!F:>8} "
                  "{limits.timelimit!F:>8} {limits.range.nnodes:>10} "
                  "{limits.range.ncores:>10} {limits.range.ngpus:>10}")
HEADINGS = {
    "queue": "QUEUE", "queuem": "QUEUE", "submission": "SUBMIT", "scheduling": "SCHED",
    "enabled": "EN", "started": "ST", "enabled.ascii": "EN", "started.ascii": "ST",
    "color_enabled": "", "color_started": "", "color_off": "",
    "defaults.timelimit": "TDEFAULT", "limits.timelimit": "TLIMIT",
    "limits.range.nnodes": "NNODES", "limits.range.ncores": "NCORES",
    "limits.range.ngpus": "NGPUS", "limits.min.nnodes": "MINNODES",
    "limits.max.nnodes": "MAXNODES", "limits.min.ncores": "MINCORES",
    "limits.max.ncores": "MAXCORES", "limits.min.ngpus": "MINGPUS",
    "limits.max.ngpus": "MAXGPUS",
}
GREEN, OFF = "\033[01;32m", "\033[0;0m"


class AltField:
    """flux.util.AltField: `✔` (or `.ascii`: `y`)."""

    def __init__(self, default, ascii):
        self.default, self.ascii = default, ascii

    def __str__(self):
        return self.default

    def __format__(self, spec):
        return format(self.default, spec)


class Item:
    def __init__(self, **fields):
        self.__dict__.update(fields)


def queue_item(name, default, limits):
    def duration(seconds):
        return float(seconds) if seconds else math.inf

    size = Item(nnodes=0, ncores=0, ngpus=0)
    big = Item(nnodes=math.inf, ncores=limits.max_cpus or math.inf, ngpus=math.inf)
    rng = Item(**{k: "%s-%s" % (getattr(size, k), getattr(big, k))
                  for k in ("nnodes", "ncores", "ngpus")})
    return Item(queue=name, queuem=name + ("*" if default else ""), submission="enabled",
                scheduling="started", enabled=AltField("\u2714", "y"),
                started=AltField("\u2714", "y"), color_enabled=GREEN, color_started=GREEN,
                color_off=OFF, defaults=Item(timelimit=duration(limits.default_walltime)),
                limits=Item(timelimit=duration(limits.max_walltime), min=size, max=big,
                            range=rng))


def options(argv):
    """argparse's way: -n, -o FORMAT, -q QUEUE,... (repeatable), clustered (`-no F`)."""
    opts, i = {"queue": [], "format": "default", "no_header": False}, 0
    while i < len(argv):
        a, i = argv[i], i + 1
        if a in ("-h", "--help"):
            raise unsupported("flux queue list " + a)
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            if name == "--no-header" and not eq:
                opts["no_header"] = True
                continue
            if name not in ("--queue", "--format"):
                raise usage_error("flux-queue", LIST_USAGE, "unrecognized arguments: %s" % a)
            if not eq:
                if i >= len(argv):
                    raise usage_error("flux-queue", LIST_USAGE, "argument %s: expected one "
                                      "argument" % {"--queue": "-q/--queue",
                                                    "--format": "-o/--format"}[name])
                value, i = argv[i], i + 1
            key = name[2:]
        elif a.startswith("-") and len(a) > 1:
            rest, key, value = a[1:], None, None
            while rest:
                c, rest = rest[0], rest[1:]
                if c == "n":
                    opts["no_header"] = True
                    continue
                if c not in "qo":
                    raise usage_error("flux-queue", LIST_USAGE,
                                      "unrecognized arguments: %s" % a)
                key = {"q": "queue", "o": "format"}[c]
                if rest:
                    value, rest = rest, ""
                elif i < len(argv):
                    value, i = argv[i], i + 1
                else:
                    raise usage_error("flux-queue", LIST_USAGE, "argument -%s/--%s: expected "
                                      "one argument" % (c, key))
            if key is None:
                continue
        else:
            raise usage_error("flux-queue", LIST_USAGE, "unrecognized arguments: %s" % a)
        if key == "queue":
            opts["queue"] += [q.strip() for q in value.split(",") if q.strip()]
        else:
            opts["format"] = value
    return opts


def queue_list(argv):
    opts = options(argv)
    store = client("queue")             # list() connects (config.get) before all else
    cfg = store.cfg
    fmt = DEFAULT_FORMAT if opts["format"] == "default" else opts["format"]
    try:
        formatter = OutputFormat(fmt, HEADINGS)
    except ValueError as e:
        raise error("queue", str(e))
    named = [q.strip() for q in str(cfg_value(cfg, "queues")).split(",") if q.strip()]
    for name in opts["queue"]:
        if name not in named:
            raise error("queue", "No such queue: %s" % name)
    limits = Limits(cfg)
    if named:
        wanted = [q for q in named if not opts["queue"] or q in opts["queue"]]
        items = [queue_item(q, q == named[0], limits) for q in wanted]
    else:
        items = [queue_item("", False, limits)]
    lines = formatter.lines(items, no_header=opts["no_header"])
    write_out("".join(line + "\n" for line in lines))
    return 0


def queue(argv):
    """flux queue SUBCOMMAND: only `list`."""
    try:
        if not argv or argv[0].startswith("-"):
            raise usage_error("flux-queue", USAGE, "the following arguments are required: "
                              "subcommand" if not argv else "unrecognized arguments: %s"
                              % argv[0])
        if argv[0] != "list":
            raise unsupported("'flux queue %s'" % argv[0])
        return queue_list(argv[1:])
    except FluxError as e:
        write_err(e.message)
        return e.status
