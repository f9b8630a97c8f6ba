"""The stand-in scheduler's daemon: python3 -m standin.server --dir STATE

Every tick (config `tick`, 0.1 s; sooner when a job's shell exits) it, in one write
transaction:
  * records the jobs whose shell exited (reaped with wait4, rusage kept),
  * acts on control requests (qdel of a running job, preempt, node failure) and on
    walltime: SIGTERM to the job's process group, SIGKILL after `kill_grace` (or the
    Policy's `kill_plan`: LSF's SIGINT, SIGTERM, SIGKILL; SIGUSR2 at the run limit),
  * moves exiting jobs to done, waiting jobs (execution time) to queued,
  * resolves dependencies (release, or delete the dependent when the condition can
    never be met; a Policy may judge them itself and keep such a job, as LSF does),
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
(`standin.<scheduler>.Policy`); these files know nothing of PBS, Torque or LSF.

The work is split over three files: this one (the loop, recovery, shutdown),
server_jobs.py (ending, killing and starting jobs) and server_deps.py (dependencies,
job arrays, the history).
"""

import argparse
import fcntl
import importlib
import os
import select
import signal
import sqlite3
import sys
import time
import traceback

from standin import core
from standin.server_deps import DepsMixin, purge_jobs  # noqa: F401  (standin-ctl uses it)
from standin.server_jobs import JobsMixin


class Engine(JobsMixin, DepsMixin):
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
