#!/usr/bin/env python3
"""PBS stand-in self-test: the server side (outage, preemption, node failure,
concurrent clients, history purge, other settings) and stop.sh."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import unittest

from selftest_helpers import CTL, HERE, PbsInstance, core, read_file, wait_for
from standin import pbs_synth


class ServerTest(unittest.TestCase):
    """One instance (4 slots, kill grace 1 s): the server under stress."""

    @classmethod
    def setUpClass(cls):
        cls.si = PbsInstance("kill_grace=1")
        cls.si.script("never.sh", "true\n")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_15_outage(self):
        si = self.si
        # Running until the test lets it end (a gate file): a loaded machine cannot see it
        # end, and be forgotten, before seeing it run.
        gate = os.path.join(si.work, "slow.go")
        si.script("slow.sh", "while [ ! -e %s ]; do sleep 0.1; done\necho survived\n" % gate)
        jid = si.qsub("slow.sh")
        si.wait_state(jid, "R")
        self.assertEqual(si.run(CTL, "outage", "on").returncode, 0)
        for cmd in (["qstat"], ["qsub", "never.sh"], ["qdel", jid], ["qstat", "-x", "-f", jid]):
            r = si.run(*cmd)
            self.assertEqual(r.returncode, 162, cmd)
            self.assertEqual(r.stderr, "Connection refused\n%s: cannot connect to server %s "
                                       "(errno=15010)\n" % (cmd[0], si.server), cmd)
        # The server goes on running its jobs meanwhile.
        open(gate, "w").close()
        out = os.path.join(si.work, "slow.sh.o" + jid.split(".")[0])
        wait_for(lambda: read_file(out) == "survived\n", what="the job to finish during the outage")
        self.assertEqual(si.run(CTL, "outage", "off").returncode, 0)
        # Its output is written before the server has seen it end: wait for the end.
        self.assertEqual(si.wait_state(jid, "F")["Exit_status"], 0)
        # --hang: commands block until the outage ends.
        self.assertEqual(si.run(CTL, "outage", "on", "--hang").returncode, 0)
        p = subprocess.Popen(["qstat", "-x", "-f", "-F", "json", jid], env=si.env, cwd=si.work,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            with self.assertRaises(subprocess.TimeoutExpired):
                p.wait(timeout=0.5)     # a negative check: it must still be waiting
        finally:
            si.run(CTL, "outage", "off")
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err)
        self.assertIn(jid, json.loads(out)["Jobs"])

    def test_16_preempt_and_node_failure(self):
        si = self.si
        si.script("sleep.sh", "sleep 60\n")
        a = si.qsub("sleep.sh")
        b = si.qsub("-r", "n", "sleep.sh")
        c = si.qsub("sleep.sh")
        for j in (a, b, c):
            si.wait_state(j, "R")
        self.assertEqual(si.run(CTL, "preempt", a).returncode, 0)
        job = si.job(a)
        self.assertIn(job["job_state"], "QR")
        wait_for(lambda: (lambda j: j["job_state"] == "R" and j["run_count"] == 2)(si.job(a)),
                 what="the preempted job to run again")
        self.assertEqual(si.run(CTL, "node-fail", b).returncode, 0)
        job = si.wait_state(b, "F")
        self.assertEqual((job["Exit_status"], job["substate"]), (-20, 93))
        self.assertEqual(si.run(CTL, "node-fail", c).returncode, 0)
        job = si.job(c)
        self.assertIn(job["job_state"], "QR")
        self.assertEqual(job["Exit_status"], -20)
        job = si.wait_state(c, "R")
        self.assertEqual(job["run_count"], 2)
        self.assertEqual(si.run("qdel", a, c).returncode, 0)
        si.wait_state(a, "F")
        si.wait_state(c, "F")

    def test_17_concurrent_clients(self):
        si = self.si
        ids, errors = [], []
        lock = threading.Lock()

        def submitter():
            for _ in range(5):
                r = si.run("qsub", "-h", "never.sh")
                with lock:
                    (ids if r.returncode == 0 else errors).append(r.stdout.strip() or r.stderr)

        def watcher():
            for _ in range(5):
                r = si.run("qstat", "-f", "-F", "json")
                if r.returncode != 0:
                    with lock:
                        errors.append(r.stderr)
                else:
                    json.loads(r.stdout)

        threads = [threading.Thread(target=submitter) for _ in range(6)]
        threads += [threading.Thread(target=watcher) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(len(ids), 30)
        self.assertEqual(len(set(ids)), 30)
        r, doc = si.jobs(*ids)
        self.assertEqual(r.returncode, 0)
        self.assertEqual(sorted(doc["Jobs"]), sorted(ids))
        self.assertEqual({j["job_state"] for j in doc["Jobs"].values()}, {"H"})
        r = si.run("qrls", ids[0])
        self.assertEqual(r.returncode, 0)
        si.wait_state(ids[0], "F")
        self.assertEqual(si.run("qdel", *ids[1:]).returncode, 0)

    def test_18_client_dies_mid_transaction(self):
        si = self.si
        code = ("import sqlite3, os, signal\n"
                "db = sqlite3.connect(%r, isolation_level=None)\n"
                "db.execute('BEGIN IMMEDIATE')\n"
                "db.execute(\"UPDATE meta SET value='999' WHERE key='next_seq'\")\n"
                "db.execute(\"INSERT INTO jobs(seq, kind, phase) VALUES(424242, 'job', 'queued')\")\n"
                "os.kill(os.getpid(), signal.SIGKILL)\n" % os.path.join(si.state, "standin.db"))
        r = subprocess.run([sys.executable, "-c", code], timeout=30)
        self.assertEqual(r.returncode, -signal.SIGKILL)
        jid = si.qsub("never.sh")
        self.assertNotEqual(jid.split(".")[0], "999")
        self.assertEqual(si.wait_state(jid, "F")["Exit_status"], 0)
        r = si.run("qstat", "-x", "424242")
        self.assertEqual(r.returncode, 153)

    def test_19_qstat_of_1000_jobs(self):
        si = self.si
        store = core.Store(si.state)
        cfg = store.cfg
        with store.write() as cur:
            first = core.Store.alloc_seq(cur)
            for _ in range(999):
                core.Store.alloc_seq(cur)
            for row in pbs_synth.synthetic_rows(1000, cfg, start_seq=first):
                row = dict(row)
                del row["rid"]
                if row["phase"] == "running":
                    row.update(phase="done", how="ok", exit_status=0, end_time=time.time(),
                               history_time=time.time(), pgid=None)
                core.Store.insert_job(cur, **row)
        store.close()
        t0 = time.monotonic()
        r = si.run("qstat", "-x", "-f", "-F", "json", "-t")
        elapsed = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreaterEqual(len(json.loads(r.stdout)["Jobs"]), 1000)
        sys.stderr.write("[qstat of %d jobs: %.2f s] " % (len(json.loads(r.stdout)["Jobs"]), elapsed))
        self.assertLess(elapsed, 3.0)
        with core.Store(si.state).write() as cur:
            cur.execute("DELETE FROM jobs WHERE seq>=?", (first,))

    def test_20_history_purge(self):
        si = self.si
        a = si.qsub("never.sh")
        si.wait_state(a, "F")
        self.assertEqual(si.run(CTL, "purge").returncode, 0)
        r, doc = si.jobs(a)
        self.assertEqual((r.returncode, r.stderr), (153, "qstat: Unknown Job Id %s\n" % a))
        self.assertNotIn("Jobs", doc)

    def test_21_qhold_and_qrls(self):
        si = self.si
        si.script("gate.sh", "while [ ! -e %s/open ]; do sleep 0.1; done\n" % si.work)
        gate = si.qsub("gate.sh")
        si.wait_state(gate, "R")
        r = si.run("qhold", gate)  # a running job cannot be held
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(r.stderr, "qhold: Request invalid for state of job %s\n" % gate)
        held = si.qsub("-W", "depend=afterany:" + gate, "never.sh")
        self.assertEqual(si.run("qhold", "-h", "o", held).returncode, 2)  # only the user's hold
        self.assertEqual(si.run("qhold", "-h", "u", held).returncode, 0)
        open(os.path.join(si.work, "open"), "w").close()
        si.wait_state(gate, "F")
        twin = si.qsub("-W", "depend=afterany:" + gate, "never.sh")
        si.wait_state(twin, "F")
        self.assertEqual(si.job(held)["job_state"], "H")  # its dependency went; the user's hold stays
        self.assertEqual(si.run("qrls", "-h", "u", held).returncode, 0)
        si.wait_state(held, "F")


# ======================================================================= other settings, stop

class SettingsAndStopTest(unittest.TestCase):
    """cjson printer, old walltime exit, short history; stop.sh leaves nothing behind."""

    def test_settings_and_stop(self):
        si = PbsInstance("printer=cjson", "walltime_exit=old", "job_history_duration=5",
                      "kill_grace=1")
        self.addCleanup(shutil.rmtree, si.root, True)
        try:
            si.script("long.sh", "sleep 60\n")
            jid = si.qsub("-l", "walltime=00:00:01", "long.sh")
            job = si.wait_state(jid, "F", timeout=20)
            self.assertEqual(job["Exit_status"], 271)
            self.assertTrue(job["comment"].endswith(" and failed"), job["comment"])
            r = si.run("qstat", "-x", "-f", "-F", "json", jid)
            self.assertIn('\t"timestamp":\t', r.stdout)
            self.assertIn('\t\t\t"Exit_status":\t271,\n', r.stdout)
            # History is kept job_history_duration seconds (long enough for a loaded
            # machine to see it first), then forgotten.
            wait_for(lambda: si.run("qstat", "-x", jid).returncode == 153, timeout=20,
                     what="the job to leave the history")
            # A running job, and one that left a process of its own behind it.
            si.script("forever.sh", "cd \"$PBS_O_WORKDIR\"\nsleep 300 &\necho $! > child.pid\nwait\n")
            a = si.qsub("forever.sh")
            b = si.qsub("long.sh")
            ja, jb = si.wait_state(a, "R"), si.wait_state(b, "R")
            child = wait_for(lambda: (lambda t: int(t) if t and t.strip() else None)(
                read_file(os.path.join(si.work, "child.pid"))), what="the child pid")
            groups = [ja["session_id"], jb["session_id"]]
            for g in groups:
                self.assertTrue(core.group_members(g))
            self.assertTrue(core.pid_alive(si.pid))
        finally:
            si.stop()
        self.assertFalse(core.pid_alive(si.pid), "the server is still alive")
        for g in groups:
            self.assertEqual(core.group_members(g), [], "job group %d left behind" % g)
        self.assertFalse(core.pid_alive(child), "the job's child %d left behind" % child)
        r = subprocess.run(["bash", os.path.join(HERE, "stop.sh"), si.state], timeout=60)
        self.assertEqual(r.returncode, 0)
        r = si.run("qstat")
        self.assertEqual(r.returncode, 162)

    def test_no_instance(self):
        env = dict(os.environ)
        env.pop("YARD_STANDIN_DIR", None)
        for cmd in ("qsub", "qstat", "qdel"):
            r = subprocess.run([os.path.join(HERE, "bin", "pbs", cmd)], env=env, capture_output=True, text=True,
                               timeout=30)
            self.assertEqual((r.returncode, r.stderr),
                             (1, "%s: YARD_STANDIN_DIR is not set (no stand-in scheduler)\n" % cmd))


if __name__ == "__main__":
    unittest.main(verbosity=2)
