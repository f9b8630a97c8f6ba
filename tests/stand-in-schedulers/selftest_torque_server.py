#!/usr/bin/env python3
"""Torque stand-in self-test: the server side (outage and recovery, keep_completed,
preemption and node failure, 1000 jobs, concurrent clients) and stop.sh."""

import os
import shutil
import subprocess
import sys
import threading
import time
import unittest

from selftest_helpers import CTL, HERE, TorqueInstance, core, read_file, wait_for
from standin import torque_synth


class ServerTest(unittest.TestCase):
    """One instance (4 slots, kill grace 1 s, completed jobs kept 10 s: long enough for a
    loaded machine to read a job that just ended, short enough to see one forgotten)."""

    @classmethod
    def setUpClass(cls):
        cls.si = TorqueInstance("kill_grace=1", "keep_completed=10")
        cls.si.script("never.sh", "true\n")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_outage_then_recovery(self):
        si = self.si
        # Running until the test lets it end (a gate file): a loaded machine cannot see it
        # end, and be forgotten, before seeing it run.
        gate = os.path.join(si.work, "slow.go")
        si.script("slow.sh", "while [ ! -e %s ]; do sleep 0.1; done\necho survived\n" % gate)
        jid = si.qsub("slow.sh")
        si.wait_state(jid, "R")
        self.assertEqual(si.run(CTL, "outage", "on").returncode, 0)
        for cmd in (["qstat", "-x", "-t"], ["qsub", "never.sh"], ["qdel", jid], ["qstat", jid]):
            r = si.run(*cmd)
            self.assertEqual((r.returncode, r.stdout), (111, ""), cmd)
            lines = r.stderr.split("\n")
            self.assertTrue(lines[0].startswith("Unable to communicate with %s(" % si.server), cmd)
            self.assertEqual(lines[1:], [
                "Cannot connect to specified server host '%s'." % si.server,
                "%s: cannot connect to server %s (errno=111) Connection refused"
                % (cmd[0], si.server), ""], cmd)
        # The server goes on running its jobs meanwhile.
        open(gate, "w").close()
        out = os.path.join(si.work, "slow.sh.o" + jid.split(".")[0])
        wait_for(lambda: read_file(out) == "survived\n", what="the job to finish during the outage")
        self.assertEqual(si.run(CTL, "outage", "off").returncode, 0)
        # Its output is written before the server has seen it end: wait for the end.
        self.assertEqual(si.wait_state(jid, "C")["exit_status"], "0")
        # --hang: commands block until the outage ends (asked of a job still running, which
        # no keep_completed can have forgotten however long a loaded machine takes).
        si.script("long.sh", "sleep 120\n")
        jid = si.qsub("long.sh")
        si.wait_state(jid, "R")
        self.assertEqual(si.run(CTL, "outage", "on", "--hang").returncode, 0)
        p = subprocess.Popen(["qstat", "-x", jid], env=si.env, cwd=si.work,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            with self.assertRaises(subprocess.TimeoutExpired):
                p.wait(timeout=0.5)     # a negative check: it must still be waiting
        finally:
            si.run(CTL, "outage", "off")
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err)
        self.assertIn("<Job_Id>%s</Job_Id>" % jid, out)
        self.assertEqual(si.run("qdel", jid).returncode, 0)

    def test_02_keep_completed(self):
        si = self.si
        a = si.qsub("never.sh")
        si.wait_state(a, "C")
        wait_for(lambda: si.run("qstat", "-x", a).returncode == 153, timeout=60,
                 what="the job to be forgotten after keep_completed")
        r = si.run("qstat", "-x", a)
        self.assertEqual((r.stdout, r.stderr), ("", "qstat: Unknown Job Id Error %s\n" % a))
        b = si.qsub("never.sh")
        si.wait_state(b, "C")
        self.assertEqual(si.run(CTL, "purge").returncode, 0)
        self.assertEqual(si.run("qstat", "-x", b).returncode, 153)

    def test_03_preempt_and_node_failure(self):
        si = self.si
        si.script("sleep.sh", "sleep 60\n")
        a, b = si.qsub("sleep.sh"), si.qsub("-r", "n", "sleep.sh")
        si.wait_state(a, "R")
        si.wait_state(b, "R")
        self.assertEqual(si.run(CTL, "preempt", a).returncode, 0)
        wait_for(lambda: (lambda j: j["job_state"] == "R" and j["start_count"] == "2")(si.job(a)),
                 what="the preempted job to run again")
        self.assertEqual(si.run(CTL, "node-fail", a).returncode, 0)
        job = si.job(a)
        self.assertEqual(job["exit_status"], "-3")          # JOB_EXEC_RETRY, kept while it reruns
        self.assertEqual(si.run(CTL, "node-fail", b).returncode, 0)
        self.assertEqual(si.wait_state(b, "C")["exit_status"], "-3")
        self.assertEqual(si.run("qdel", a).returncode, 0)
        si.wait_state(a, "C")

    def test_04_qstat_of_1000_jobs(self):
        si = self.si
        store = core.Store(si.state)
        with store.write() as cur:
            first = core.Store.alloc_seq(cur)
            for _ in range(999):
                core.Store.alloc_seq(cur)
            for row in torque_synth.synthetic_rows(1000, store.cfg, start_seq=first):
                row = dict(row)
                del row["rid"]
                if row["phase"] != "queued":
                    row.update(phase="done", how="ok", exit_status=0, end_time=time.time(),
                               start_time=time.time() - 1, history_time=time.time() + 3600,
                               pgid=None)
                else:
                    row.update(user_hold=1, phase="held")
                core.Store.insert_job(cur, **row)
        store.close()
        t0 = time.monotonic()
        r, jobs = si.jobs(flags=("-x", "-t"))
        elapsed = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreaterEqual(len(jobs), 1000)
        sys.stderr.write("[torque qstat -x -t of %d jobs: %.2f s] " % (len(jobs), elapsed))
        self.assertLess(elapsed, 3.0)
        with core.Store(si.state).write() as cur:
            cur.execute("DELETE FROM jobs WHERE seq>=?", (first,))

    def test_05_concurrent_clients(self):
        si = self.si
        ids, errors = [], []
        lock = threading.Lock()

        def submitter():
            for _ in range(4):
                r = si.run("qsub", "-h", "never.sh")
                with lock:
                    (ids if r.returncode == 0 else errors).append(r.stdout.strip() or r.stderr)

        def watcher():
            for _ in range(4):
                r = si.run("qstat", "-x", "-t")
                if r.returncode != 0 or not r.stdout.endswith("</Data>\n"):
                    with lock:
                        errors.append(r.stderr)

        threads = [threading.Thread(target=f) for f in [submitter] * 4 + [watcher] * 2]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual((errors, len(set(ids))), ([], 16))
        self.assertEqual(si.run("qdel", *ids).returncode, 0)


