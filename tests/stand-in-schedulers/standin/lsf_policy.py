"""What the server does the LSF way: where a job runs (the submission directory, or -cwd)
and what it sees (the submitter's environment and LSF's LSB_* variables), its output
files (-o/-oo append/overwrite, %J %I), exit codes (128 + signal), bkill's and the run
limit's signals, dependencies (lsf_depend: a dependent that can never run stays PEND),
and array elements.
"""

import os
import signal

from standin import core, jobrun
from standin.lsf_common import PEND_RESOURCES, PEND_SLOTS, cfg_value, display_id
from standin.lsf_depend import evaluate


def _redirect(fd, arg, append):
    return ('if : 2>/dev/null >>"$%d"; then exec %d%s"$%d"; else exec %d>/dev/null; fi'
            % (arg, fd, ">>" if append else ">", arg, fd))


class Policy:
    START_FAILED_EXIT = 127
    HISTORY_SETTING = "clean_period"

    def __init__(self, cfg, state_dir):
        self.cfg, self.dir, self.host = cfg, state_dir, cfg["host"]

    def display_id(self, job):
        return display_id(job)

    # ---------------------------------------------------------- running a job

    def _aux(self, job):
        name = "%d_%d" % (job["seq"], job["idx"]) if job["kind"] == "sub" else str(job["seq"])
        return (os.path.join(self.dir, "aux", name + ".hostfile"),
                os.path.join(self.dir, "tmp", name + ".tmpdir"))

    def _paths(self, job, base):
        """(exec cwd, stdout path, stderr path); paths as the job's cwd sees them."""
        a = base["attrs"]
        idx = job["idx"] if job["kind"] == "sub" else 0

        def subst(p):
            return p.replace("%J", str(job["seq"])).replace("%I", str(idx))
        cwd = base["cwd"]
        if a.get("cwd_spec"):
            cwd = os.path.join(base["submit_dir"] or "/", subst(a["cwd_spec"]))
        if not os.path.isdir(cwd):
            cwd = "/tmp"

        def path(key, suffix):
            if not a.get(key):
                return None
            p = os.path.join(cwd, subst(a[key]))
            if os.path.isdir(p):
                name = "%d_%d" % (job["seq"], idx) if job["kind"] == "sub" else str(job["seq"])
                p = os.path.join(p, name + suffix)
            return p
        return cwd, path("out", ".out"), path("err", ".err")

    def launch(self, job, parent, now):
        base = parent if job["kind"] == "sub" else job
        a = base["attrs"]
        uid, gid = base["uid"], base["gid"]
        user = core.user_info(uid)[0]
        hostfile, tmpdir = self._aux(job)
        slots = int(a.get("slots", 1))
        with open(hostfile, "w") as f:
            f.write((self.host + "\n") * slots)
        os.chmod(hostfile, 0o644)
        jobrun.make_tmpdir(tmpdir, uid, gid)
        cwd, out, err = self._paths(job, base)
        env = dict(base["env"] or [])
        jobname = a["name"]                 # as -J gave it: an array's with its indices
        if a.get("index_spec"):
            jobname += "[%s]" % a["index_spec"]
            if base["max_running"]:
                jobname += "%%%d" % base["max_running"]
        env.update({
            "LSB_JOBID": str(job["seq"]),
            "LSB_JOBINDEX": str(job["idx"]) if job["kind"] == "sub" else "0",
            "LSB_JOBNAME": jobname,
            "LSB_HOSTS": " ".join([self.host] * slots),
            "LSB_MCPU_HOSTS": "%s %d" % (self.host, slots),
            "LSB_DJOB_HOSTFILE": hostfile, "LSB_DJOB_NUMPROC": str(slots),
            "LSB_MAX_NUM_PROCESSORS": str(slots), "LSB_QUEUE": a.get("queue", "normal"),
            "LS_SUBCWD": base["submit_dir"] or cwd, "LS_EXECCWD": cwd,
            "LSB_SUB_HOST": a.get("from_host", self.host),
            "LSB_EXEC_CLUSTER": str(cfg_value(self.cfg, "cluster_name")),
            "LSFUSER": user, "LSB_JOB_EXECUSER": user, "LSB_JOBFILENAME": job["script"],
            "TMPDIR": tmpdir,
        })
        if job["kind"] == "sub":
            env["LSB_JOBINDEX_END"] = str(a.get("last_index", job["idx"]))
        if out:
            env["LSB_OUTPUTFILE"] = out
        if err:
            env["LSB_ERRORFILE"] = err
        with open(job["script"], "rb") as f:
            shebang = f.read(2) == b"#!"
        command = [job["script"]] if shebang else ["/bin/sh", job["script"]]
        append_out = a.get("out_form") != "-oo"
        append_err = a.get("err_form") != "-eo"
        if out and not err:             # -o alone: stderr goes there too
            redirect = _redirect(1, 1, append_out) + "; exec 2>&1"
        else:
            redirect = _redirect(1, 1, append_out) + "; " + _redirect(2, 2, append_err)
        argv = (["/bin/bash", "-c", redirect + '; shift 2; exec "$@"', "lsf_job",
                 out or "/dev/null", err or "/dev/null"] + command)
        return {"argv": argv, "env": env, "cwd": cwd, "uid": uid, "gid": gid,
                "groups": core.group_list(user, gid)}

    def cleanup_run(self, job):
        jobrun.remove_run_files(*self._aux(job))

    def walltime_notice(self, job, used):
        """LSF writes its job report to the -o file; the stand-in writes none."""

    def kill_plan(self, reason, grace):
        """bkill: SIGINT, SIGTERM, SIGKILL `kill_grace` apart; the run limit: SIGUSR2,
        then bkill's signals `runlimit_grace` later (bsub -W: ten minutes)."""
        bkill = [(0.0, signal.SIGINT), (grace, signal.SIGTERM), (2 * grace, signal.SIGKILL)]
        if reason == "walltime":
            late = float(cfg_value(self.cfg, "runlimit_grace"))
            return [(0.0, signal.SIGUSR2)] + [(late + t, s) for t, s in bkill]
        return bkill

    # ---------------------------------------------------------- outcomes

    def outcome(self, job, raw):
        """(phase, how, exit code): 128 + N for a shell killed by signal N."""
        reason = job.get("kill_reason")
        if reason == "preempt":
            return "queued", None, job.get("exit_status")
        if reason == "nodefail":
            return ("queued", None, None) if job["rerunnable"] else ("done", "nodefail", None)
        code = None if raw is None else (raw if raw < 256 else 128 + raw - 256)
        if reason == "walltime":
            return "done", "walltime", code
        if reason == "delete":
            return "done", "terminated", code
        return "done", ("ok" if code == 0 else "failed"), code

    def start_fields(self, job, parent, now):
        base = parent if job["kind"] == "sub" else job
        cwd, out, err = self._paths(job, base)
        attrs = dict(job["attrs"] or {})
        attrs.update(_exec_cwd=cwd, _out=out or "", _err=err or "", _susp=False)
        return {"exec_host": self.host, "comment": None, "attrs": attrs}

    def end_fields(self, job, how, exit_status, now):
        return {}

    def requeue_fields(self, job, now):
        return {"comment": None}

    def not_run_comment(self, need_cpus, need_gpus, free_cpus, free_gpus, slots, gpus):
        return PEND_SLOTS if need_cpus > free_cpus else PEND_RESOURCES

    # ---------------------------------------------------------- dependencies

    def dependency_verdict(self, cur, job, now):
        tree = (job["attrs"] or {}).get("depend_tree")
        return evaluate(cur, tree) if tree else "ok"

    def never_satisfied_fields(self, job, now):
        """LSF keeps the job pending: `Dependency condition invalid or never satisfied`."""
        return {"dep_cause": "never"}

    def dependency_delete_fields(self, job, dep, cause, now):
        return {}

    # ---------------------------------------------------------- arrays

    def array_begin_fields(self, parent, now):
        return {}

    def array_outcome(self, subs):
        bad = [s["how"] for s in subs if (s["how"] or "ok") != "ok"]
        return (bad[0] if bad else "ok"), None

    def array_end_fields(self, parent, how, now):
        return {}
