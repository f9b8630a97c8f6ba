#!/usr/bin/env python3
"""HTCondor stand-in self-test: the server side. The outage (condor_submit, condor_q and
condor_rm fail in their words; condor_history reads on; --hang blocks), node failure and
preemption (evicted: idle again, then running, NumJobStarts counting), purge and
history_duration, stop.sh leaving no process (starter nor job), no instance at all."""

import os
import shutil
import subprocess
import unittest

from selftest_helpers import CTL, HERE, core, read_file, wait_for
from selftest_htcondor_helpers import ATTRS, HtcondorInstance

SLEEP = "executable = /bin/sleep\narguments = %d\nqueue\n"


class ServerTest(unittest.TestCase):
    """One instance (kill grace 1 s; an evicted job waits 10 s before it runs again: long
    enough to be seen idle on a loaded machine)."""

    @classmethod
    def setUpClass(cls):
        cls.si = HtcondorInstance("kill_grace=1", "requeue_delay=10")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_outage_then_recovery(self):
        si = self.si
        done = si.submit("done.sub", "executable = /bin/true\nqueue\n")
        si.wait_gone("%d.0" % done)
        # Running until the test lets it end (a gate file): a loaded machine cannot see it
        # end, and be gone, before seeing it run.
        gate = os.path.join(si.work, "slow.go")
        slow = si.submit("slow.sub", "executable = /bin/sh\narguments = \"-c 'while [ ! -e %s ]; "
                         "do sleep 0.1; done; echo survived'\"\noutput = slow.out\nqueue\n" % gate)
        si.wait_state("%d.0" % slow, (2,))
        self.assertEqual(si.run(CTL, "outage", "on").returncode, 0)
        path = si.write("x.sub", SLEEP % 1)
        r = si.run("condor_submit", "-terse", path)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertRegex(r.stderr, r"^\nERROR: Failed to connect to local queue manager\n"
                         r"CEDAR:6001:Failed to connect to <127\.0\.0\.1:9618\?[^>]*>\n$")
        r = si.run("condor_q", str(slow), "-json", "-attributes", ATTRS)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertRegex(r.stderr, r"^\n-- Failed to fetch ads from: <127\.0\.0\.1:9618\?[^>]*> "
                         r": \S+\nCEDAR:6001:Failed to connect to <[^>]*>\n$")
        r = si.run("condor_rm", "%d.0" % slow, "99")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "DCSchedd::actOnJobs:6001:Failed to connect to schedd\n"
                          "No result found for job %d.0\n"
                          "DCSchedd::actOnJobs:6001:Failed to connect to schedd\n"
                          "Couldn't find/remove all jobs in cluster 99\n" % slow))
        # condor_history reads the history file: it goes on working.
        self.assertEqual([a["ProcId"] for a in si.history(done)], [0])
        # The server goes on running its jobs meanwhile.
        open(gate, "w").close()
        wait_for(lambda: read_file(os.path.join(si.work, "slow.out")) == "survived\n",
                 what="the job to finish during the outage")
        self.assertEqual(si.run(CTL, "outage", "off").returncode, 0)
        self.assertEqual(si.wait_gone("%d.0" % slow)["JobStatus"], 4)
        # --hang: the queue commands block until the outage is off (asked of a running job).
        jid = "%d.0" % si.submit("hang.sub", SLEEP % 120)
        si.wait_state(jid, (2,))
        self.assertEqual(si.run(CTL, "outage", "on", "--hang").returncode, 0)
        p = subprocess.Popen(["condor_q", jid, "-af", "JobStatus"], env=si.env, cwd=si.work,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            with self.assertRaises(subprocess.TimeoutExpired):
                p.wait(timeout=0.5)     # a negative check: it must still be waiting
            self.assertEqual([a["ProcId"] for a in si.history(done)], [0])   # never hangs
        finally:
            si.run(CTL, "outage", "off")
        out, err = p.communicate(timeout=30)
        self.assertEqual((p.returncode, out, err), (0, "2\n", ""))
        self.assertEqual(si.run("condor_rm", jid).returncode, 0)

    def test_02_node_failure_and_preemption(self):
        si = self.si
        jid = "%d.0" % si.submit("evict.sub", SLEEP % 120)
        first = si.wait_state(jid, (2,))
        self.assertEqual(si.run(CTL, "node-fail", jid).returncode, 0)
        ad = si.job(jid)
        self.assertEqual((ad["JobStatus"], ad["NumJobStarts"], "RemoteHost" in ad), (1, 1, False))
        ad = si.wait_state(jid, (2,))
        self.assertEqual((ad["NumJobStarts"], ad["JobStartDate"]), (2, first["JobStartDate"]))
        self.assertEqual(si.run(CTL, "preempt", jid).returncode, 0)
        self.assertEqual(si.job(jid)["JobStatus"], 1)
        wait_for(lambda: si.job(jid)["NumJobStarts"] == 3 and si.job(jid)["JobStatus"] == 2,
                 what="the preempted job to run again")
        r = si.run("condor_rm", jid)
        self.assertEqual((r.returncode, r.stdout), (0, "Job %s marked for removal\n" % jid))
        ad = si.job(jid)
        if ad["JobStatus"] == 2:
            self.fail("a removed running job shows JobStatus 3 until it is gone: %r" % ad)
        self.assertEqual(si.wait_gone(jid)["JobStatus"], 3)

    def test_03_purge(self):
        si = self.si
        cluster = si.submit("purge.sub", "executable = /bin/true\nqueue\n")
        si.wait_gone("%d.0" % cluster)
        wait_for(lambda: si.run("condor_q", "-af", "JobStatus").stdout == "",
                 what="an empty queue")
        self.assertEqual(si.run(CTL, "purge").returncode, 0)
        self.assertEqual(si.history(cluster), [])
        r = si.run("condor_history", "-json")
        self.assertEqual((r.returncode, r.stdout), (0, ""))


class StopTest(unittest.TestCase):
    """history_duration, stop.sh leaving nothing behind; the commands without an instance."""

    def test_history_duration_and_stop(self):
        si = HtcondorInstance("kill_grace=1", "history_duration=1")
        self.addCleanup(shutil.rmtree, si.root, True)
        try:
            done = si.submit("true.sub", "executable = /bin/true\nqueue\n")
            # Not wait_gone: its history record lives one second, which a loaded
            # machine's polling may miss; leaving the queue is what counts here.
            wait_for(lambda: not si.q("%d.0" % done), what="the job to leave the queue")
            wait_for(lambda: not si.history(done), what="the history to forget the job")
            si.write("bg.sh", "#!/bin/sh\nsleep 300 &\necho $! > child.pid\nwait\n")
            os.chmod(os.path.join(si.work, "bg.sh"), 0o755)
            a = si.submit("bg.sub", "executable = bg.sh\nqueue\n")
            b = si.submit("b.sub", SLEEP % 300)
            si.wait_state("%d.0" % a, (2,))
            si.wait_state("%d.0" % b, (2,))
            child = wait_for(lambda: (lambda t: int(t) if t and t.strip() else None)(
                read_file(os.path.join(si.work, "child.pid"))), what="the child pid")
            store = core.Store(si.state)
            groups = [r[0] for r in store.db.execute(
                "SELECT pgid FROM jobs WHERE pgid IS NOT NULL")]
            store.close()
            self.assertEqual(len(groups), 2)
            # The starter reports the job running before it has started the job's
            # process: wait for both to be in the group.
            for g in groups:
                wait_for(lambda: len(core.group_members(g)) >= 2,
                         what="the starter and the job in group %d" % g)
        finally:
            si.stop()
        self.assertFalse(core.pid_alive(si.pid), "the server is still alive")
        for g in groups:
            self.assertEqual(core.group_members(g), [], "job group %d left behind" % g)
        self.assertFalse(core.pid_alive(child), "the job's child %d left behind" % child)
        r = si.run("condor_q", "-json")
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"^\n-- Failed to fetch ads from: ")

    def test_no_instance(self):
        env = dict(os.environ)
        env.pop("YARD_STANDIN_DIR", None)
        for cmd in ("condor_submit", "condor_q", "condor_history", "condor_rm"):
            r = subprocess.run([os.path.join(HERE, "bin", "htcondor", cmd)], env=env,
                               capture_output=True, text=True, timeout=30, input="")
            self.assertEqual((r.returncode, r.stderr),
                             (1, "%s: YARD_STANDIN_DIR is not set (no stand-in scheduler)\n" % cmd))


if __name__ == "__main__":
    unittest.main(verbosity=2)
