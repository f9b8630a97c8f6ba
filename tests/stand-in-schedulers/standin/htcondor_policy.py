"""What the server does the HTCondor way (the Policy of standin/server.py).

* A cluster is an `array` row, its procs `sub` rows (idx = ProcId). Procs beyond
  max_materialize wait unmaterialized (dep_hold): `dependency_verdict` materializes the next
  one, in ProcId order, whenever fewer than max_materialize of the cluster's procs are in
  the queue (idle, running or held), as the schedd's job factory does.
* A proc runs under the stand-in's starter (htcondor_starter.py): its environment is the
  job's (getenv, environment) plus what condor_starter sets (starter.cpp: BATCH_SYSTEM,
  _CONDOR_SCRATCH_DIR, _CONDOR_SLOT, _CONDOR_JOB_AD, _CONDOR_MACHINE_AD, _CONDOR_JOB_IWD,
  TMPDIR/TMP/TEMP, HOME, the STARTER_NUM_THREADS_ENV_VARS, CUDA_VISIBLE_DEVICES); it runs in
  its initialdir on `slotK@host`.
* Ends: exit code N or signal N (completed, JobStatus 4); condor_rm (removed, 3);
  allowed_job_duration exceeded (held: 46/0, user_job_policy.cpp's words); memory over
  request_memory (held: 34/102, vanilla_proc.cpp's words, prefixed `Error from <slot>: ` by
  the shadow, pseudo_ops.cpp); exec failure (held: 6/errno, os_proc.cpp); preemption and
  node failure (evicted: back to idle, NumJobStarts kept).
"""

import json
import os
import sys

from standin import core, jobrun
from standin.htcondor_common import (HOLD_FAILED_TO_CREATE, HOLD_JOB_DURATION,
                                     HOLD_OUT_OF_RESOURCES, SUB_MEMORY, cfg_value, display_id,
                                     format_time_short, fqdn)
from standin.htcondor_json import long_list, select
from standin.htcondor_view import proc_ad

STARTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "htcondor_starter.py")
THREAD_VARS = ("CUBACORES GOMAXPROCS JULIA_NUM_THREADS MKL_NUM_THREADS NUMEXPR_NUM_THREADS "
               "OMP_NUM_THREADS OMP_THREAD_LIMIT OPENBLAS_NUM_THREADS PYTHON_CPU_COUNT "
               "ROOT_MAX_THREADS TF_LOOP_PARALLEL_ITERATIONS TF_NUM_THREADS").split()


def memory_reason(host, slot, limit_mb):
    return ("Error from slot%d@%s: Job has gone over cgroup memory limit of %d megabytes. "
            "Last measured usage: %d megabytes.  Consider resubmitting with a higher "
            "request_memory." % (slot, host, limit_mb, limit_mb))