class StopTest(unittest.TestCase):
    """stop.sh leaves nothing behind; the commands without an instance."""

    def test_stop_leaves_no_process(self):
        si = TorqueInstance("kill_grace=1")
        self.addCleanup(shutil.rmtree, si.root, True)
        try:
            si.script("forever.sh",
                      "cd \"$PBS_O_WORKDIR\"\nsleep 300 &\necho $! > child.pid\nwait\n")
            si.script("long.sh", "sleep 300\n")
            a, b = si.qsub("forever.sh"), si.qsub("long.sh")
            ja, jb = si.wait_state(a, "R"), si.wait_state(b, "R")
            child = wait_for(lambda: (lambda t: int(t) if t and t.strip() else None)(
                read_file(os.path.join(si.work, "child.pid"))), what="the child pid")
            groups = [int(ja["session_id"]), int(jb["session_id"])]
            for g in groups:
                self.assertTrue(core.group_members(g))
        finally:
            si.stop()
        self.assertFalse(core.pid_alive(si.pid), "the server is still alive")
        for g in groups:
            self.assertEqual(core.group_members(g), [], "job group %d left behind" % g)
        self.assertFalse(core.pid_alive(child), "the job's child %d left behind" % child)
        r = subprocess.run(["bash", os.path.join(HERE, "stop.sh"), si.state], timeout=60)
        self.assertEqual(r.returncode, 0)
        r = si.run("qstat", "-x")
        self.assertEqual(r.returncode, 111)
        self.assertIn("cannot connect to server", r.stderr)

    def test_no_instance(self):
        env = dict(os.environ)
        env.pop("YARD_STANDIN_DIR", None)
        for cmd in ("qsub", "qstat", "qdel"):
            r = subprocess.run([os.path.join(HERE, "bin", "torque", cmd)], env=env,
                               capture_output=True, text=True, timeout=30)
            self.assertEqual((r.returncode, r.stderr),
                             (1, "%s: YARD_STANDIN_DIR is not set (no stand-in scheduler)\n" % cmd))


if __name__ == "__main__":
    unittest.main(verbosity=2)
