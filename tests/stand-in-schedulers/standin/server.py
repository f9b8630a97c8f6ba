"""The stand-in scheduler's daemon: python3 -m standin.server --dir STATE

Every tick (config `tick`, 0.1 s; sooner when a job's shell exits) it, in one write
transaction:
  * records the jobs whose shell exited (reaped with wait4, rusage kept),
  * acts on control requests (qdel of a running job, preempt, node failure) and on
    walltime: SIGTERM to the job's process group, SIGKILL after `kill_grace`,
  * moves exiting jobs to done, waiting jobs (execution time) to queued,
  * resolves dependencies (release, or delete the dependent when the condition can
    never be met),
  * keeps array parents up to date (begun, finished),
  * starts queued jobs in submission order within `slots` CPUs (and `gpus`), honouring
    each array's limit of running subjobs,
  * forgets finished jobs older than `job_history_duration`.

Each job runs as `bash <spool copy of the script>` (or the -S shell) in a session of its
own (setsid), stdin /dev/null, as the user who submitted it when the server runs as
root; its pgid is recorded. On SIGTERM the server kills every running job's process
group and exits; a server started on a database that still lists running jobs treats
them as lost with their node (the scheduler module says what that means).

What a job sees and what the commands print is the scheduler module's business
(`standin.<scheduler>.Policy`); this file knows nothing of PBS.
"""

import argparse
import fcntl
import importlib
import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
import traceback

from standin import core


