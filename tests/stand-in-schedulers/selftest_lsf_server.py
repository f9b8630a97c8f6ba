#!/usr/bin/env python3
"""LSF stand-in self-test: the server side (outage and recovery, CLEAN_PERIOD,
preemption and node failure with UNKWN, 1000 jobs, concurrent clients) and stop.sh."""

import os
import shutil
import subprocess
import sys
import threading
import time
import unittest

from selftest_helpers import CTL, HERE, LsfInstance, core, read_file, wait_for
from standin import lsf_synth

TRYING = "batch system daemon not responding ... still trying\n" * 2


class ServerTest(unittest.TestCase):
    """One instance (4 slots, kill grace 1 s, CLEAN_PERIOD 20 s, UNKWN for 8 s: long
    enough to be seen on a loaded machine)."""

    @classmethod
    def setUpClass(cls):
        cls.si = LsfInstance("kill_grace=1", "clean_period=20", "hung_time=8")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_outage_then_recovery(self):
        si = self.si
        # Running until the test lets it end (a gate file): a loaded machine cannot see it
        # end, and be forgotten, before seeing it run.
        gate = os.path.join(si.work, "slow.go")
        jid = si.bsub("while [ ! -e %s ]; do sleep 0.1; done\necho survived\n" % gate, "-o", "slow.out")
        si.wait_state(jid, ("RUN",))
        self.assertEqual(si.run(CTL, "outage", "on").returncode, 0)
        for cmd, last in ((["bjobs", "-a", "-json", "-o", si.FIELDS, jid],
                           "Connection refused by server\n"),
                          (["bsub", "true"], "Connection refused by server. Job not submitted.\n"),
                          (["bkill", jid], "Connection refused by server\n")):
            r = si.run(*cmd)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (255, "", TRYING + last), cmd)
        # The server goes on running its jobs meanwhile.
        open(gate, "w").close()
        wait_for(lambda: read_file(os.path.join(si.work, "slow.out")) == "survived\n",
                 what="the job to finish during the outage")
        self.assertEqual(si.run(CTL, "outage", "off").returncode, 0)
        self.assertEqual(si.wait_state(jid, ("DONE",))["STAT"], "DONE")
        # --hang: commands block until the outage ends (asked of a job still running, which
        # no CLEAN_PERIOD can have forgotten however long a loaded machine takes).
        jid = si.bsub("sleep 120\n")
        si.wait_state(jid, ("RUN",))
        self.assertEqual(si.run(CTL, "outage", "on", "--hang").returncode, 0)
        p = subprocess.Popen(["bjobs", "-a", "-json", "-o", "jobid stat", jid], env=si.env,
                             cwd=si.work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        try:
            with self.assertRaises(subprocess.TimeoutExpired):
                p.wait(timeout=0.5)     # a negative check: it must still be waiting
        finally:
            si.run(CTL, "outage", "off")
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err)
        self.assertIn('"STAT":"RUN"', out)
        self.assertEqual(si.run("bkill", jid).returncode, 0)

    def test_02_clean_period(self):
        si = self.si
        a = si.bsub("true\n")
        si.wait_state(a, ("DONE",))
        after = si.bsub("true\n", "-w", "done(%s)" % a)
        si.wait_state(after, ("DONE",))
        wait_for(lambda: "ERROR" in si.records(a)[1][0], timeout=60,
                 what="the job to be forgotten after CLEAN_PERIOD")
        r, recs = si.records(a)
        self.assertEqual((r.returncode, recs), (0, [{"JOBID": a,
                                                    "ERROR": "Job <%s> is not found" % a}]))
        r = si.run("bsub", "-w", "done(%s)" % a, stdin="true\n")
        self.assertEqual((r.returncode, r.stderr),
                         (255, "%s: No matching job found. Job not submitted.\n" % a))
        b = si.bsub("true\n")
        si.wait_state(b, ("DONE",))
        self.assertEqual(si.run(CTL, "purge").returncode, 0)
        self.assertIn("ERROR", si.records(b)[1][0])

    def test_03_preempt_and_node_failure(self):
        si = self.si
        a, b = si.bsub("sleep 60\n", "-r"), si.bsub("sleep 60\n")
        si.wait_state(a, ("RUN",))
        si.wait_state(b, ("RUN",))
        self.assertEqual(si.run(CTL, "preempt", a).returncode, 0)
        wait_for(lambda: si.job(a)["STAT"] == "RUN", what="the preempted job to run again")
        self.assertEqual(si.run(CTL, "node-fail", a).returncode, 0)   # -r: rerun
        wait_for(lambda: si.job(a)["STAT"] == "RUN", what="the rerunnable job to run again")
        self.assertEqual(si.run(CTL, "node-fail", b).returncode, 0)
        self.assertEqual(si.job(b)["STAT"], "UNKWN")
        job = si.wait_state(b, ("EXIT",))
        self.assertEqual((job["EXIT_CODE"], job["EXIT_REASON"]),
                         ("", "TERM_REMOVE_HUNG_JOB: job removed from the LSF system"))
        self.assertEqual(si.run("bkill", a).returncode, 0)
        si.wait_state(a, ("EXIT",))

    def test_04_bjobs_of_1000_jobs(self):
        si = self.si
        store = core.Store(si.state)
        with store.write() as cur:
            first = core.Store.alloc_seq(cur)
            for _ in range(999):
                core.Store.alloc_seq(cur)
            for row in lsf_synth.synthetic_rows(1000, store.cfg, start_seq=first):
                row = dict(row)
                del row["rid"]
                if row["phase"] == "running":
                    row.update(phase="done", how="ok", exit_status=0, end_time=time.time(),
                               pgid=None)
                if row["phase"] == "done":
                    row["history_time"] = time.time() + 3600
                else:
                    row.update(user_hold=1, phase="held")
                core.Store.insert_job(cur, **row)
        store.close()
        t0 = time.monotonic()
        r, recs = si.records("-u", "all")
        elapsed = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreaterEqual(len(recs), 1000)
        sys.stderr.write("[lsf bjobs -a -json of %d jobs: %.2f s] " % (len(recs), elapsed))
        self.assertLess(elapsed, 3.0)
        with core.Store(si.state).write() as cur:
            cur.execute("DELETE FROM jobs WHERE seq>=?", (first,))

    def test_05_concurrent_clients(self):
        si = self.si
        ids, errors = [], []
        lock = threading.Lock()

        def submitter():
            for _ in range(4):
                r = si.run("bsub", "-H", "true")
                with lock:
                    (ids if r.returncode == 0 else errors).append(r.stdout.split()[1][1:-1]
                                                                 if r.returncode == 0
                                                                 else r.stderr)

        def watcher():
            for _ in range(4):
                r = si.run("bjobs", "-a", "-json", "-o", si.FIELDS, "-u", "all")
                if r.returncode != 0 or not r.stdout.endswith("}\n"):
                    with lock:
                        errors.append(r.stderr)

        threads = [threading.Thread(target=f) for f in [submitter] * 4 + [watcher] * 2]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual((errors, len(set(ids))), ([], 16))
        self.assertEqual(si.run("bkill", *ids).returncode, 0)


