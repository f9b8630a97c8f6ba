"""One job as `flux jobs` shows it: the fields of a job-list record as flux-core's JobInfo
(src/bindings/python/flux/job/info.py) derives them, and JobInfo.to_dict() for --json.

The record (src/modules/job-list/job_util.c): priority once the job reached SCHED,
t_run/ranks/nodelist/expiration once it ran, success/result/exception only INACTIVE,
waitstatus once the job shell exited. to_dict() lists the keys in JobInfo's order
(its `defaults`, then its `properties`, then jobid, annotations, exception) and drops
empty strings and zero t_*, runtime and expiration; `duration` 0.0, `dependencies` []
and `annotations` {} stay. returncode: the shell's exit code, -N for a shell killed by
signal N, -128 for a job canceled before it ran, 1 for one that FAILED without a
waitstatus; "" while active.
"""

import signal
import time

from standin.flux_common import encode, encode_idset, f58, user_name
from standin.flux_policy import Policy

STATE_SINGLE = {"NEW": "N", "DEPEND": "D", "PRIORITY": "P", "SCHED": "S", "RUN": "R",
                "CLEANUP": "C", "INACTIVE": "I"}
RESULT_ABBREV = {"COMPLETED": "CD", "FAILED": "F", "CANCELED": "CA", "TIMEOUT": "TO"}
RESULT_NAMES = {1: "COMPLETED", 2: "FAILED", 4: "CANCELED", 8: "TIMEOUT"}  # job.h
KEYS = ("t_depend", "t_priority", "t_sched", "t_run", "t_cleanup", "t_inactive", "duration",
        "expiration", "name", "cwd", "queue", "project", "bank", "ntasks", "ncores", "nnodes",
        "priority", "ranks", "nodelist", "success", "result", "waitstatus", "id", "t_submit",
        "t_remaining", "state", "result", "username", "userid", "urgency", "runtime",
        "status", "returncode", "dependencies")


class JobId(int):
    """{id.f58}, {id.dec}, ... in a format; `{id}` is the F58 (JobID.__str__), `{id:>12}`
    the decimal (int's format)."""

    def __str__(self):
        return f58(int(self))

    def __getattr__(self, name):
        value = encode(int(self), name)
        if value is None:
            raise AttributeError(name)
        return value


class DepList(list):
    """info.py DependencyList: `a,b` in a format, a list in JSON."""

    def __str__(self):
        return ",".join(self)

    def __format__(self, spec):
        return format(str(self), spec)


class Exc:
    def __init__(self, exc):
        exc = exc or {}
        self.occurred = bool(exc) if exc else ""
        self.severity = exc.get("severity", "")
        self.type = exc.get("type", "")
        self.note = exc.get("note", "")


def returncode(waitstatus, result):
    """info.py JobInfo.returncode."""
    if not isinstance(waitstatus, int) or isinstance(waitstatus, bool):
        return {"CANCELED": -128, "FAILED": 1}.get(result, "")
    if waitstatus & 0x7F not in (0, 0x7F):
        return -(waitstatus & 0x7F)
    if waitstatus & 0x7F == 0:
        return (waitstatus >> 8) & 0xFF
    return ""


def state_of(job):
    phase = job["phase"]
    if phase == "done":
        return "INACTIVE"
    if phase == "running":
        return "RUN"
    if phase == "exiting":
        return "CLEANUP"
    return "DEPEND" if job["dep_hold"] else "SCHED"


