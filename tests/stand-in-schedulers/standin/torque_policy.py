"""What the server does the Torque way (Torque 6.1.3.h5): the job's environment
(src/resmom/start_exec.c InitUserEnv), its cores (exec_host `host/0-3`), exit statuses
(256 + signal, mom_start.c; -11 JOB_EXEC_OVERLIMIT_WT with mom_main.c's notice in the
job's stderr), and the jobs the server deletes because a dependency can never be
satisfied (req_register.c, job_func.c handle_aborted_job: state C, exit_status 271).
"""

import os
import re
import time

from standin import core, jobrun
from standin.torque_common import (DEPENDENCY_DELETED_EXIT, JOB_EXEC_FAIL1,
                                   JOB_EXEC_OVERLIMIT_WT, JOB_EXEC_RETRY, QUEUE, display_id,
                                   version)


def core_ranges(cores):
    """[0, 1, 2, 3, 6] -> "0-3,6" (Torque 6 exec_host)."""
    out, i = [], 0
    while i < len(cores):
        j = i
        while j + 1 < len(cores) and cores[j + 1] == cores[j] + 1:
            j += 1
        out.append(str(cores[i]) if i == j else "%d-%d" % (cores[i], cores[j]))
        i = j + 1
    return ",".join(out)


def cores_of(exec_host):
    cores = set()
    for part in re.findall(r"/([\d,-]+)", exec_host or ""):
        for r in part.split(","):
            lo, _, hi = r.partition("-")
            if lo.isdigit():
                cores.update(range(int(lo), int(hi or lo) + 1))
    return cores