class Engine:
    def __init__(self, state_dir):
        self.store = core.Store(state_dir)
        self.dir = self.store.dir
        self.cfg = self.store.cfg
        module = importlib.import_module("standin." + self.cfg["scheduler"])
        self.policy = module.Policy(self.cfg, self.dir)
        self.children = {}      # rid -> Popen of a running job's shell
        self.pending = {}       # rid -> (wait status, rusage) not yet recorded
        self.orphans = []       # shells started in a tick whose transaction failed
        self.spawned = []
        self.stopping = False
        self.wake_r, self.wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    # ------------------------------------------------------------ main loop

    def log(self, message):
        sys.stdout.write("%s standin: %s\n" % (time.strftime("%Y-%m-%d %H:%M:%S"), message))
        sys.stdout.flush()

    def _stop(self, signum, frame):
        self.stopping = True

    def run(self):
        try:
            os.setsid()
        except OSError:
            pass                # already a session leader
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        # Handlers, not SIG_IGN (nohup and the background start leave HUP, INT and QUIT
        # ignored, and an ignored signal stays ignored in the jobs): a handler is reset
        # to the default in every job.
        signal.signal(signal.SIGHUP, lambda s, f: None)
        signal.signal(signal.SIGQUIT, lambda s, f: None)
        signal.signal(signal.SIGCHLD, lambda s, f: None)
        signal.set_wakeup_fd(self.wake_w, warn_on_full_buffer=False)
        self.recover()
        ready = os.path.join(self.dir, core.READY_NAME)
        with open(ready + ".tmp", "w") as f:
            f.write("%d\n" % os.getpid())
        os.replace(ready + ".tmp", ready)
        self.log("ready: pid %d, scheduler %s, server %s, %s slots"
                 % (os.getpid(), self.cfg["scheduler"], self.cfg["server_name"], self.cfg["slots"]))
        period = float(self.cfg.get("tick", 0.1))
        while not self.stopping:
            try:
                self.tick()
            except sqlite3.OperationalError as e:
                self.log("tick skipped: %s" % e)
            except Exception:
                self.log("tick failed:\n" + traceback.format_exc())
            if self.stopping:
                break
            try:
                readable, _, _ = select.select([self.wake_r], [], [], period)
            except InterruptedError:
                readable = []
            if readable:
                try:
                    while os.read(self.wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
        self.shutdown()

    def shutdown(self):
        self.log("stopping: killing %d running job(s)" % len(self.children))
        for p in self.orphans:
            core.kill_group(p.pid, signal.SIGKILL)
        for p in self.children.values():
            core.kill_group(p.pid, signal.SIGTERM)
        end = time.monotonic() + float(self.cfg.get("kill_grace", 2.0))
        while self.children and time.monotonic() < end:
            self._reap_quietly()
            if self.children:
                time.sleep(0.02)
        for p in self.children.values():
            core.kill_group(p.pid, signal.SIGKILL)
        end = time.monotonic() + 5.0
        while self.children and time.monotonic() < end:
            self._reap_quietly()
            if self.children:
                time.sleep(0.02)
        try:
            os.unlink(os.path.join(self.dir, core.READY_NAME))
        except OSError:
            pass
        self.log("stopped")

    def _reap_quietly(self):
        for rid, p in list(self.children.items()):
            try:
                pid, _, _ = os.wait4(p.pid, os.WNOHANG)
            except ChildProcessError:
                pid = p.pid
            if pid:
                p.returncode = 0
                core.kill_group(p.pid, signal.SIGKILL)
                del self.children[rid]

    # ------------------------------------------------------------ recovery

    def recover(self):
        """Jobs a previous server left running are lost with their node."""
        now = time.time()
        with self.store.write() as cur:
            rows = cur.execute("SELECT * FROM jobs WHERE phase IN ('running', 'exiting')").fetchall()
            for row in rows:
                job = core.decode(row)
                if job["phase"] == "exiting":
                    self.store.update_job(cur, job["rid"], phase="done", history_time=now, mtime=now)
                    continue
                core.kill_group(job["pgid"], signal.SIGKILL)
                self.log("job %s lost by a previous server: node failure" % self.policy.display_id(job))
                job["kill_reason"] = "nodefail"
                self._apply_exit(cur, job, None, None, now)

    # ------------------------------------------------------------ one tick

    def tick(self):
        now = time.time()
        for rid, p in list(self.children.items()):
            try:
                pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            except ChildProcessError:
                pid, status, usage = p.pid, None, None
            if pid:
                p.returncode = 0    # reaped here; keeps subprocess from waiting on it
                del self.children[rid]
                self.pending[rid] = (status, usage)
        for p in list(self.orphans):
            try:
                done = os.wait4(p.pid, os.WNOHANG)[0]
            except ChildProcessError:
                done = True
            if done:
                p.returncode = 0
                self.orphans.remove(p)
        self.spawned = []
        try:
            with self.store.write() as cur:
                for rid, (status, usage) in self.pending.items():
                    self._finish_run(cur, rid, status, usage, now)
                self._control_running(cur, now)
                self._advance(cur, now)
                self._resolve_deps(cur, now)
                self._update_arrays(cur, now)
                self._start_jobs(cur, now)
                self._update_arrays(cur, now)
                self._purge(cur, now)
        except BaseException:
            # Rolled back: the database never heard of the shells started in this tick.
            for rid in self.spawned:
                p = self.children.pop(rid, None)
                if p is not None:
                    core.kill_group(p.pid, signal.SIGKILL)
                    self.orphans.append(p)
            raise
        self.pending.clear()

    def _finish_run(self, cur, rid, status, usage, now):
        row = cur.execute("SELECT * FROM jobs WHERE rid=?", (rid,)).fetchone()
        if row is None:
            return
        job = core.decode(row)
        core.kill_group(job["pgid"], signal.SIGKILL)     # what the shell left behind
        if status is None:
            raw = None
        else:
            code = os.waitstatus_to_exitcode(status)
            raw = code if code >= 0 else 256 - code      # 256 + signal number
        self._apply_exit(cur, job, raw, usage, now)

    def _apply_exit(self, cur, job, raw, usage, now):
        self.policy.cleanup_run(job)
        used = None
        if job.get("start_time"):
            wall = max(0.0, now - job["start_time"])
            cput = (usage.ru_utime + usage.ru_stime) if usage else 0.0
            used = {"walltime": wall, "cput": cput,
                    "mem_kb": int(usage.ru_maxrss) if usage else 0, "ncpus": job["ncpus"],
                    "session": job.get("pgid")}
        phase, how, exit_status = self.policy.outcome(job, raw)
        common = dict(pgid=None, request=None, kill_reason=None, kill_sent=None, killed_hard=0,
                      mtime=now)
        if phase == "queued":          # requeued: runs again later
            fields = dict(common, phase="queued", how=None, exit_status=exit_status,
                          start_time=None, exec_host=None, usage=None,
                          not_before=now + float(self.cfg.get("requeue_delay", 0.0)))
            fields.update(self.policy.requeue_fields(job, now))
            self.store.update_job(cur, job["rid"], **fields)
            self.log("job %s requeued (%s)" % (self.policy.display_id(job), job.get("kill_reason")))
            return
        delay = float(self.cfg.get("exiting_delay", 0.0))
        phase = "exiting" if delay > 0 else "done"
        fields = dict(common, phase=phase, how=how, exit_status=exit_status, end_time=now,
                      usage=used, history_time=now if phase == "done" else None)
        fields.update(self.policy.end_fields(job, how, exit_status, now))
        self.store.update_job(cur, job["rid"], **fields)
        self.log("job %s ended: %s, exit status %s" % (self.policy.display_id(job), how, exit_status))

    def _control_running(self, cur, now):
        grace = float(self.cfg.get("kill_grace", 2.0))
        rows = cur.execute("SELECT rid, seq, idx, kind, pgid, start_time, walltime, request, "
                           "kill_reason, kill_sent, killed_hard, attrs FROM jobs "
                           "WHERE phase='running'").fetchall()
        for r in rows:
            if r["rid"] not in self.children:
                continue
            pgid = r["pgid"]
            fields = {}
            if r["request"] in ("delete", "preempt") and not r["kill_reason"]:
                core.kill_group(pgid, signal.SIGTERM)
                fields.update(kill_reason=r["request"], kill_sent=now)
            elif r["request"] == "nodefail" and r["kill_reason"] != "nodefail":
                core.kill_group(pgid, signal.SIGKILL)
                fields.update(kill_reason="nodefail", kill_sent=now, killed_hard=1)
            elif (r["walltime"] is not None and not r["kill_reason"] and r["start_time"]
                  and now - r["start_time"] > r["walltime"]):
                self.policy.walltime_notice(core.decode(r), now - r["start_time"])
                core.kill_group(pgid, signal.SIGTERM)
                fields.update(kill_reason="walltime", kill_sent=now)
            sent = fields.get("kill_sent", r["kill_sent"])
            hard = fields.get("killed_hard", r["killed_hard"])
            if sent and not hard and now - sent >= grace:
                core.kill_group(pgid, signal.SIGKILL)
                fields.update(killed_hard=1)
            if fields:
                self.store.update_job(cur, r["rid"], **fields)

    def _advance(self, cur, now):
        delay = float(self.cfg.get("exiting_delay", 0.0))
        for r in cur.execute("SELECT rid, end_time FROM jobs WHERE phase='exiting'").fetchall():
            if (r["end_time"] or 0) + delay <= now:
                self.store.update_job(cur, r["rid"], phase="done", history_time=now, mtime=now)
        for r in cur.execute("SELECT rid FROM jobs WHERE phase='waiting' AND user_hold=0 "
                             "AND dep_hold=0 AND (not_before IS NULL OR not_before<=?)",
                             (now,)).fetchall():
            self.store.update_job(cur, r["rid"], phase="queued", eligible_time=now, mtime=now)

    # ------------------------------------------------------------ dependencies

    def _target(self, cur, dep):
        return cur.execute("SELECT rid, seq, idx, kind, phase, how, exit_status, start_time, "
                           "run_count FROM jobs WHERE seq=? AND kind=? AND ifnull(idx, -1)=?",
                           (dep["seq"], dep["kind"], -1 if dep.get("idx") is None else dep["idx"])
                           ).fetchone()

    @staticmethod
    def _verdict(dep_type, t):
        """'ok', 'wait' or 'never' for one dependency on target row t (None: forgotten)."""
        if t is None:
            return "ok"
        ran = bool(t["start_time"]) or t["run_count"] > 0
        done = t["phase"] == "done"
        killed = t["how"] in ("terminated", "deleted", "depdeleted")
        if dep_type == "after":
            return "ok" if ran else ("never" if done else "wait")
        if not done:
            return "wait"
        if dep_type == "afterany":
            return "ok"
        good = ran and not killed and t["exit_status"] == 0
        if dep_type == "afterok":
            return "ok" if good else "never"
        if dep_type == "afternotok":
            return "never" if good else "ok"
        return "wait"

    def _resolve_deps(self, cur, now):
        for _ in range(20):             # cascades: a deleted dependent deletes its own
            changed = False
            rows = cur.execute("SELECT * FROM jobs WHERE dep_hold=1 AND phase='held'").fetchall()
            for row in rows:
                job = core.decode(row)
                verdicts = []
                for dep in job["deps"] or []:
                    t = self._target(cur, dep)
                    verdicts.append((self._verdict(dep["type"], t), dep))
                never = [d for v, d in verdicts if v == "never"]
                if never:
                    self._delete_for_dependency(cur, job, never[0], now)
                    changed = True
                elif all(v == "ok" for v, _ in verdicts):
                    if job["user_hold"]:
                        phase = "held"
                    elif job["not_before"] and job["not_before"] > now:
                        phase = "waiting"
                    else:
                        phase = "queued"
                    self.store.update_job(cur, job["rid"], dep_hold=0, phase=phase,
                                          eligible_time=now, mtime=now)
                    self.log("job %s released (dependencies met)" % self.policy.display_id(job))
                    changed = True
            if not changed:
                return

    def _delete_for_dependency(self, cur, job, dep, now):
        cause = dep.get("id") or str(dep["seq"])
        fields = dict(phase="done", how="depdeleted", dep_hold=0, end_time=now, history_time=now,
                      mtime=now, dep_cause=cause)
        fields.update(self.policy.dependency_delete_fields(job, cause, now))
        self.store.update_job(cur, job["rid"], **fields)
        if job["kind"] == "array":
            cur.execute("UPDATE jobs SET phase='done', how='deleted', end_time=?, history_time=?, "
                        "mtime=? WHERE parent=? AND phase!='done'", (now, now, now, job["rid"]))
        self.log("job %s deleted: dependency on %s can never be met"
                 % (self.policy.display_id(job), cause))

    # ------------------------------------------------------------ arrays

    def _update_arrays(self, cur, now):
        parents = cur.execute("SELECT * FROM jobs WHERE kind='array' AND phase IN "
                              "('queued', 'running')").fetchall()
        for prow in parents:
            parent = core.decode(prow)
            subs = cur.execute("SELECT idx, phase, how, exit_status, start_time, end_time "
                               "FROM jobs WHERE parent=? ORDER BY idx", (parent["rid"],)).fetchall()
            begun = any(s["phase"] in ("running", "exiting") or s["start_time"] for s in subs)
            if parent["phase"] == "queued" and begun:
                fields = dict(phase="running", start_time=now, mtime=now)
                fields.update(self.policy.array_begin_fields(parent, now))
                self.store.update_job(cur, parent["rid"], **fields)
                parent.update(fields)
            if subs and all(s["phase"] == "done" for s in subs):
                how, exit_status = self.policy.array_outcome(subs)
                fields = dict(phase="done", how=how, exit_status=exit_status, end_time=now,
                              history_time=now, mtime=now)
                fields.update(self.policy.array_end_fields(parent, how, now))
                self.store.update_job(cur, parent["rid"], **fields)
                self.log("array %s finished: %s" % (self.policy.display_id(parent), how))

    # ------------------------------------------------------------ starting jobs

    def _start_jobs(self, cur, now):
        slots = int(self.cfg.get("slots", 4))
        gpus = int(self.cfg.get("gpus", 0))
        used = cur.execute("SELECT ifnull(sum(ncpus), 0), ifnull(sum(ngpus), 0) FROM jobs "
                           "WHERE phase='running'").fetchone()
        free_cpus, free_gpus = slots - used[0], gpus - used[1]
        candidates = cur.execute(
            "SELECT rid, seq, idx, kind, parent, ncpus, ngpus, comment FROM jobs "
            "WHERE phase='queued' AND kind!='array' AND (not_before IS NULL OR not_before<=?) "
            "ORDER BY seq, ifnull(idx, -1)", (now,)).fetchall()
        parents = {}
        for c in candidates:
            if c["kind"] == "sub":
                p = parents.get(c["parent"])
                if p is None:
                    prow = cur.execute("SELECT phase, max_running FROM jobs WHERE rid=?",
                                       (c["parent"],)).fetchone()
                    running = cur.execute("SELECT count(*) FROM jobs WHERE parent=? AND phase "
                                          "IN ('running', 'exiting')", (c["parent"],)).fetchone()[0]
                    p = parents[c["parent"]] = {"phase": prow["phase"] if prow else "done",
                                                "max": prow["max_running"] if prow else None,
                                                "running": running}
                if p["phase"] not in ("queued", "running"):
                    continue
                if p["max"] and p["running"] >= p["max"]:
                    continue
            if c["ncpus"] <= free_cpus and c["ngpus"] <= free_gpus:
                if self._spawn(cur, c["rid"], now):
                    free_cpus -= c["ncpus"]
                    free_gpus -= c["ngpus"]
                    if c["kind"] == "sub":
                        parents[c["parent"]]["running"] += 1
            else:
                comment = self.policy.not_run_comment(c["ncpus"], c["ngpus"], free_cpus,
                                                      free_gpus, slots, gpus)
                if comment != c["comment"]:
                    self.store.update_job(cur, c["rid"], comment=comment)

    def _spawn(self, cur, rid, now):
        job = core.decode(cur.execute("SELECT * FROM jobs WHERE rid=?", (rid,)).fetchone())
        parent = None
        if job["parent"]:
            parent = core.decode(cur.execute("SELECT * FROM jobs WHERE rid=?",
                                             (job["parent"],)).fetchone())
        job["run_count"] += 1
        try:
            spec = self.policy.launch(job, parent, now)
            kwargs = {}
            if os.geteuid() == 0 and spec["uid"] != 0:
                kwargs = dict(user=spec["uid"], group=spec["gid"], extra_groups=spec["groups"])
            p = subprocess.Popen(spec["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 cwd=spec["cwd"], env=spec["env"], start_new_session=True,
                                 close_fds=True, **kwargs)
        except (OSError, subprocess.SubprocessError, KeyError, ValueError) as e:
            self.log("job %s could not start: %s" % (self.policy.display_id(job), e))
            self.policy.cleanup_run(job)
            fields = dict(phase="done", how="failed", exit_status=self.policy.START_FAILED_EXIT,
                          start_time=now, end_time=now, history_time=now, mtime=now,
                          run_count=job["run_count"])
            fields.update(self.policy.start_fields(job, parent, now))
            job["comment"] = fields.get("comment")
            fields.update(self.policy.end_fields(job, "failed", fields["exit_status"], now))
            self.store.update_job(cur, rid, **fields)
            return False
        self.children[rid] = p
        self.spawned.append(rid)
        fields = dict(phase="running", pgid=p.pid, start_time=now, end_time=None,
                      run_count=job["run_count"], how=None, request=None, kill_reason=None,
                      kill_sent=None, killed_hard=0, usage=None, mtime=now)
        if not job.get("eligible_time"):
            fields["eligible_time"] = now
        fields.update(self.policy.start_fields(job, parent, now))
        self.store.update_job(cur, rid, **fields)
        self.log("job %s started: pid %d" % (self.policy.display_id(job), p.pid))
        return True

    # ------------------------------------------------------------ history

    def _purge(self, cur, now):
        keep = float(self.cfg.get("job_history_duration", 3600))
        rows = cur.execute("SELECT rid FROM jobs WHERE phase='done' AND kind IN ('job', 'array') "
                           "AND history_time IS NOT NULL AND history_time<=?",
                           (now - keep,)).fetchall()
        if rows:
            purge_jobs(cur, [r["rid"] for r in rows])


def purge_jobs(cur, rids):
    """Forget finished top-level jobs (and their subjobs); remove their spool copies."""
    scripts = set()
    for rid in rids:
        for r in cur.execute("SELECT script FROM jobs WHERE rid=? OR parent=?", (rid, rid)):
            if r["script"]:
                scripts.add(r["script"])
        cur.execute("DELETE FROM jobs WHERE rid=? OR parent=?", (rid, rid))
    for script in scripts:
        if cur.execute("SELECT 1 FROM jobs WHERE script=? LIMIT 1", (script,)).fetchone() is None:
            try:
                os.unlink(script)
            except OSError:
                pass


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m standin.server")
    parser.add_argument("--dir", required=True, help="the instance's state directory")
    args = parser.parse_args(argv)
    state_dir = os.path.abspath(args.dir)
    # One server per state dir.
    lock = open(os.path.join(state_dir, "server.lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sys.stderr.write("standin: another server runs on %s\n" % state_dir)
        return 1
    Engine(state_dir).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
