"""One PBS job as qstat shows it: states, substates, exec_host/exec_vnode,
resources_used, and the attribute list in qstat's order (job_view).

The printers (pbs_qstat_json, pbs_qstat_text) render what job_view returns:
[(name, value, kind)] with kind S (forced string), V (value qstat sniffs), RES (nested
resources) or ENV (Variable_List).
"""

import re

from standin import core
from standin.pbs_common import (HOW_SUBSTATE, QUEUE, SUB_BEGUN, SUB_DEPNHOLD, SUB_EXITING,
                                SUB_FINISHED, SUB_HELD, SUB_QUEUED, SUB_RUNNING, SUB_WAITING,
                                SUBSTATE_WORD, display_id)
from standin.pbs_resources import size_bytes

def state_of(job, parent=None):
    """(job_state letter, substate)."""
    kind, phase = job["kind"], job["phase"]
    if phase == "done":
        letter = "X" if kind == "sub" else "F"
        return letter, HOW_SUBSTATE.get(job["how"] or "ok", SUB_FINISHED)
    if phase == "held":
        return "H", SUB_DEPNHOLD if job["dep_hold"] else SUB_HELD
    if phase == "waiting":
        return "W", SUB_WAITING
    if phase == "queued":
        return "Q", SUB_QUEUED
    if phase == "running":
        return ("B", SUB_BEGUN) if kind == "array" else ("R", SUB_RUNNING)
    if phase == "exiting":
        return "E", SUB_EXITING
    return "Q", SUB_QUEUED


def range_text(indices, step):
    """1,2,3,5 -> '1-3,5' (with :step when the array has one)."""
    if not indices:
        return "-"
    parts = []
    start = prev = indices[0]
    for i in indices[1:] + [None]:
        if i is not None and i == prev + step:
            prev = i
            continue
        if start == prev:
            parts.append(str(start))
        else:
            parts.append("%d-%d" % (start, prev) + (":%d" % step if step > 1 else ""))
        if i is not None:
            start = prev = i
    return ",".join(parts)


