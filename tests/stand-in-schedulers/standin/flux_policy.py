"""What the server does the Flux way: the job shell it starts (flux_shell) and what the
job sees, the cores it gets, the signals of a cancel or a time limit, how a job ends
(waitstatus, exception, result), and the after* dependencies.

Sources (flux-core v0.65.0): src/shell/task.c (FLUX_JOB_ID in F58, FLUX_JOB_SIZE,
FLUX_JOB_NNODES, FLUX_TASK_RANK, FLUX_TASK_LOCAL_ID, FLUX_URI, FLUX_KVS_NAMESPACE, HOSTNAME),
src/shell/tmpdir.c (FLUX_JOB_TMPDIR `jobtmp-0-<f58>`), src/shell/shell.c and
doc/man1/common/job-mustache-templates.rst (`{{id}}`, `{{id.ENC}}`, `{{name}}`,
`{{nnodes}}`, `{{size}}`, `{{node.*}}`, `{{tmpdir}}`; an unknown tag stays), src/broker/
runat.c (what a batch script's environment lacks), src/modules/job-exec/job-exec.c
(`timeout` exception `resource allocation expired` and SIGALRM, SIGTERM on a fatal
exception, SIGKILL after kill-timeout, the shell after 5 kill-timeouts, status 256 for a
job that exited 0 under a fatal exception, `node failure on HOST (rank 0)` as an `exec`
exception), src/modules/job-list/job_state.c (the result), and
src/modules/job-manager/plugins/dependency-after.c (`dependency after-success=ID can
never be satisfied`).
"""

import json
import os
import re
import shutil
import signal
import sys

from standin import core
from standin.flux_common import cfg_value, display_id, encode, encode_idset, f58
from standin.flux_ingest import job_result

SHELL = os.path.join(os.path.dirname(os.path.realpath(__file__)), "flux_shell.py")
# runat.c env_blocklist: what the initial program of a batch job's instance does not see.
BLOCKLIST = ("FLUX_JOB_ID", "FLUX_JOB_SIZE", "FLUX_JOB_NNODES", "FLUX_JOB_TMPDIR",
             "FLUX_TASK_RANK", "FLUX_TASK_LOCAL_ID", "FLUX_URI", "FLUX_KVS_NAMESPACE",
             "FLUX_PROXY_REMOTE", "FLUX_PMI_LIBRARY_PATH", "I_MPI_PMI_LIBRARY")
BLOCK_PREFIXES = ("PMI_", "SLURM_")
MUSTACHE = re.compile(r"\{\{([^{}]*)\}\}")


