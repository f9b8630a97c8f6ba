"""One Torque job as qstat shows it: its state and its attributes in the server's order
(src/server/job_attr_def.c; stat_job.c adds Walltime.Remaining after start_time for a
running job). qstat prints them as XML (torque_qstat_xml) or text (torque_qstat_text).

job_view returns (full id, [(name, value, kind)]): kind STR (a string), TIME (epoch
seconds: XML prints the number, `qstat -f` a ctime string) or RES (resources:
[(resource, value)], shown as <name><res>v</res></name> or name.res = v).
"""

from standin.torque_common import QUEUE, display_id
from standin.torque_resources import hms

STR, TIME, RES = "s", "t", "r"
LETTER = {"queued": "Q", "held": "H", "waiting": "W", "running": "R", "exiting": "E",
          "done": "C"}


def state_of(job, parent=None, subs=()):
    """The job_state letter. An array parent is R while a subjob runs, C once all are
    complete, otherwise Q (array_func.c update_array_statuses)."""
    if job["kind"] == "array" and job["phase"] != "done":
        running = sum(1 for s in subs if s["phase"] in ("running", "exiting"))
        complete = sum(1 for s in subs if s["phase"] == "done")
        if running:
            return "R"
        return "C" if complete and complete == len(subs) else "Q"
    if job["kind"] == "sub" and job["phase"] == "queued" and parent is not None \
            and parent["phase"] == "held":
        return "H"
    return LETTER.get(job["phase"], "Q")


def escape_env(value):
    """qsub escapes these characters with a backslash (common_cmds.c add_env_value_to_string)."""
    return "".join("\\" + c if c in "\"'\\\n," else c for c in value)


def used(job, now):
    """resources_used: live walltime while running; rusage at the end."""
    u = job.get("usage")
    if job["phase"] == "running" or not u:
        wall = now - job["start_time"] if job.get("start_time") else 0
        return [("cput", "00:00:00"), ("energy_used", "0"), ("mem", "0kb"), ("vmem", "0kb"),
                ("walltime", hms(max(0, wall)))]
    return [("cput", hms(u.get("cput", 0))), ("energy_used", "0"),
            ("mem", "%dkb" % u.get("mem_kb", 0)), ("vmem", "%dkb" % u.get("mem_kb", 0)),
            ("walltime", hms(u.get("walltime", 0)))]


def job_view(job, parent, subs, cfg, now):
    server = cfg["server_name"]
    sub = job["kind"] == "sub"
    base = parent if sub else job
    a = base["attrs"]
    letter = state_of(job, parent, subs)
    ran = bool(job.get("start_time")) and job["kind"] != "array"
    idx = "-%d" % job["idx"] if sub else ""
    out = [("Job_Name", a["Job_Name"] + idx, STR), ("Job_Owner", a["Job_Owner"], STR)]
    if ran:
        out.append(("resources_used", used(job, now), RES))
    out += [("job_state", letter, STR), ("queue", QUEUE, STR), ("server", server, STR)]
    if "Account_Name" in a:
        out.append(("Account_Name", a["Account_Name"], STR))
    out += [("Checkpoint", a["Checkpoint"], STR), ("ctime", base["submit_time"], TIME)]
    if "depend" in a:
        out.append(("depend", a["depend"], STR))
    out.append(("Error_Path", a["Error_Path"] + idx, STR))
    if ran and job.get("exec_host"):
        out.append(("exec_host", job["exec_host"], STR))
    if "Execution_Time" in a:
        out.append(("Execution_Time", a["Execution_Time"], TIME))
    holds = ("u" if base["user_hold"] else "") + ("s" if base["dep_hold"] else "")
    if not sub or holds:
        out.append(("Hold_Types", holds or "n", STR))
    out += [("Join_Path", a["Join_Path"], STR), ("Keep_Files", a["Keep_Files"], STR),
            ("Mail_Points", a["Mail_Points"], STR)]
    if "Mail_Users" in a:
        out.append(("Mail_Users", a["Mail_Users"], STR))
    out += [("mtime", job.get("mtime") or base["submit_time"], TIME),
            ("Output_Path", a["Output_Path"] + idx, STR), ("Priority", a["Priority"], STR),
            ("qtime", base["submit_time"], TIME), ("Rerunable", a["Rerunable"], STR),
            ("Resource_List", [tuple(p) for p in a["Resource_List"]], RES)]
    session = (job.get("pgid") if job["phase"] == "running"
               else (job.get("usage") or {}).get("session"))
    if ran and session:
        out.append(("session_id", str(session), STR))
    if "Shell_Path_List" in a:
        out.append(("Shell_Path_List", a["Shell_Path_List"], STR))
    env = ([("PBS_ARRAYID", str(job["idx"]))] if sub else []) + list(base["env"] or [])
    out += [("Variable_List", ",".join("%s=%s" % (k, escape_env(v)) for k, v in env), STR),
            ("euser", base["owner"], STR), ("egroup", a["egroup"], STR),
            ("queue_type", "E", STR)]
    if job.get("comment"):
        out.append(("comment", job["comment"], STR))
    etime = job.get("eligible_time") or base.get("eligible_time")
    if etime or not base["user_hold"]:
        out.append(("etime", etime or base["submit_time"], TIME))
    if job.get("exit_status") is not None and job["kind"] != "array" or (
            job["kind"] == "array" and job.get("how") == "depdeleted"):
        out.append(("exit_status", str(job["exit_status"]), STR))
    out.append(("submit_args", a["submit_args"], STR))
    if sub:
        out.append(("job_array_id", str(job["idx"]), STR))
    elif "job_array_request" in a:
        out.append(("job_array_request", a["job_array_request"], STR))
    if ran:
        out.append(("start_time", job["start_time"], TIME))
        if job["phase"] == "running" and job.get("walltime") is not None:
            remaining = job["walltime"] - int(now - job["start_time"])
            out.append(("Walltime", [("Remaining", str(remaining))], RES))
    if job["run_count"] > 0 and job["kind"] != "array":
        out.append(("start_count", str(job["run_count"]), STR))
    out.append(("fault_tolerant", "False", STR))
    done_after_run = ran and job["phase"] == "done" and job.get("end_time")
    if done_after_run:
        out.append(("comp_time", job["end_time"], TIME))
    out.append(("job_radix", "0", STR))
    if done_after_run:
        out.append(("total_runtime", "%f" % max(0.0, job["end_time"] - job["start_time"]), STR))
    if "node_exclusive" in a:
        out.append(("node_exclusive", a["node_exclusive"], STR))
    out += [("submit_host", a["submit_host"], STR), ("init_work_dir", a["init_work_dir"], STR),
            ("request_version", "1", STR)]
    return display_id(job, server), out