def exec_vnode(chunks, host):
    out = []
    for ch in chunks:
        for _ in range(ch["count"]):
            s = "(%s:ncpus=%d" % (host, ch["ncpus"])
            if ch.get("mem"):
                s += ":mem=%dkb" % (size_bytes(ch["mem"]) // 1024)
            if ch.get("ngpus"):
                s += ":ngpus=%d" % ch["ngpus"]
            out.append(s + ")")
    return "+".join(out)


def exec_host(chunks, host):
    out = []
    n = 0
    for ch in chunks:
        for _ in range(ch["count"]):
            out.append("%s/%d" % (host, n) + ("*%d" % ch["ncpus"] if ch["ncpus"] > 1 else ""))
            n += 1
    return "+".join(out)


def used_pairs(job, now):
    if job["phase"] == "running" or not job.get("usage"):
        wall = now - job["start_time"] if job.get("start_time") else 0
        return [("cpupercent", "0"), ("cput", "00:00:00"), ("mem", "0kb"),
                ("ncpus", str(job["ncpus"])), ("vmem", "0kb"), ("walltime", core.hms(wall))]
    u = job["usage"]
    wall = u.get("walltime", 0)
    cput = u.get("cput", 0)
    pct = int(round(100.0 * cput / wall)) if wall > 0 else 0
    return [("cpupercent", str(pct)), ("cput", core.hms(cput)), ("mem", "%dkb" % u.get("mem_kb", 0)),
            ("ncpus", str(u.get("ncpus", job["ncpus"]))), ("vmem", "%dkb" % u.get("mem_kb", 0)),
            ("walltime", core.hms(wall))]


S, V, RES, ENV = "s", "v", "res", "env"   # forced string, sniffed value, nested, Variable_List


def job_view(job, parent, subs, cfg, now):
    """(full id, [(name, value, kind)]) of one job, in qstat's attribute order."""
    server, host = cfg["server_name"], cfg["host"]
    base = parent if job["kind"] == "sub" else job
    a = base["attrs"]
    letter, substate = state_of(job)
    ran = bool(job.get("start_time")) and job["kind"] != "array"
    ended = job["phase"] in ("exiting", "done")
    ct = core.ctime_str
    out = [("Job_Name", a["Job_Name"], S), ("Job_Owner", a["Job_Owner"], V)]
    if ran:
        out.append(("resources_used", used_pairs(job, now), RES))
    out += [("job_state", letter, V), ("queue", QUEUE, V), ("server", server, V)]
    if "Account_Name" in a:
        out.append(("Account_Name", a["Account_Name"], S))
    out += [("Checkpoint", a["Checkpoint"], V), ("ctime", ct(base["submit_time"]), V)]
    if "depend" in a:
        out.append(("depend", a["depend"], V))
    out.append(("Error_Path", a["Error_Path"], V))
    if ran and job.get("exec_host"):
        out.append(("exec_host", exec_host(a["chunks"], job["exec_host"]), V))
        out.append(("exec_vnode", exec_vnode(a["chunks"], job["exec_host"]), V))
    if "Execution_Time" in a:
        out.append(("Execution_Time", ct(a["Execution_Time"]), V))
    holds = ("u" if base["user_hold"] else "") + ("s" if base["dep_hold"] else "")
    out += [("Hold_Types", holds or "n", V), ("Join_Path", a["Join_Path"], V),
            ("Keep_Files", a["Keep_Files"], V), ("Mail_Points", a["Mail_Points"], V)]
    if "Mail_Users" in a:
        out.append(("Mail_Users", a["Mail_Users"], V))
    out += [("mtime", ct(job["mtime"] or base["submit_time"]), V),
            ("Output_Path", a["Output_Path"], V), ("Priority", a["Priority"], V),
            ("qtime", ct(base["submit_time"]), V), ("Rerunable", a["Rerunable"], V),
            ("Resource_List", a["Resource_List"], RES)]
    if job.get("start_time"):
        out.append(("stime", ct(job["start_time"]), V))
    if job["phase"] == "done" and job.get("end_time") and job.get("start_time"):
        out.append(("obittime", ct(job["end_time"]), V))
    session = job.get("pgid") if job["phase"] == "running" else (job.get("usage") or {}).get("session")
    if ran and session:
        out.append(("session_id", str(session), V))
    if "Shell_Path_List" in a:
        out.append(("Shell_Path_List", a["Shell_Path_List"], V))
    if ran:
        out.append(("jobdir", core.user_info(base["uid"])[1], V))
    out.append(("substate", str(substate), V))
    if "User_List" in a:
        out.append(("User_List", a["User_List"], V))
    out.append(("Variable_List", base["env"] or [], ENV))
    comment = job_comment(job, substate)
    if comment:
        out.append(("comment", comment, V))
    if job.get("eligible_time") or base.get("eligible_time"):
        out.append(("etime", ct(job.get("eligible_time") or base["eligible_time"]), V))
    out.append(("run_count", str(job["run_count"]), V))
    if ended and ran:
        out.append(("Stageout_status", "1", V))
    if job.get("exit_status") is not None and (job["kind"] == "array" or job["run_count"] > 0):
        out.append(("Exit_status", str(job["exit_status"]), V))
    out.append(("Submit_arguments", a["Submit_arguments"], V))
    if job["kind"] == "array":
        counts = {"Queued": 0, "Running": 0, "Exiting": 0, "Expired": 0}
        remaining = []
        for s in subs:
            if s["phase"] == "queued":
                counts["Queued"] += 1
                remaining.append(s["idx"])
            elif s["phase"] == "running":
                counts["Running"] += 1
            elif s["phase"] == "exiting":
                counts["Exiting"] += 1
            elif s["phase"] == "done":
                counts["Expired"] += 1
        step = 1
        m = re.search(r":(\d+)$", a["array_indices_submitted"])
        if m:
            step = int(m.group(1))
        out += [("array", "True", V),
                ("array_state_count", " ".join("%s:%d" % kv for kv in counts.items()), V),
                ("array_indices_submitted", a["array_indices_submitted"], V),
                ("array_indices_remaining", range_text(sorted(remaining), step), V)]
    elif job["kind"] == "sub":
        out += [("array_id", display_id(parent, server), V), ("array_index", str(job["idx"]), V)]
    if job["phase"] == "done" and job.get("history_time") and (parent is None
                                                               or parent["phase"] == "done"):
        out.append(("history_timestamp", str(int(job["history_time"])), V))
    out += [("project", a["project"], S), ("Submit_Host", a["Submit_Host"], V)]
    if job["kind"] == "array" and "max_run_subjobs" in a:
        out.append(("max_run_subjobs", a["max_run_subjobs"], V))
    return display_id(job, server), out


def job_comment(job, substate):
    if job["kind"] == "sub" and job["phase"] == "done":
        return "Subjob %s" % SUBSTATE_WORD.get(substate, "finished")
    return job.get("comment")