class Policy:
    START_FAILED_EXIT = None
    HISTORY_SETTING = "inactive_age"

    def __init__(self, cfg, state_dir):
        self.cfg, self.dir, self.host = cfg, state_dir, cfg["host"]

    def display_id(self, job):
        return display_id(job)

    # ---------------------------------------------------------- running a job

    def _utf8(self, env):
        return (bool(int(cfg_value(self.cfg, "shell_utf8")))
                and not env.get("FLUX_F58_FORCE_ASCII"))

    def _report(self, job):
        return os.path.join(self.dir, "aux", "%d.report" % job["seq"])

    def render(self, template, job, utf8, tmpdir):
        """The shell's mustache templates; a tag it does not know stays as it was."""
        def tag(m):
            name = m.group(1)
            if name.startswith("jobid"):
                name = name[3:]
            if name == "id" or name.startswith("id."):
                value = encode(job["seq"], name[3:] or "f58", utf8)
                return value if value is not None else m.group(0)
            a = job["attrs"]
            tags = {"name": a["name"], "tmpdir": tmpdir, "nnodes": "1",
                    "size": str(a["ntasks"]), "ntasks": str(a["ntasks"]), "node.id": "0",
                    "node.name": self.host, "node.broker_rank": "0",
                    "node.cores": encode_idset(a.get("cores", [])),
                    "node.ncores": str(len(a.get("cores", []))),
                    "node.gpus": encode_idset(a.get("gpus", []))}
            return tags.get(name, m.group(0))
        return MUSTACHE.sub(tag, template)

    def prepare_start(self, cur, job, parent, now):
        """The cores (and GPUs) the job gets: the lowest free ones."""
        used_cores, used_gpus = set(), set()
        for r in cur.execute("SELECT attrs FROM jobs WHERE phase='running'"):
            a = json.loads(r["attrs"])
            used_cores.update(a.get("cores", []))
            used_gpus.update(a.get("gpus", []))
        slots, gpus = int(self.cfg.get("slots", 4)), int(self.cfg.get("gpus", 0))
        attrs = dict(job["attrs"])
        attrs["cores"] = [c for c in range(slots) if c not in used_cores][:job["ncpus"]]
        attrs["gpus"] = [g for g in range(gpus) if g not in used_gpus][:job["ngpus"]]
        return {"attrs": attrs}

    def launch(self, job, parent, now):
        a, fluid = job["attrs"], job["seq"]
        env = dict(job["env"] or [])
        utf8 = self._utf8(env)
        jobid = f58(fluid, utf8)
        tmpdir = os.path.join(self.dir, "tmp", "jobtmp-0-" + jobid)
        cwd = job["cwd"]

        def path(template):
            return os.path.join(cwd, self.render(template, job, utf8, tmpdir)) \
                if template else None
        out, err = path(a.get("output")), path(a.get("error"))
        kvs = os.path.join(self.dir, "aux", "%d.output" % fluid)    # kept "in the KVS"
        if out is None:
            out = kvs
            err = err or kvs
        elif err is None:
            err = out                       # stderr follows stdout to its file
        uri = str(cfg_value(self.cfg, "uri"))
        if a.get("batch"):
            for key in list(env):
                if key in BLOCKLIST or key.startswith(BLOCK_PREFIXES):
                    del env[key]
            env["FLUX_URI"] = "local://%s/local-0" % tmpdir      # the new instance's
            argv = [job["script"]] + [self.render(w, job, utf8, tmpdir)
                                      for w in job["argv"] or []]
        else:
            env.pop("FLUX_PROXY_REMOTE", None)
            env.update(FLUX_JOB_ID=jobid, FLUX_JOB_SIZE=str(a["ntasks"]), FLUX_JOB_NNODES="1",
                       FLUX_URI=uri, FLUX_KVS_NAMESPACE="job-%d" % fluid,
                       FLUX_JOB_TMPDIR=tmpdir)
            if "HOSTNAME" in env:
                env["HOSTNAME"] = self.host
            argv = [self.render(w, job, utf8, tmpdir) for w in job["argv"]]
        spec = {"ntasks": 1 if a.get("batch") else a["ntasks"], "argv": argv, "cwd": cwd,
                "out": out, "err": err, "batch": bool(a.get("batch")), "host": self.host,
                "jobtmp": tmpdir, "report": self._report(job)}
        user = core.user_info(job["uid"])[0]
        return {"argv": [sys.executable, "-B", "-I", SHELL, json.dumps(spec)], "env": env,
                "cwd": "/", "uid": job["uid"], "gid": job["gid"],
                "groups": core.group_list(user, job["gid"])}

    def cleanup_run(self, job):
        utf8 = self._utf8(dict(job["env"] or []))
        shutil.rmtree(os.path.join(self.dir, "tmp", "jobtmp-0-" + f58(job["seq"], utf8)),
                      ignore_errors=True)

    def walltime_notice(self, job, used):
        """job-exec raises the `timeout` exception; the outcome records it."""

    def kill_plan(self, reason, grace):
        """The first signal (SIGALRM at the time limit, else SIGTERM), then after the
        kill timeout the tasks are SIGKILLed by the shell (SIGWINCH to it, see
        flux_shell), and after five the shell itself."""
        first = signal.SIGALRM if reason == "walltime" else signal.SIGTERM
        return [(0.0, first), (grace, signal.SIGWINCH), (5 * grace, signal.SIGKILL)]

    # ---------------------------------------------------------- outcomes

    def _exception(self, job):
        a = job["attrs"] or {}
        exc = a.get("exception")
        try:
            with open(self._report(job)) as f:
                exc = exc or json.load(f).get("exception")
            os.unlink(self._report(job))
        except (OSError, ValueError):
            pass
        reason = job.get("kill_reason")
        if reason == "nodefail":
            exc = {"type": "exec", "severity": 0,
                   "note": "node failure on %s (rank 0)" % self.host}
        elif reason == "walltime" and not exc:
            exc = {"type": "timeout", "severity": 0, "note": "resource allocation expired"}
        elif reason == "preempt" and not exc:
            exc = {"type": "preempt", "severity": 0, "note": "preempted by an administrator"}
        return exc

    def outcome(self, job, raw):
        """(phase, how, waitstatus): how from the result; a job is never requeued."""
        ws = None if raw is None else (raw << 8 if raw < 256 else raw - 256)
        exc = self._exception(job)
        fatal = bool(exc) and exc.get("severity", 0) == 0
        if fatal and ws == 0:
            ws = 256
        if fatal:
            result = {"cancel": "CANCELED", "timeout": "TIMEOUT"}.get(exc["type"], "FAILED")
        else:
            result = "COMPLETED" if ws == 0 else "FAILED"
        job["_end"] = {"exception": exc, "result": result, "waitstatus": ws}
        how = {"COMPLETED": "ok", "CANCELED": "terminated", "TIMEOUT": "walltime"}.get(
            result, "nodefail" if job.get("kill_reason") == "nodefail" else "failed")
        return "done", how, ws

    def start_fields(self, job, parent, now):
        return {"exec_host": self.host, "comment": None, "attrs": job["attrs"]}

    def end_fields(self, job, how, exit_status, now):
        end = job.get("_end") or {
            "exception": {"type": "exec", "severity": 0, "note": "job shell exec error"},
            "result": "FAILED", "waitstatus": None}
        attrs = dict(job["attrs"] or {})
        attrs.update({k: v for k, v in end.items() if v is not None})
        return {"attrs": attrs}

    def requeue_fields(self, job, now):
        return {}

    def not_run_comment(self, need_cpus, need_gpus, free_cpus, free_gpus, slots, gpus):
        return None

    # ---------------------------------------------------------- dependencies

    @staticmethod
    def dep_verdict(cur, dep):
        """'ok', 'wait' or 'never' for one after* dependency (a purged target: never)."""
        row = cur.execute("SELECT phase, start_time, attrs FROM jobs WHERE seq=? AND "
                          "kind='job'", (dep["seq"],)).fetchone()
        if row is None:
            return "never"
        done = row["phase"] == "done"
        if dep["kind"] == "after-start":
            return "ok" if row["start_time"] else ("never" if done else "wait")
        if not done:
            return "wait"
        if dep["kind"] == "after-finish":
            return "ok"
        success = job_result(core.decode(row)) == "COMPLETED"
        return "ok" if success == (dep["kind"] == "after-success") else "never"

    def dependency_verdict(self, cur, job, now):
        deps = (job["attrs"] or {}).get("deps", [])
        verdicts = [self.dep_verdict(cur, d) for d in deps]
        if "never" in verdicts:
            job["_never"] = deps[verdicts.index("never")]["desc"]
            return "never"
        return "ok" if all(v == "ok" for v in verdicts) else "wait"

    def dependency_delete_fields(self, job, dep, cause, now):
        """A fatal `dependency` exception; the job goes INACTIVE, FAILED."""
        attrs = dict(job["attrs"] or {})
        desc = job.get("_never", cause)
        attrs["exception"] = {"type": "dependency", "severity": 0,
                              "note": "dependency %s can never be satisfied" % desc}
        attrs["result"] = "FAILED"
        return {"attrs": attrs}

    # ---------------------------------------------------------- arrays (none in Flux)

    def array_begin_fields(self, parent, now):
        return {}

    def array_outcome(self, subs):
        return "ok", None

    def array_end_fields(self, parent, how, now):
        return {}
