"""One job (or array element) as bjobs shows it: its STAT and the `-o` fields.

Values are strings; a field with nothing to show is "" (the -json samples; the text
output prints "-"). An element shows its array's JOBID and JOB_NAME `name[index]`.
"""

import time

from standin.lsf_common import (PEND_ARRAY_LIMIT, PEND_DEP_NEVER, PEND_DEPEND, PEND_NEW,
                                PEND_REQUEUED, PEND_SPAN, PEND_USER_STOP, TERM_HUNG,
                                TERM_OWNER, TERM_RUNLIMIT, cfg_value, lsf_time)


class Context:
    """What every record of one bjobs call shares."""

    def __init__(self, cfg, now=None, hms=False, running=None):
        self.cfg, self.now, self.hms = cfg, now or time.time(), hms
        self.running = running or {}        # array rid -> elements running
        self.hung = float(cfg_value(cfg, "hung_time"))


def hms(seconds):
    seconds = max(0, int(seconds))
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def stat(job, parent, ctx):
    phase = job["phase"]
    if phase == "done":
        if job["how"] == "ok":
            return "DONE"
        if job["how"] == "nodefail" and ctx.now - (job["end_time"] or 0) < ctx.hung:
            return "UNKWN"
        return "EXIT"
    if phase in ("running", "exiting"):
        return "USUSP" if (job["attrs"] or {}).get("_susp") else "RUN"
    src = parent if job["kind"] == "sub" and parent["phase"] == "held" else job
    return "PSUSP" if src["user_hold"] else "PEND"


def pend_reason(job, parent, base, state, ctx):
    if state == "PSUSP":
        return PEND_USER_STOP
    src = parent if job["kind"] == "sub" and parent["phase"] == "held" else job
    if src["dep_hold"]:
        return PEND_DEP_NEVER if src["dep_cause"] == "never" else PEND_DEPEND
    if base["attrs"].get("unplaceable"):
        return PEND_SPAN
    if (job["kind"] == "sub" and parent["max_running"]
            and ctx.running.get(parent["rid"], 0) >= parent["max_running"]):
        return PEND_ARRAY_LIMIT
    if job["comment"]:
        return job["comment"]
    return PEND_REQUEUED if job["run_count"] else PEND_NEW


def exit_reason(job):
    return {"terminated": TERM_OWNER, "deleted": TERM_OWNER, "walltime": TERM_RUNLIMIT,
            "nodefail": TERM_HUNG}.get(job["how"], "")


def finish_time(job, base, state, ctx):
    limit = base["walltime"]
    if job["phase"] == "done" and state != "UNKWN":
        return lsf_time(job["end_time"]) + (" L" if limit else "") if job["end_time"] else ""
    if state in ("RUN", "UNKWN") and limit and job["start_time"]:
        return lsf_time(job["start_time"] + limit) + " L"
    return ""


def run_time(job, ctx):
    if not job["start_time"]:
        return hms(0) if ctx.hms else "0 second(s)"
    end = job["end_time"] if job["phase"] == "done" and job["end_time"] else ctx.now
    seconds = int(end - job["start_time"])
    return hms(seconds) if ctx.hms else "%d second(s)" % seconds


def field_values(job, parent, ctx):
    """{FIELD: value} for every field the stand-in knows."""
    base = parent if job["kind"] == "sub" else job
    a, run = base["attrs"], job["attrs"] or {}
    state = stat(job, parent, ctx)
    ran = bool(job["start_time"]) and state not in ("PEND", "PSUSP")
    slots = int(a.get("slots", 1))
    name = a.get("name", "")
    if job["kind"] == "sub":
        name = "%s[%d]" % (name, job["idx"])
    code = job["exit_status"]
    return {
        "JOBID": str(job["seq"]),
        "JOBINDEX": str(job["idx"]) if job["kind"] == "sub" else "0",
        "STAT": state,
        "USER": base["owner"] or "",
        "QUEUE": a.get("queue", ""),
        "JOB_NAME": name,
        "JOB_DESCRIPTION": "",
        "PROJ_NAME": a.get("project", "default"),
        "EXIT_CODE": str(code) if state == "EXIT" and code is not None else "",
        "EXIT_REASON": exit_reason(job) if state == "EXIT" else "",
        "FROM_HOST": a.get("from_host", ""),
        "EXEC_HOST": ":".join([ctx.cfg["host"]] * slots) if ran else "",
        "SUBMIT_TIME": lsf_time(base["submit_time"]),
        "START_TIME": lsf_time(job["start_time"]) if ran else "",
        "FINISH_TIME": finish_time(job, base, state, ctx),
        "PEND_REASON": pend_reason(job, parent, base, state, ctx)
        if state in ("PEND", "PSUSP") else "",
        "SLOTS": str(slots),
        "DEPENDENCY": a.get("depend", ""),
        "SUB_CWD": base["submit_dir"] or "",
        "EXEC_CWD": run.get("_exec_cwd", "") if ran else "",
        "OUTPUT_FILE": run.get("_out", "") if ran else a.get("out", ""),
        "ERROR_FILE": run.get("_err", "") if ran else a.get("err", ""),
        "RUNTIMELIMIT": hms(base["walltime"]) if base["walltime"] else "",
        "RUN_TIME": run_time(job, ctx),
        "COMMAND": a.get("command", ""),
    }


FIELDS = ("jobid", "jobindex", "stat", "user", "queue", "job_name", "job_description",
          "proj_name", "exit_code", "exit_reason", "from_host", "exec_host", "submit_time",
          "start_time", "finish_time", "pend_reason", "slots", "dependency", "sub_cwd",
          "exec_cwd", "output_file", "error_file", "runtimelimit", "run_time", "command")
ALIASES = {"id": "jobid", "name": "job_name", "proj": "proj_name", "cmd": "command",
           "nreq_slot": "slots", "exit_status": "exit_code"}


def canonical(field):
    """A -o field name (any case, or an alias) -> its key (JOB_NAME), or None."""
    f = field.lower()
    f = ALIASES.get(f, f)
    return f.upper() if f in FIELDS else None