class Policy:
    START_FAILED_EXIT = 127
    HISTORY_SETTING = "history_duration"

    def __init__(self, cfg, state_dir):
        self.cfg, self.dir, self.host = cfg, state_dir, fqdn()

    def display_id(self, job):
        return display_id(job)

    def _files(self, job):
        name = "%d_%d" % (job["seq"], job["idx"] if job["idx"] is not None else -1)
        return (os.path.join(self.dir, "aux", name + ".report"),
                os.path.join(self.dir, "tmp", "dir_" + name))

    # ---------------------------------------------------------- running a proc

    def prepare_start(self, cur, job, parent, now):
        """The lowest free slot number, and the GPUs it gets."""
        slots, gpus = set(), set()
        for r in cur.execute("SELECT attrs FROM jobs WHERE phase='running' AND kind='sub'"):
            a = json.loads(r["attrs"] or "{}")
            slots.add(a.get("slot"))
            gpus.update(a.get("gpu_ids") or [])
        slot = next(k for k in range(1, len(slots) + 2) if k not in slots)
        free = [g for g in range(int(self.cfg.get("gpus", 0))) if g not in gpus]
        return {"_slot": slot, "_gpus": free[:job["ngpus"]]}

    def launch(self, job, parent, now):
        a = job["attrs"]
        uid, gid = job["uid"], job["gid"]
        user, home = core.user_info(uid)[:2]
        report, scratch = self._files(job)
        jobrun.remove_run_files(report, scratch)
        jobrun.make_tmpdir(scratch, uid, gid)
        slot = job.get("_slot", 1)
        running = dict(job, phase="running", attrs=dict(a, slot=slot))
        ads = {".job.ad": long_list([select(proc_ad(running, parent, self.host, now))]),
               ".machine.ad": 'Name = "slot%d@%s"\nCpus = %d\nMemory = %d\nGPUs = %d\n'
               % (slot, self.host, job["ncpus"], a.get("mem") or 128, job["ngpus"])}
        for name, text in ads.items():
            with open(os.path.join(scratch, name), "w") as f:
                f.write(text)
            if os.geteuid() == 0:
                os.chown(os.path.join(scratch, name), uid, gid)
        env = dict(job["env"] or [])
        env.update({"BATCH_SYSTEM": "HTCondor", "_CONDOR_JOB_IWD": a["iwd"],
                    "_CONDOR_SCRATCH_DIR": scratch, "_CONDOR_SLOT": "slot%d" % slot,
                    "_CONDOR_JOB_AD": os.path.join(scratch, ".job.ad"),
                    "_CONDOR_MACHINE_AD": os.path.join(scratch, ".machine.ad"),
                    "TMPDIR": scratch, "TMP": scratch, "TEMP": scratch, "HOME": home,
                    "APPTAINER_CACHEDIR": scratch, "SINGULARITY_CACHEDIR": scratch})
        for var in THREAD_VARS:
            env.setdefault(var, str(job["ncpus"]))
        ids = job.get("_gpus") or []
        if job["ngpus"]:
            env["_CONDOR_AssignedGPUs"] = ",".join("CUDA%d" % g for g in ids)
            env["CUDA_VISIBLE_DEVICES"] = env["NVIDIA_VISIBLE_DEVICES"] = ",".join(map(str, ids))
        with open(report + ".env", "w") as f:
            json.dump(sorted(env.items()), f)
        if os.geteuid() == 0:
            os.chown(report + ".env", uid, gid)
        limit = a.get("mem") or 0
        argv = [sys.executable, "-S", "-E", STARTER, report, str(limit),
                str(cfg_value(self.cfg, "memory_poll")), a.get("in") or "",
                a.get("out") or "", a.get("err") or "", "--"] + list(job["argv"])
        cwd = a["iwd"] if os.path.isdir(a["iwd"]) else "/"
        return {"argv": argv, "env": {}, "cwd": cwd, "uid": uid, "gid": gid,
                "groups": core.group_list(user, gid)}

    def cleanup_run(self, job):
        """The starter's report (kept in the job dict for `outcome`), then its files go."""
        report, scratch = self._files(job)
        try:
            with open(report) as f:
                job["_report"] = json.load(f)
        except (OSError, ValueError):
            job["_report"] = None
        jobrun.remove_run_files(report, scratch)
        jobrun.remove_run_files(report + ".env", scratch)

    def walltime_notice(self, job, used):
        """allowed_job_duration: the hold comes with the end (outcome)."""

    # ---------------------------------------------------------- outcomes

    def outcome(self, job, raw):
        """(phase, how, exit status): completed, removed, held (requeued with a hold, see
        requeue_fields) or evicted (requeued)."""
        reason, rep = job.get("kill_reason"), job.get("_report")
        a = job["attrs"] or {}
        slot = a.get("slot", 1)
        if job.get("request") == "delete" or reason == "delete":
            return "done", "terminated", None
        if reason in ("preempt", "nodefail"):
            if a.get("hold_request"):  # condor_hold of a running job: vacated, then held
                job["_hold"] = a["hold_request"]
            return "queued", None, None
        if reason == "walltime":
            job["_hold"] = [HOLD_JOB_DURATION, 0, "The job exceeded allowed job duration of %s"
                            % format_time_short(job["walltime"])]
            return "queued", None, None
        if rep and rep.get("oom"):
            job["_hold"] = [HOLD_OUT_OF_RESOURCES, SUB_MEMORY,
                            memory_reason(self.host, slot, a.get("mem") or 0)]
            return "queued", None, None
        if rep and rep.get("exec_errno"):
            e = rep["exec_errno"]
            args = " ".join(job["argv"][1:])
            job["_hold"] = [HOLD_FAILED_TO_CREATE, e, "Error from slot%d@%s: Failed to execute "
                            "'%s'%s: (errno=%d: '%s')" % (slot, self.host, job["argv"][0],
                                                          " with arguments " + args if args
                                                          else "", e, os.strerror(e))]
            return "queued", None, None
        if rep and rep.get("status") is not None:
            code = os.waitstatus_to_exitcode(rep["status"])
        elif raw is not None:
            code = raw if raw < 256 else -(raw - 256)
        else:
            code = -9
        job["_exit"] = [True, -code] if code < 0 else [False, code]
        return "done", ("ok" if code == 0 else "failed"), (code if code >= 0 else 256 - code)

    def _leave_slot(self, job, now):
        attrs = dict(job["attrs"] or {})
        slot = attrs.pop("slot", None)
        attrs.pop("gpu_ids", None)
        if slot:
            attrs["last_host"] = "slot%d@%s" % (slot, self.host)
        if job.get("start_time"):
            attrs["wall"] = float(attrs.get("wall", 0.0)) + max(0.0, now - job["start_time"])
        return attrs

    def start_fields(self, job, parent, now):
        attrs = dict(job["attrs"] or {})
        attrs.update(slot=job.get("_slot", 1), gpu_ids=job.get("_gpus") or [], cur_start=now)
        attrs.setdefault("start_date", now)
        return {"exec_host": "slot%d@%s" % (attrs["slot"], self.host), "comment": None,
                "attrs": attrs}

    def end_fields(self, job, how, exit_status, now):
        attrs = self._leave_slot(job, now)
        if job.get("_exit"):
            attrs["exit"] = job["_exit"]
        return {"attrs": attrs}

    def requeue_fields(self, job, now):
        attrs = self._leave_slot(job, now)
        attrs.pop("hold_request", None)
        if job.get("_hold"):
            attrs["hold"] = job["_hold"]
            fields = {"attrs": attrs, "phase": "held", "user_hold": 1}
            if job["_hold"][0] == HOLD_FAILED_TO_CREATE:     # it never began execution
                fields["run_count"] = max(0, job["run_count"] - 1)
            return fields
        return {"attrs": attrs}

    def not_run_comment(self, need_cpus, need_gpus, free_cpus, free_gpus, slots, gpus):
        return None

    # ---------------------------------------------------------- late materialization

    def dependency_verdict(self, cur, job, now):
        """An unmaterialized proc materializes when it is the cluster's next one and fewer
        than max_materialize procs of the cluster are in the queue."""
        prow = cur.execute("SELECT attrs FROM jobs WHERE rid=?", (job["parent"],)).fetchone()
        limit = (json.loads(prow["attrs"]) if prow else {}).get("materialize") or 0
        queued = cur.execute("SELECT count(*) FROM jobs WHERE parent=? AND dep_hold=0 AND "
                             "phase!='done'", (job["parent"],)).fetchone()[0]
        first = cur.execute("SELECT min(idx) FROM jobs WHERE parent=? AND dep_hold=1 AND "
                            "phase!='done'", (job["parent"],)).fetchone()[0]
        return "ok" if queued < limit and job["idx"] == first else "wait"

    def dependency_delete_fields(self, job, dep, cause, now):
        return {}

    # ---------------------------------------------------------- clusters

    def array_begin_fields(self, parent, now):
        return {}

    def array_outcome(self, subs):
        return "ok", None

    def array_end_fields(self, parent, how, now):
        return {}
