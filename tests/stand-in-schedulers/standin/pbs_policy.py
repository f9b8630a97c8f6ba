"""What the server does the PBS way: the job's environment and output files, exit
statuses, finish comments, array parents (src/server/svr_jobfunc.c, array_func.c,
req_runjob.c; mom_main.c for the walltime notice).
"""

import os
import re
import time

from standin import core, jobrun
from standin.pbs_common import (HOW_SUBSTATE, JOB_EXEC_FAIL1, JOB_EXEC_KILL_WALLTIME,
                                JOB_EXEC_RERUN_MS_FAIL, QUEUE, SUB_FAILED, SUB_FINISHED,
                                SUB_TERMINATED, SUBSTATE_WORD, display_id)
from standin.pbs_view import exec_vnode

class Policy:
    """What the server does the PBS way."""

    START_FAILED_EXIT = JOB_EXEC_FAIL1
    PATH = "/usr/local/bin:/usr/bin:/bin"

    def __init__(self, cfg, state_dir):
        self.cfg = cfg
        self.dir = state_dir
        self.server = cfg["server_name"]
        self.host = cfg["host"]

    def display_id(self, job):
        return display_id(job, self.server)

    # ---------------------------------------------------------- running a job

    def _aux(self, job):
        return (os.path.join(self.dir, "aux", self.display_id(job)),
                os.path.join(self.dir, "tmp", "pbs." + self.display_id(job)))

    def _paths(self, job, attrs):
        def strip(path):
            p = path.split(":", 1)[1] if re.match(r"^[^/:]+:", path) else path
            if job["kind"] == "sub":
                p = p.replace("^array_index^", str(job["idx"]))
            return p
        return strip(attrs["Output_Path"]), strip(attrs["Error_Path"])

    def launch(self, job, parent, now):
        base = parent if job["kind"] == "sub" else job
        a = base["attrs"]
        uid, gid = base["uid"], base["gid"]
        user, home, shell, _ = core.user_info(uid)
        nodefile, tmpdir = self._aux(job)
        lines = []
        for ch in a["chunks"]:
            per = ch["mpiprocs"] if ch.get("mpiprocs") is not None else ch["ncpus"]
            lines += [self.host] * (ch["count"] * max(per, 1))
        with open(nodefile, "w") as f:
            f.write("".join(l + "\n" for l in lines))
        os.chmod(nodefile, 0o644)
        jobrun.make_tmpdir(tmpdir, uid, gid)
        jid = self.display_id(job)
        env = {"PATH": self.PATH}
        env.update((k, v) for k, v in base["env"] or [])
        first_ncpus = a["chunks"][0]["ncpus"] if a["chunks"] else 1
        env.update({
            "HOME": home, "USER": user, "LOGNAME": user, "SHELL": shell,
            "PBS_JOBID": jid, "PBS_JOBNAME": a["Job_Name"], "PBS_QUEUE": QUEUE,
            "PBS_NODEFILE": nodefile, "PBS_ENVIRONMENT": "PBS_BATCH", "PBS_JOBDIR": home,
            "PBS_TASKNUM": "1", "PBS_NODENUM": "0", "PBS_MOMPORT": "15003",
            "NCPUS": str(first_ncpus), "OMP_NUM_THREADS": str(first_ncpus), "TMPDIR": tmpdir,
        })
        if job["kind"] == "sub":
            env["PBS_ARRAY_INDEX"] = str(job["idx"])
            env["PBS_ARRAY_ID"] = self.display_id(parent)
        out, err = self._paths(job, a)
        run_shell = (a.get("Shell_Path_List") or "/bin/bash").split(",")[0].split("@")[0]
        if job.get("argv"):
            command = list(job["argv"])
        else:
            command = [run_shell, job["script"]]
        argv = jobrun.wrapped_command(out, err, a["Join_Path"], command)
        cwd = base["cwd"] if base.get("cwd") and os.path.isdir(base["cwd"]) else "/"
        return {"argv": argv, "env": env, "cwd": cwd, "uid": uid, "gid": gid,
                "groups": core.group_list(user, gid)}

    def cleanup_run(self, job):
        jobrun.remove_run_files(*self._aux(job))

    def walltime_notice(self, job, used):
        """MoM's line in the job's stderr (mom_main.c)."""
        jobrun.append_notice((job.get("attrs") or {}).get("_run"),
                             "=>> PBS: job killed: walltime %d exceeded limit %d\n"
                             % (int(used), int(job["walltime"])))

    # ---------------------------------------------------------- outcomes

    def outcome(self, job, raw):
        """(phase, how, Exit_status) when a job's shell is gone (raw: its exit value with
        256 + signal for a signal, None if unknown)."""
        reason = job.get("kill_reason")
        if reason == "preempt":
            return "queued", None, job.get("exit_status")
        if reason == "nodefail":
            if job["rerunnable"]:
                return "queued", None, JOB_EXEC_RERUN_MS_FAIL
            return "done", "nodefail", JOB_EXEC_RERUN_MS_FAIL
        if raw is None:
            raw = JOB_EXEC_FAIL1
        if reason == "walltime":
            if self.cfg.get("walltime_exit", "modern") == "modern":
                return "done", "walltime", JOB_EXEC_KILL_WALLTIME
            return "done", ("failed" if raw != 0 else "ok"), raw
        if reason == "delete":
            return "done", "terminated", raw
        return "done", ("ok" if raw == 0 else "failed"), raw

    def start_fields(self, job, parent, now):
        base = parent if job["kind"] == "sub" else job
        a = base["attrs"]
        vnode = exec_vnode(a["chunks"], self.host)
        comment = "Job run at %s on %s" % (time.strftime("%a %b %d at %H:%M", time.localtime(now)),
                                           vnode)
        out, err = self._paths(job, a)
        attrs = dict(job["attrs"] or {})
        attrs["_run"] = [out, err, a["Join_Path"]]      # for the walltime notice
        return {"exec_host": self.host, "comment": comment, "attrs": attrs}

    def end_fields(self, job, how, exit_status, now):
        comment = job.get("comment") or ""
        if job["kind"] == "sub":
            return {"comment": comment}
        if how == "ok":
            comment += " and finished"
        elif how == "walltime":
            comment += " and exceeded resource walltime"
        elif how == "terminated":
            if "terminated" not in comment:
                comment += " and terminated"
        else:
            comment += " and failed"
        return {"comment": comment.strip()}

    def requeue_fields(self, job, now):
        return {"comment": None}

    def not_run_comment(self, need_cpus, need_gpus, free_cpus, free_gpus, slots, gpus):
        if need_cpus > free_cpus:
            return ("Not Running: Insufficient amount of resource: ncpus (R: %d A: %d T: %d)"
                    % (need_cpus, max(free_cpus, 0), slots))
        return ("Not Running: Insufficient amount of resource: ngpus (R: %d A: %d T: %d)"
                % (need_gpus, max(free_gpus, 0), gpus))

    def dependency_delete_fields(self, job, dep, cause, now):
        return {"comment": "Job deleted as result of dependency on job %s" % cause}

    def array_begin_fields(self, parent, now):
        return {"comment": "Job Array Began at %s" % time.strftime("%a %b %d at %H:%M",
                                                                   time.localtime(now))}

    def array_outcome(self, subs):
        """HEAD array_func.c: the parent's Exit_status follows the last subjob to end
        (>0 -> 1, <0 -> 2, 0 -> 0); its substate is that of the first failed or
        terminated subjob, else finished."""
        how = "ok"
        for s in subs:
            sub = HOW_SUBSTATE.get(s["how"] or "ok")
            if sub in (SUB_FAILED, SUB_TERMINATED):
                how = s["how"]
                break
        with_exit = [s for s in subs if s["exit_status"] is not None]
        exit_status = None
        if with_exit:
            last = max(with_exit, key=lambda s: (s["end_time"] or 0, s["idx"]))
            e = last["exit_status"]
            exit_status = 1 if e > 0 else (2 if e < 0 else 0)
        return how, exit_status

    def array_end_fields(self, parent, how, now):
        comment = parent.get("comment")
        if not comment:
            return {}
        word = SUBSTATE_WORD[HOW_SUBSTATE.get(how or "ok", SUB_FINISHED)]
        return {"comment": "%s and %s" % (comment, word)}
