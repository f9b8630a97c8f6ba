"""PBS `qstat -Q -f [destination...]`: the queue's attributes, its limits among them
(OpenPBS src/cmds/qstat.c display_statque, prt_attr and main's QUEUES branch;
src/server/req_stat.c req_stat_que, status_que, update_state_ct;
src/lib/Libattr/master_queue_attr_def.xml for the order).

    Queue: workq
        queue_type = Execution
        total_jobs = 0
        state_count = Transit:0 Queued:0 Held:0 Waiting:0 Running:0 Exiting:0 Begun:0 
        resources_max.mem = 16gb
        resources_max.ncpus = 4
        resources_max.walltime = 12:00:00
        resources_default.walltime = 01:00:00
        enabled = True
        started = True
    <empty line>

Attributes that are not set are not printed; resources inside one attribute are sorted
by name. An unknown queue: `qstat: Unknown queue <name>` on stderr, exit 15018 & 255 =
170; the other operands are still answered.
"""

import sys

from standin import core
from standin.pbs_common import PBSE_UNKQUE, QUEUE, refused
from standin.pbs_view import state_of
from standin.queue_limits import Limits, hms, pbs_size

STATES = (("Transit", "T"), ("Queued", "Q"), ("Held", "H"), ("Waiting", "W"),
          ("Running", "R"), ("Exiting", "E"), ("Begun", "B"))


def queue_attributes(cfg, jobs):
    """[(name, value)] of the one queue, in the server's order."""
    counts = {letter: 0 for _, letter in STATES}
    total = 0
    for job in jobs:
        letter, _ = state_of(job)
        if letter in ("F", "X"):
            continue                    # history jobs are not in total_jobs
        total += 1
        key = "R" if letter == "S" else letter      # suspended: JOB_STATE_RUNNING
        counts[key] = counts.get(key, 0) + 1
    state_count = "".join("%s:%d " % (word, counts[letter]) for word, letter in STATES)
    limits = Limits(cfg)
    out = [("queue_type", "Execution"), ("total_jobs", str(total)),
           ("state_count", state_count)]
    maxima = []
    if limits.max_mem is not None:
        maxima.append(("mem", pbs_size(limits.max_mem)))
    if limits.max_cpus is not None:
        maxima.append(("ncpus", str(limits.max_cpus)))
    if limits.max_walltime is not None:
        maxima.append(("walltime", hms(limits.max_walltime)))
    out += [("resources_max." + r, v) for r, v in maxima]
    if limits.default_walltime is not None:
        out.append(("resources_default.walltime", hms(limits.default_walltime)))
    out += [("enabled", "True"), ("started", "True")]
    return out


def render_queue(name, attributes):
    return "Queue: %s\n%s\n" % (name, "".join("    %s = %s\n" % a for a in attributes))


def qstat_queues(flags, fmt, operands):
    """qstat -Q: only the full form (-f) in the default format."""
    if not flags.get("f"):
        sys.stderr.write("qstat: the stand-in does not support -Q without -f\n")
        return 2
    if fmt != "default":
        sys.stderr.write("qstat: the stand-in does not support -Q -F %s\n" % fmt)
        return 2
    for c in "Bq":
        if c in flags:
            sys.stderr.write("qstat: conflicting options.\n")
            return 2
    store = core.client_store("qstat", refused("qstat"))
    with store.read() as cur:
        rows = cur.execute("SELECT * FROM jobs WHERE kind != 'sub' ORDER BY seq").fetchall()
    jobs = [core.decode(row) for row in rows]
    status = 0
    for op in operands or [""]:
        queue = op.split("@", 1)[0]
        if queue in ("", QUEUE):
            sys.stdout.write(render_queue(QUEUE, queue_attributes(store.cfg, jobs)))
            sys.stdout.flush()
            continue
        sys.stderr.write("qstat: Unknown queue %s\n" % queue)
        sys.stderr.flush()
        status = PBSE_UNKQUE
    return status % 256
