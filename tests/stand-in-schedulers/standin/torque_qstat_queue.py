"""Torque `qstat -Q -f [destination...]`: the queue's attributes, its limits among them
(Torque 6.1.3.h5 src/cmds/qstat.c display_statque, prt_attr, run_queue_mode, get_err_msg;
src/server/req_stat.c req_stat_que, status_que, update_state_ct; src/server/reply_send.c
req_reject; src/server/queue_attr_def.c for the order).

    Queue: batch
        queue_type = Execution
        total_jobs = 0
        state_count = Transit:0 Queued:0 Held:0 Waiting:0 Running:0 Exiting:0 Complete:0 
        resources_max.mem = 16gb
        resources_max.ncpus = 4
        resources_max.walltime = 12:00:00
        resources_default.walltime = 01:00:00
        mtime = 1764230400
        enabled = True
        started = True
    <empty line>

Resources inside one attribute come in the order the admin set them (the stand-in: mem,
ncpus, walltime). total_jobs counts the completed jobs still kept. mtime is when the
instance was configured. An unknown queue: `qstat: Unknown queue MSG=cannot locate queue
<name> ` (trailing space) on stderr after all other output, exit 15020 & 255 = 172.
"""

import os
import sys

from standin import core
from standin.queue_limits import Limits, hms, pbs_size
from standin.torque_common import PBSE_UNKQUE, QUEUE, refused
from standin.torque_view import state_of

STATES = (("Transit", "T"), ("Queued", "Q"), ("Held", "H"), ("Waiting", "W"),
          ("Running", "R"), ("Exiting", "E"), ("Complete", "C"))


def queue_attributes(cfg, jobs, parents, mtime):
    """[(name, value)] of the one queue, in the server's order. The server's job list
    holds the subjobs of an array, not the array itself."""
    counts = {letter: 0 for _, letter in STATES}
    for job in jobs:
        letter = state_of(job, parents.get(job["parent"]))
        counts[letter] = counts.get(letter, 0) + 1
    state_count = "".join("%s:%d " % (word, counts[letter]) for word, letter in STATES)
    limits = Limits(cfg)
    out = [("queue_type", "Execution"), ("total_jobs", str(len(jobs))),
           ("state_count", state_count)]
    if limits.max_mem is not None:
        out.append(("resources_max.mem", pbs_size(limits.max_mem)))
    if limits.max_cpus is not None:
        out.append(("resources_max.ncpus", str(limits.max_cpus)))
    if limits.max_walltime is not None:
        out.append(("resources_max.walltime", hms(limits.max_walltime)))
    if limits.default_walltime is not None:
        out.append(("resources_default.walltime", hms(limits.default_walltime)))
    out += [("mtime", str(mtime)), ("enabled", "True"), ("started", "True")]
    return out


def render_queue(name, attributes):
    return "Queue: %s\n%s\n" % (name, "".join("    %s = %s\n" % a for a in attributes))


def qstat_queues(flags, operands):
    """qstat -Q: only the full form (-f)."""
    if "f" not in flags:
        sys.stderr.write("qstat: the stand-in does not support -Q without -f\n")
        return 2
    store = core.client_store("qstat", refused("qstat"))
    with store.read() as cur:
        rows = cur.execute("SELECT * FROM jobs ORDER BY seq, ifnull(idx, -1)").fetchall()
    every = [core.decode(row) for row in rows]
    parents = {j["rid"]: j for j in every if j["kind"] == "array"}
    jobs = [j for j in every if j["kind"] != "array"]
    try:
        mtime = int(os.stat(os.path.join(store.dir, core.CONFIG_NAME)).st_mtime)
    except (AttributeError, OSError):
        mtime = int(store.cfg.get("mtime") or 0)
    errors, status = [], 0
    for op in operands or [""]:
        queue = op.split("@", 1)[0]
        if queue in ("", QUEUE):
            sys.stdout.write(render_queue(QUEUE, queue_attributes(store.cfg, jobs, parents,
                                                                  mtime)))
            continue
        errors.append("qstat: Unknown queue MSG=cannot locate queue %s \n" % queue)
        status = status or PBSE_UNKQUE
    sys.stdout.flush()
    sys.stderr.write("".join(errors))
    return status % 256