class Policy:
    START_FAILED_EXIT = JOB_EXEC_FAIL1
    HISTORY_SETTING = "keep_completed"
    PATH = "/usr/local/bin:/usr/bin:/bin"

    def __init__(self, cfg, state_dir):
        self.cfg, self.dir = cfg, state_dir
        self.server, self.host = cfg["server_name"], cfg["host"]

    def display_id(self, job):
        return display_id(job, self.server)

    # ---------------------------------------------------------- running a job

    def _aux(self, job):
        jid = self.display_id(job)
        return os.path.join(self.dir, "aux", jid), os.path.join(self.dir, "tmp", jid)

    def _paths(self, job, a):
        """The job's stdout and stderr files: host: stripped, a directory gets the
        default name, a subjob's path gets -<index> (Output_Path as qstat shows it; Torque
        would then copy a subjob's /dev/null output to /dev/null-<index>: here it stays
        /dev/null)."""
        def path(attr, letter):
            p = a[attr].split(":", 1)[1] if re.match(r"^[^/:]+:", a[attr]) else a[attr]
            if p == "/dev/null":
                return p
            suffix = "-%d" % job["idx"] if job["kind"] == "sub" else ""
            if p.endswith("/") or os.path.isdir(p):
                return os.path.join(p, "%s.%s%d%s" % (a["Job_Name"], letter, job["seq"], suffix))
            return p + suffix
        return path("Output_Path", "o"), path("Error_Path", "e")

    def prepare_start(self, cur, job, parent, now):
        """The lowest free cores of the one host (exec_host)."""
        busy = set()
        for r in cur.execute("SELECT exec_host FROM jobs WHERE phase='running'"):
            busy |= cores_of(r["exec_host"])
        free = [i for i in range(int(self.cfg.get("slots", 4)) + job["ncpus"]) if i not in busy]
        return {"exec_host": "%s/%s" % (self.host, core_ranges(free[:max(1, job["ncpus"])]))}

    def launch(self, job, parent, now):
        base = parent if job["kind"] == "sub" else job
        a = base["attrs"]
        uid, gid = base["uid"], base["gid"]
        user, home, login_shell, _ = core.user_info(uid)
        nodefile, tmpdir = self._aux(job)
        ppn, nodes = a.get("ppn", 1), a.get("nodes", 1)
        with open(nodefile, "w") as f:
            f.write((self.host + "\n") * (ppn * nodes))
        os.chmod(nodefile, 0o644)
        gpufile = nodefile + "gpu"
        if job["ngpus"]:
            with open(gpufile, "w") as f:
                f.write("".join("%s-gpu%d\n" % (self.host, i) for i in range(job["ngpus"])))
        jobrun.make_tmpdir(tmpdir, uid, gid)
        shell = (a.get("Shell_Path_List") or login_shell or "/bin/bash").split(",")[0].split("@")[0]
        env = {"PATH": self.PATH}
        if job["kind"] == "sub":
            env["PBS_ARRAYID"] = str(job["idx"])
        env.update((k, v) for k, v in base["env"] or [])
        env.update({
            "HOME": home, "LOGNAME": user, "PBS_JOBNAME": a["Job_Name"] + (
                "-%d" % job["idx"] if job["kind"] == "sub" else ""),
            "PBS_JOBID": self.display_id(job), "PBS_QUEUE": QUEUE, "SHELL": shell, "USER": user,
            "PBS_JOBCOOKIE": os.urandom(16).hex().upper(),
            "PBS_NODENUM": "0", "PBS_TASKNUM": "1", "PBS_MOMPORT": "15003",
            "PBS_NODEFILE": nodefile, "PBS_GPUFILE": gpufile, "PBS_MICFILE": nodefile + "mic",
            "HOSTNAME": self.host, "PBS_NUM_NODES": str(nodes), "PBS_NUM_PPN": str(ppn),
            "TMPDIR": tmpdir, "PBS_VERSION": "TORQUE-%s" % version(self.cfg),
            "PBS_VNODENUM": "0", "PBS_NP": str(ppn * nodes),
            "PBS_ENVIRONMENT": "PBS_BATCH", "ENVIRONMENT": "BATCH"})
        if job.get("walltime") is not None:
            env["PBS_WALLTIME"] = str(job["walltime"])
        out, err = self._paths(job, a)
        argv = jobrun.wrapped_command(out, err, a["Join_Path"], [shell, job["script"]],
                                      "torque_job")
        cwd = base["cwd"] if base.get("cwd") and os.path.isdir(base["cwd"]) else "/"
        return {"argv": argv, "env": env, "cwd": cwd, "uid": uid, "gid": gid,
                "groups": core.group_list(user, gid)}

    def cleanup_run(self, job):
        nodefile, tmpdir = self._aux(job)
        jobrun.remove_run_files(nodefile, tmpdir)
        jobrun.remove_run_files(nodefile + "gpu", tmpdir)

    def walltime_notice(self, job, used):
        """MoM's line in the job's stderr (mom_main.c, mom_mach.c mom_over_limit)."""
        jobrun.append_notice((job.get("attrs") or {}).get("_run"),
                             "=>> PBS: job killed: walltime %d exceeded limit %d\n"
                             % (int(used), int(job["walltime"])))

    # ---------------------------------------------------------- outcomes

    def outcome(self, job, raw):
        """(phase, how, exit_status) once the job's shell is gone (raw: its exit value,
        256 + signal for a signal, None if unknown)."""
        reason = job.get("kill_reason")
        if reason == "preempt":
            return "queued", None, job.get("exit_status")
        if reason == "nodefail":
            if job["rerunnable"]:
                return "queued", None, JOB_EXEC_RETRY
            return "done", "nodefail", JOB_EXEC_RETRY
        if raw is None:
            raw = JOB_EXEC_FAIL1
        if reason == "walltime":
            return "done", "walltime", JOB_EXEC_OVERLIMIT_WT
        if reason == "delete":
            return "done", "terminated", raw
        return "done", ("ok" if raw == 0 else "failed"), raw

    def start_fields(self, job, parent, now):
        base = parent if job["kind"] == "sub" else job
        attrs = dict(job["attrs"] or {})
        attrs["_run"] = list(self._paths(job, base["attrs"])) + [base["attrs"]["Join_Path"]]
        comment = "Job started on %s" % time.strftime("%a %b %d at %H:%M", time.localtime(now))
        return {"exec_host": job["exec_host"], "comment": comment, "attrs": attrs}

    def end_fields(self, job, how, exit_status, now):
        return {}

    def requeue_fields(self, job, now):
        return {}

    def not_run_comment(self, need_cpus, need_gpus, free_cpus, free_gpus, slots, gpus):
        return None

    def _deleted_comment(self, job, dep, cause):
        if dep["type"].endswith("array"):
            return ("Job %s deleted because its dependency of array %s can never be satisfied"
                    % (self.display_id(job), cause))
        return "Job deleted as result of dependency on job %s" % cause

    def dependency_delete_fields(self, job, dep, cause, now):
        text = self._deleted_comment(job, dep, cause)
        comment = job["comment"] + ". " + text if job.get("comment") else text
        return {"comment": comment, "exit_status": DEPENDENCY_DELETED_EXIT}

    def dependency_delete_sub_fields(self, job, dep, cause, now):
        return {"comment": self._deleted_comment(job, dep, cause),
                "exit_status": DEPENDENCY_DELETED_EXIT}

    # ---------------------------------------------------------- arrays

    def array_begin_fields(self, parent, now):
        return {}

    def array_outcome(self, subs):
        """The parent shows no exit_status (the published samples)."""
        bad = [s["how"] for s in subs if (s["how"] or "ok") != "ok"]
        return (bad[0] if bad else "ok"), None

    def array_end_fields(self, parent, how, now):
        return {}