class JobView:
    """Attribute access for a job row; `cur` answers the DEPEND job's dependencies."""

    def __init__(self, job, cfg, cur=None, now=None, utf8=None):
        a = job["attrs"] or {}
        self._job, self._a, self._cfg, self._utf8 = job, a, cfg, utf8
        self.now = now or time.time()
        self.id = JobId(job["seq"])
        self.state = state_of(job)
        self.state_single = STATE_SINGLE[self.state]
        done = self.state == "INACTIVE"
        self.result = a.get("result", "FAILED") if done else ""
        self.result_abbrev = RESULT_ABBREV.get(self.result, "")
        self.status = self.result if done else self.state
        self.status_abbrev = self.result_abbrev if done else self.state_single
        self.userid, self.username = job["uid"], user_name(job["uid"])
        self.urgency = a.get("urgency", 16)
        ran = bool(job["start_time"])
        sched = bool(job["eligible_time"])
        self.priority = ({0: 0, 31: 4294967295}.get(self.urgency, self.urgency)
                         if sched else "")
        self.t_submit = self.t_depend = job["submit_time"]
        self.t_priority = self.t_sched = job["eligible_time"] or 0.0
        self.t_run = job["start_time"] or 0.0
        self.t_cleanup = ((job["end_time"] or 0.0) if self.state in ("CLEANUP", "INACTIVE")
                          else 0.0)
        self.t_inactive = (job["history_time"] or 0.0) if done else 0.0
        self.name, self.cwd = a.get("name", ""), job["cwd"] or ""
        self.queue, self.project, self.bank = a.get("queue") or "", "", a.get("bank") or ""
        self.ntasks, self.ncores = a.get("ntasks", ""), a.get("ncores", "")
        self.nnodes = a.get("nnodes") or (1 if ran else "")
        self.duration = float(a.get("duration") or 0.0)
        self.expiration = (self.t_run + self.duration) if ran and self.duration else 0.0
        self.ranks, self.nodelist = ("0", cfg["host"]) if ran else ("", "")
        self.success = (self.result == "COMPLETED") if done else ""
        ws = a.get("waitstatus")
        self.waitstatus = ws if isinstance(ws, int) else ""
        self.returncode = returncode(self.waitstatus, self.result) if done else ""
        self.exception = Exc(a.get("exception") if done else None)
        if self.t_cleanup and self.t_run:
            self.runtime = self.t_cleanup - self.t_run
        else:
            self.runtime = (self.now - self.t_run) if self.t_run else 0.0
        self.t_remaining = max(0.0, self.expiration - self.now) \
            if self.state == "RUN" and self.expiration else 0.0
        self.dependencies = DepList()
        if self.state == "DEPEND" and cur is not None:
            self.dependencies = DepList(d["desc"] for d in a.get("deps", [])
                                        if Policy.dep_verdict(cur, d) != "ok")
        self.annotations = {}
        if ran:
            summary = "rank0/core" + encode_idset(a.get("cores", []), brackets=True)
            if a.get("gpus"):
                summary += ",gpu" + encode_idset(a["gpus"], brackets=True)
            self.annotations = {"sched": {"resource_summary": summary}}

    @property
    def jobid(self):
        return f58(int(self.id), self._utf8)

    @property
    def contextual_info(self):
        if self.state == "DEPEND":
            return "depends:" + ",".join(self.dependencies)
        if self.state == "SCHED":
            return "held" if self.urgency == 0 else ("priority-hold" if self.priority == 0
                                                      else "")
        return self.nodelist

    @property
    def contextual_time(self):
        return self.duration if self.state in ("DEPEND", "PRIORITY", "SCHED") \
            else self.runtime

    @property
    def inactive_reason(self):
        if self.state != "INACTIVE":
            return ""
        exc = self.exception
        if self.result == "CANCELED":
            return "Canceled: %s" % exc.note if exc.occurred and exc.type == "cancel" \
                and exc.note else "Canceled"
        if self.result == "FAILED":
            if exc.occurred and exc.type != "exec" and exc.severity == 0:
                return "Exception: type=%s%s" % (exc.type,
                                                 " note=%s" % exc.note if exc.note else "")
            code = self.returncode
            if code > 128:
                try:
                    return signal.strsignal(code - 128) or "Signaled %d" % (code - 128)
                except ValueError:
                    return "Signaled %d" % (code - 128)
            return {126: "Command invoked cannot execute", 127: "command not found",
                    128: "Invalid argument to exit"}.get(code, "Exit %s" % code)
        if self.result == "TIMEOUT":
            return "Timeout"
        return "Exit %s" % self.returncode

    def to_dict(self):
        """JobInfo.to_dict(): filtered, in its key order."""
        out = {}
        for key in KEYS:
            out[key] = int(self.id) if key == "id" else getattr(self, key)
        out["jobid"] = self.jobid
        out["annotations"] = self.annotations
        e = self.exception
        out["exception"] = ({"occurred": True, "severity": e.severity, "type": e.type,
                             "note": e.note} if e.occurred else {"occurred": False})
        for key in list(out):
            value = out[key]
            if isinstance(value, str) and value == "":
                del out[key]
            elif (key.startswith("t_") or key in ("runtime", "expiration")) and value == 0:
                del out[key]
        return out

