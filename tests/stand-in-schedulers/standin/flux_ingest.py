"""What the instance does with a job request (flux_submit builds it): the checks of
job-ingest (urgency), the feasibility validator, the job-manager (queue, dependencies),
then the job in the spool.

Sources (flux-core v0.65.0): src/modules/job-ingest/job.c (`urgency range is [0:31]`),
src/modules/sched-simple/sched.c and librlist (`unsatisfiable request`),
src/modules/job-manager/queue.c (`'%s' is not a valid queue`), jobtap.c (`dependency
scheme "%s" not supported`) and plugins/dependency-after.c (the after* schemes, their
refusals and their descriptions `after-success=ID`). A refusal reaches flux submit as
an OSError (`[Errno N] <text>`) and flux batch's CLIMain (`flux-batch: ERROR: <text>`).
"""

import os
import time

from standin import core
from standin.flux_common import cfg_value, find_job, next_fluid, parse_jobid

# dependency-after.c: scheme -> description type ("afterstart" is flux-core >= 0.8x).
AFTER = {"after": "after-start", "afterstart": "after-start", "afterany": "after-finish",
         "afterok": "after-success", "afternotok": "after-failure"}
EINVAL, EOVERFLOW = 22, 75
UNSATISFIABLE = "unsatisfiable request"


class Refused(Exception):
    def __init__(self, errnum, text):
        super().__init__(text)
        self.errnum, self.text = errnum, text


def job_result(row):
    """COMPLETED, FAILED, CANCELED or TIMEOUT of a finished job row (its attrs)."""
    return (row["attrs"] or {}).get("result", "FAILED")


def check_dependency(cur, scheme, value):
    """jobtap dependency.after*: a dependency record, or None if already satisfied."""
    if scheme not in AFTER:
        raise Refused(EINVAL, 'dependency scheme "%s" not supported' % scheme)
    target = parse_jobid(value)
    if target is None or target == 0:
        raise Refused(EINVAL, 'dependency: %s: "%s" is not a valid jobid' % (scheme, value))
    row = find_job(cur, target)
    if row is None:
        raise Refused(EINVAL, "dependency: %s: id %s: job not found" % (scheme, value))
    kind = AFTER[scheme]
    started = bool(row["start_time"])
    if row["phase"] == "done":
        result = job_result(row)
        if kind == "after-start" and not started:
            raise Refused(EINVAL, "dependency: after: %s never started" % value)
        if kind == "after-success" and result != "COMPLETED":
            raise Refused(EINVAL, "dependency: afterok: job %s failed or was canceled" % value)
        if kind == "after-failure" and result == "COMPLETED":
            raise Refused(EINVAL, "dependency: afternotok: job %s succeeded" % value)
        return None
    if kind == "after-start" and started:
        return None
    return {"seq": target, "kind": kind, "desc": "%s=%s" % (kind, value)}


def ingest(cur, store, req):
    """Check and enter one job request; its FLUID, or Refused."""
    cfg = store.cfg
    if not 0 <= req["urgency"] <= 31:
        raise Refused(EINVAL, "urgency range is [0:31]")
    slots, gpus = int(cfg.get("slots", 4)), int(cfg.get("gpus", 0))
    unsatisfiable = ((req["nodes"] or 1) > 1 or req["ncpus"] > slots or req["ngpus"] > gpus)
    feasibility = int(cfg_value(cfg, "feasibility"))
    if unsatisfiable and feasibility:
        raise Refused(EOVERFLOW, UNSATISFIABLE)
    queues = [q.strip() for q in str(cfg_value(cfg, "queues")).split(",") if q.strip()]
    queue = req["queue"]
    if queue is not None and queue not in queues:
        raise Refused(EINVAL, "'%s' is not a valid queue" % queue)
    if queue is None and queues:
        queue = queues[0]                   # policy.jobspec.defaults.system.queue
    deps = []
    for scheme, value in req["dependencies"]:
        dep = check_dependency(cur, scheme, value)
        if dep is not None:
            deps.append(dep)
    now = time.time()
    fluid = next_fluid(cur, store)
    ncpus = slots if req["exclusive"] else req["ncpus"]
    attrs = {
        "name": req["name"], "queue": queue, "bank": req["bank"], "urgency": req["urgency"],
        "ntasks": req["ntasks"], "ncores": ncpus, "nnodes": req["nodes"],
        "ngpus": req["ngpus"], "duration": req["duration"], "batch": req["batch"],
        "output": req["output"], "error": req["error"], "deps": deps, "cc": req["cc"],
    }
    script = None
    if req["batch"]:
        script = os.path.join(store.dir, "spool", "%d.script" % fluid)
        with open(script, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(req["script"])
        os.chmod(script, 0o700)
    uid, gid = os.getuid(), os.getgid()
    held = req["urgency"] == 0
    phase = "held" if deps or held else "queued"
    cols = dict(seq=fluid, kind="job", phase=phase, attrs=attrs, script=script,
                argv=req["command"], cwd=req["cwd"], env=sorted(req["env"].items()),
                submit_dir=req["cwd"], owner=core.user_info(uid)[0], uid=uid, gid=gid,
                submit_time=now, mtime=now, eligible_time=None if deps else now,
                dep_hold=1 if deps else 0, user_hold=1 if held else 0,
                ncpus=min(ncpus, slots), ngpus=min(req["ngpus"], gpus),
                walltime=req["duration"] or None, rerunnable=0)
    if unsatisfiable:
        # No feasibility validator: the scheduler denies the allocation at once.
        attrs["exception"] = {"type": "alloc", "severity": 0, "note": UNSATISFIABLE}
        attrs["result"] = "FAILED"
        cols.update(phase="done", how="failed", dep_hold=0, user_hold=0, end_time=now,
                    history_time=now)
    core.Store.insert_job(cur, **cols)
    return fluid
