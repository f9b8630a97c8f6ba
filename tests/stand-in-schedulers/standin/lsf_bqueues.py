"""LSF `bqueues -l [queue_name ...]`: the one queue `normal` in the long format, its
limits among it (OpenLava lsbatch/cmd/bqueues.c prtQueuesLong and main,
lsbatch/cmd/cmd.prt.c prtResourceLimit and prtLimit; the layout of the LSF 10
`bqueues -l normal` and `bjobs -l` transcripts, /work/notes/queue-formats.md).

    <empty line>
    QUEUE: normal
      -- For normal low priority jobs, running only if hosts are lightly loaded.  This is the default queue.
    <empty line>
    PARAMETERS/STATISTICS
    PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV
     30   20  Open:Active       -    -    -    -     0     0     0     0     0    0
    Interval for a host to accept two jobs is 0 seconds
    [DEFAULT LIMITS: / MAXIMUM LIMITS: blocks: RUNLIMIT, TASKLIMIT, MEMLIMIT]
    <empty line>
    SCHEDULING PARAMETERS
    ...
    USERS: all
    HOSTS:  all
    <empty line>

Several queues would be separated by a line of 79 dashes and an empty line; there is
one. NJOBS, PEND, RUN, SSUSP, USUSP count job slots (PSUSP counts as pending). An unknown
queue: `<name>: No such queue` on stderr (lsb_perror), nothing on stdout, exit 255.
Only -l is supported (the short table, -w, -m, -u, -r, -o: exit 2).
"""

import sys

from standin import core
from standin.lsf_common import QUEUE, LsfError, refused, unsupported
from standin.lsf_view import Context, stat
from standin.queue_limits import Limits, lsf_mem

DESCRIPTION = "For normal low priority jobs, running only if hosts are lightly loaded."
LOAD_HEADER = ("           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem\n")
LOAD_ROW = " %-9s   -     -     -     -       -     -    -     -     -      -      -  \n"
STATS_HEADER = ("PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  "
                "RSV\n")


def bqueues(argv):
    try:
        return _bqueues(argv)
    except LsfError as e:
        sys.stderr.write(e.message)
        return e.status


def counts(rows, cfg):
    """{PEND, RUN, SSUSP, USUSP}: the job slots of the unfinished jobs and elements."""
    by_rid = {r["rid"]: r for r in rows}
    ctx = Context(cfg)
    out = {"PEND": 0, "RUN": 0, "SSUSP": 0, "USUSP": 0}
    for job in rows:
        if job["kind"] == "array":
            continue
        parent = by_rid.get(job["parent"]) if job["kind"] == "sub" else None
        state = stat(job, parent, ctx)
        state = "PEND" if state == "PSUSP" else state
        if state in out:
            base = parent if parent is not None else job
            out[state] += int((base["attrs"] or {}).get("slots") or 1)
    return out


def time_group(runlimit_min, tasklimit):
    """CPULIMIT/RUNLIMIT/TASKLIMIT: names ` %-24s`, then one value line; the run limit's
    value (prtLimit) is padded to 25 columns when TASKLIMIT follows it."""
    if runlimit_min is None and tasklimit is None:
        return ""
    names, values = [], []
    if runlimit_min is not None:
        names.append(" %-24s" % "RUNLIMIT")
        value = " %.1f min" % runlimit_min
        values.append("%-25s" % value if tasklimit is not None else value)
    if tasklimit is not None:
        names.append(" %-24s" % "TASKLIMIT")
        values.append(" %d" % tasklimit)
    return "\n%s\n%s\n" % ("".join(names), "".join(values))


def size_group(mem_mib):
    """FILELIMIT ... MEMLIMIT ...: names ` %s`, then one value line (` %6s G `)."""
    if mem_mib is None:
        return ""
    number, unit = lsf_mem(mem_mib)
    return "\n MEMLIMIT\n %6s %s \n" % (number, unit)


def limit_blocks(limits):
    maximum = time_group(limits.max_walltime / 60.0 if limits.max_walltime else None,
                         limits.max_cpus) + size_group(limits.max_mem)
    if limits.default_walltime is None:
        return maximum
    default = time_group(limits.default_walltime / 60.0, None)
    return "\nDEFAULT LIMITS:%s\nMAXIMUM LIMITS:%s" % (default, maximum)


def render(cfg, rows):
    c = counts(rows, cfg)
    njobs = c["PEND"] + c["RUN"] + c["SSUSP"] + c["USUSP"]
    out = ["\n", "QUEUE: %s\n" % QUEUE,
           "  -- %s  This is the default queue.\n\n" % DESCRIPTION,
           "PARAMETERS/STATISTICS\n", STATS_HEADER,
           "%3d  %3d  %-15s%4s %4s %4s %4s %5d %5d %5d %5d %5d %4d\n"
           % (30, 20, "Open:Active", "-", "-", "-", "-", njobs, c["PEND"], c["RUN"],
              c["SSUSP"], c["USUSP"], 0),
           "Interval for a host to accept two jobs is 0 seconds\n",
           limit_blocks(Limits(cfg)),
           "\nSCHEDULING PARAMETERS\n", LOAD_HEADER, LOAD_ROW % "loadSched",
           LOAD_ROW % "loadStop", "\n", "USERS: all\n", "HOSTS:  all\n", "\n"]
    return "".join(out)


def _bqueues(argv):
    core.require_env("bqueues")
    long_format, names = False, []
    for a in argv:
        if a == "-l":
            long_format = True
        elif a.startswith("-") and len(a) > 1:
            raise unsupported("bqueues", a)
        else:
            names.append(a)
    if not long_format:
        raise unsupported("bqueues", "the short format (use -l)")
    store = core.client_store("bqueues", refused("Connection refused by server\n"))
    for name in names:
        if name != QUEUE:
            raise LsfError("%s: No such queue\n" % name)
    with store.read() as cur:
        rows = [core.decode(r) for r in cur.execute(
            "SELECT * FROM jobs ORDER BY seq, ifnull(idx, -1)").fetchall()]
    sys.stdout.write(render(store.cfg, rows))
    sys.stdout.flush()
    return 0
