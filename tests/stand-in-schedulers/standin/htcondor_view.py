"""One proc as a job ClassAd: the (name, value) pairs condor_q and condor_history print.

Which attributes a job has when (docs/classad-attributes/job-classad-attributes.rst,
src/condor_utils/submit_utils.cpp @ 7491a145): from submit on ExitBySignal = false,
NumJobStarts = 0, ExitStatus = 0; JobStartDate from the first start; RemoteHost while it
runs (LastRemoteHost after); ExitCode (ExitBySignal false) or ExitSignal (ExitBySignal
true) once it completed; CompletionDate for JobStatus 4 only; HoldReason, HoldReasonCode,
HoldReasonSubCode while held (kept when a held job is removed); RemoveReason after
condor_rm.
"""

import os
import time

from standin.htcondor_common import (COMPLETED, HELD, IDLE, REMOVED, RUNNING, fqdn,
                                     format_time, qdate)
from standin.htcondor_json import Expr


def job_status(job):
    """JobStatus of a proc row; None for a proc not materialized (not in the queue)."""
    phase = job["phase"]
    if job["dep_hold"]:
        return None
    if phase in ("done", "exiting"):
        return REMOVED if job["how"] in ("deleted", "terminated", "depdeleted") else COMPLETED
    if phase == "running":
        removing = job["request"] == "delete" or job["kill_reason"] == "delete"
        return REMOVED if removing else RUNNING
    if phase == "held":
        return HELD
    return IDLE


def remote_host(job, host):
    slot = (job["attrs"] or {}).get("slot")
    return "slot%d@%s" % (slot, host) if slot else None


def proc_ad(job, parent, host, now=None, server_time=False):
    """The job ad of a proc (sub row) as [(name, value)], unsorted."""
    a = job["attrs"] or {}
    now = now or time.time()
    status = job_status(job)
    cluster, proc = job["seq"], job["idx"]
    qd = int(job["submit_time"] or now)
    ad = [("MyType", "Job"), ("TargetType", "Machine"), ("ClusterId", cluster),
          ("ProcId", proc), ("GlobalJobId", "%s#%d.%d#%d" % (fqdn(), cluster, proc, qd)),
          ("Owner", job["owner"]), ("User", "%s@%s" % (job["owner"], fqdn())),
          ("JobUniverse", 5), ("JobStatus", status), ("QDate", qd), ("Cmd", a.get("exe")),
          ("Iwd", a.get("iwd")), ("In", a.get("in") or "/dev/null"),
          ("Out", a.get("out") or "/dev/null"), ("Err", a.get("err") or "/dev/null"),
          ("Arguments", " ".join(a.get("args") or [])), ("Environment", a.get("env_text", "")),
          ("JobPrio", a.get("prio", 0)), ("RequestCpus", a.get("cpus", 1)),
          ("RequestMemory", a["mem"] if a.get("mem") is not None
           else Expr(a["mem_text"]) if a.get("mem_text") else 128),
          ("NumJobStarts", job["run_count"]), ("ExitBySignal", False), ("ExitStatus", 0),
          ("LeaveJobInQueue", False), ("MaxHosts", 1), ("MinHosts", 1),
          ("CurrentHosts", 1 if status in (RUNNING, REMOVED) and job["phase"] == "running"
           else 0),
          ("RemoteWallClockTime", float(a.get("wall", 0.0))),
          ("EnteredCurrentStatus", int(a.get("rm_time") if status == REMOVED and
                                       a.get("rm_time") else job["mtime"] or qd))]
    if a.get("gpus"):
        ad.append(("RequestGPUs", a["gpus"]))
    if a.get("log"):
        ad.append(("UserLog", a["log"]))
    if a.get("batch_name"):
        ad.append(("JobBatchName", a["batch_name"]))
    if a.get("acct"):
        group = a["acct"] + ("." + a["acct_user"] if a.get("acct_user") else "")
        ad += [("AcctGroup", a["acct"]), ("AccountingGroup", group)]
    if a.get("duration") is not None or a.get("duration_text"):
        ad.append(("AllowedJobDuration", a["duration"] if a.get("duration") is not None
                   else Expr(a["duration_text"])))
    if parent and (parent["attrs"] or {}).get("materialize"):
        limit = parent["attrs"]["materialize"]
        ad.append(("JobMaterializeLimit", limit if limit < 2 ** 31 else 2 ** 31 - 1))
    if a.get("start_date"):
        ad.append(("JobStartDate", int(a["start_date"])))
    if a.get("cur_start"):
        ad.append(("JobCurrentStartDate", int(a["cur_start"])))
    host = remote_host(job, host) if job["phase"] == "running" else None
    if host:
        ad.append(("RemoteHost", host))
    elif a.get("last_host"):
        ad.append(("LastRemoteHost", a["last_host"]))
    if status == COMPLETED and a.get("exit"):
        by_signal, number = a["exit"]
        if by_signal:
            ad[ad.index(("ExitBySignal", False))] = ("ExitBySignal", True)
            ad.append(("ExitSignal", number))
        else:
            ad.append(("ExitCode", number))
        ad[ad.index(("ExitStatus", 0))] = ("ExitStatus", number)
        ad.append(("CompletionDate", int(job["end_time"] or now)))
    if a.get("hold") and (status == HELD or status == REMOVED):
        code, sub, reason = a["hold"]
        ad += [("HoldReason", reason), ("HoldReasonCode", code), ("HoldReasonSubCode", sub)]
    if a.get("remove_reason") and status == REMOVED:
        ad.append(("RemoveReason", a["remove_reason"]))
    names = {k.lower() for k, _ in ad}
    for name, value in a.get("plus") or []:
        if name.lower() in names:
            ad = [(k, v) for k, v in ad if k.lower() != name.lower()]
        ad.append((name, value))
    if server_time:
        ad.append(("ServerTime", int(now)))
    return ad


def table_row(ad, now):
    """A `condor_q -nobatch` row (docs/man-pages/condor_q.rst sample): ID, OWNER,
    SUBMITTED, RUN_TIME, ST, PRI, SIZE, CMD."""
    d = dict(ad)
    run = d.get("RemoteWallClockTime", 0.0)
    if d.get("JobStatus") == RUNNING and d.get("JobCurrentStartDate"):
        run += now - d["JobCurrentStartDate"]
    st = {1: "I", 2: "R", 3: "X", 4: "C", 5: "H", 7: "S"}.get(d.get("JobStatus"), "?")
    cmd = os.path.basename(d.get("Cmd") or "")
    if d.get("Arguments"):
        cmd += " " + d["Arguments"]
    return ("%4d.%-3d %-14s %11s %12s %-2s %-3d %4.1f %s\n"
            % (d["ClusterId"], d["ProcId"], d.get("Owner") or "", qdate(d["QDate"]),
               format_time(run), st, d.get("JobPrio", 0), 0.0, cmd))