class StopTest(unittest.TestCase):
    """stop.sh leaves nothing behind; the commands without an instance."""

    def test_stop_leaves_no_process(self):
        si = LsfInstance("kill_grace=1")
        self.addCleanup(shutil.rmtree, si.root, True)
        try:
            a = si.bsub("sleep 300 &\necho $! > child.pid\nwait\n")
            b = si.bsub("sleep 300\n")
            si.wait_state(a, ("RUN",))
            si.wait_state(b, ("RUN",))
            child = wait_for(lambda: (lambda t: int(t) if t and t.strip() else None)(
                read_file(os.path.join(si.work, "child.pid"))), what="the child pid")
            store = core.Store(si.state)
            groups = [r[0] for r in store.db.execute(
                "SELECT pgid FROM jobs WHERE pgid IS NOT NULL")]
            store.close()
            self.assertEqual(len(groups), 2)
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
        r = si.run("bjobs", "-a")
        self.assertEqual((r.returncode, r.stderr), (255, TRYING + "Connection refused by server\n"))

    def test_no_instance(self):
        env = dict(os.environ)
        env.pop("YARD_STANDIN_DIR", None)
        for cmd in ("bsub", "bjobs", "bkill"):
            r = subprocess.run([os.path.join(HERE, "bin", "lsf", cmd)], env=env,
                               capture_output=True, text=True, timeout=30, input="")
            self.assertEqual((r.returncode, r.stderr),
                             (1, "%s: YARD_STANDIN_DIR is not set (no stand-in scheduler)\n" % cmd))


if __name__ == "__main__":
    unittest.main(verbosity=2)
