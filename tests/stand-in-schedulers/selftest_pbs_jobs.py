#!/usr/bin/env python3
"""PBS stand-in self-test: a job's life (run, exit statuses, signals, walltime, qdel,
arrays) on one instance (4 slots, kill grace 1 s)."""

import os
import re
import unittest

from selftest_helpers import PbsInstance, core, fixture, wait_for


class JobsTest(unittest.TestCase):
    """One instance (4 slots, kill grace 1 s): jobs from submission to the end."""

    @classmethod
    def setUpClass(cls):
        cls.si = PbsInstance("kill_grace=1")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_submit_run_complete(self):
        si = self.si
        si.script("hello.sh", "#!/bin/bash\n#PBS -N hello\n#PBS -l walltime=00:01:00\n"
                  "echo \"hello $FOO from $PBS_JOBID\"\n"
                  "echo \"cwd=$(pwd) workdir=$PBS_O_WORKDIR home=$HOME\"\n"
                  "echo \"env $PBS_ENVIRONMENT $PBS_QUEUE $PBS_JOBNAME $PBS_O_QUEUE\"\n"
                  "cat \"$PBS_NODEFILE\"\n"
                  "echo err >&2\n")
        jid = si.qsub("-v", "FOO=bar", "hello.sh")
        self.assertRegex(jid, r"^\d+\.%s$" % re.escape(si.server))
        job = si.wait_state(jid, "F")
        seq = jid.split(".")[0]
        self.assertEqual(job["Exit_status"], 0)
        self.assertEqual(job["substate"], 92)
        self.assertRegex(job["comment"],
                         r"^Job run at \w{3} \w{3} \d\d at \d\d:\d\d on \(\S+:ncpus=1\) and finished$")
        self.assertEqual(job["Job_Name"], "hello")
        self.assertEqual(job["Resource_List"]["walltime"], "00:01:00")
        self.assertIsInstance(job["history_timestamp"], int)
        for key in ("resources_used", "stime", "obittime", "session_id", "exec_host", "etime"):
            self.assertIn(key, job)
        home = core.user_info(os.getuid())[1]
        with open(os.path.join(si.work, "hello.o" + seq)) as f:
            out = f.read().split("\n")
        self.assertEqual(out[0], "hello bar from %s" % jid)
        self.assertEqual(out[1], "cwd=%s workdir=%s home=%s" % (os.path.realpath(home), si.work,
                                                                 home))
        self.assertEqual(out[2], "env PBS_BATCH workq hello workq")
        self.assertEqual(out[3], core.short_hostname())
        with open(os.path.join(si.work, "hello.e" + seq)) as f:
            self.assertEqual(f.read(), "err\n")
        # The attributes come in the order of the real qstat (the Griffith transcript).
        text = fixture("pbs", "qstat_xf_failed_walltime_pbspro2020_griffith.txt")
        order = []
        for line in text.split("\n"):
            m = re.match(r"^    ([A-Za-z_]+)[ .]", line)
            if m and m.group(1) not in order:
                order.append(m.group(1))
        ours = [k for k in job if k in order]
        self.assertEqual(ours, [k for k in order if k in job])

    def test_02_exit_status(self):
        si = self.si
        si.script("exit3.sh", "exit 3\n")
        jid = si.qsub("exit3.sh")
        job = si.wait_state(jid, "F")
        self.assertEqual(job["Exit_status"], 3)
        self.assertEqual(job["substate"], 93)
        self.assertTrue(job["comment"].endswith(" and failed"))

    def test_03_shell_killed_by_signal(self):
        si = self.si
        si.script("kill9.sh", "kill -9 $$\n")
        job = si.wait_state(si.qsub("kill9.sh"), "F")
        self.assertEqual(job["Exit_status"], 265)

    def test_04_walltime(self):
        si = self.si
        si.script("long.sh", "#PBS -l walltime=1\nsleep 60\n")
        jid = si.qsub("long.sh")
        job = si.wait_state(jid, "F", timeout=20)
        self.assertEqual(job["Exit_status"], -29)
        self.assertEqual(job["substate"], 93)
        self.assertTrue(job["comment"].endswith(" and exceeded resource walltime"), job["comment"])
        with open(os.path.join(si.work, "long.sh.e" + jid.split(".")[0])) as f:
            self.assertRegex(f.read(), r"=>> PBS: job killed: walltime \d+ exceeded limit 1\n")

    def test_05_qdel_running(self):
        si = self.si
        si.script("sleep.sh", "sleep 60\n")
        si.script("stubborn.sh", "trap '' TERM\nsleep 60 & wait; sleep 60\n")
        a, b = si.qsub("sleep.sh"), si.qsub("stubborn.sh")
        si.wait_state(a, "R")
        si.wait_state(b, "R")
        r = si.run("qdel", a, b)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        job = si.wait_state(a, "F")
        self.assertEqual(job["Exit_status"], 271)
        self.assertEqual(job["substate"], 91)
        self.assertTrue(job["comment"].endswith(" and terminated"))
        job = si.wait_state(b, "F", timeout=20)
        self.assertEqual(job["Exit_status"], 265)
        self.assertEqual(job["substate"], 91)

    def test_06_qdel_queued(self):
        si = self.si
        si.script("big.sh", "true\n")
        jid = si.qsub("-l", "select=1:ncpus=8", "big.sh")      # more than the 4 slots
        job = wait_for(lambda: (lambda j: j if "comment" in j else None)(si.job(jid)),
                       what="a Not Running comment")
        self.assertEqual(job["job_state"], "Q")
        self.assertEqual(job["comment"],
                         "Not Running: Insufficient amount of resource: ncpus (R: 8 A: 4 T: 4)")
        self.assertEqual(si.run("qdel", jid).returncode, 0)
        job = si.job(jid)
        self.assertEqual(job["job_state"], "F")
        self.assertEqual(job["substate"], 91)
        self.assertNotIn("Exit_status", job)
        self.assertNotIn("stime", job)
        held = si.qsub("-h", "big.sh")
        self.assertEqual(si.job(held)["job_state"], "H")
        self.assertEqual(si.job(held)["Hold_Types"], "u")
        self.assertEqual(si.run("qdel", held).returncode, 0)
        self.assertEqual(si.job(held)["job_state"], "F")

    def test_07_array_with_throttle(self):
        si = self.si
        log = os.path.join(si.work, "array.log")
        si.script("array.sh", "#PBS -J 1-4%%2\n#PBS -o %s/arr.^array_index^.out\n#PBS -j oe\n"
                  "echo \"start $PBS_ARRAY_INDEX $(date +%%s.%%N)\" >> %s\n"
                  "echo \"index $PBS_ARRAY_INDEX of $PBS_ARRAY_ID\"\n"
                  "sleep 1\n"
                  "echo \"end $PBS_ARRAY_INDEX $(date +%%s.%%N)\" >> %s\n" % (si.work, log, log))
        jid = si.qsub("array.sh")
        self.assertRegex(jid, r"^\d+\[\]\.%s$" % re.escape(si.server))
        seq = jid.split("[")[0]
        seen_begun = []

        def done():
            j = si.job(jid)
            if j["job_state"] == "B":
                seen_begun.append(j["array_state_count"])
            return j if j["job_state"] == "F" else None
        parent = wait_for(done, what="the array to finish")
        self.assertTrue(seen_begun, "the parent was never seen in state B")
        self.assertRegex(seen_begun[0], r"^Queued:\d Running:[12] Exiting:0 Expired:\d$")
        self.assertEqual(parent["array"], "True")
        self.assertEqual(parent["array_indices_submitted"], "1-4")
        self.assertEqual(parent["array_indices_remaining"], "-")
        self.assertEqual(parent["array_state_count"], "Queued:0 Running:0 Exiting:0 Expired:4")
        self.assertEqual(parent["Exit_status"], 0)
        self.assertEqual(parent["max_run_subjobs"], 2)
        jobs = si.job(jid, subjobs=True)
        self.assertEqual(list(jobs), [jid] + ["%s[%d].%s" % (seq, i, si.server) for i in range(1, 5)])
        for i in range(1, 5):
            sub = jobs["%s[%d].%s" % (seq, i, si.server)]
            self.assertEqual((sub["job_state"], sub["Exit_status"], sub["comment"],
                              sub["array_index"], sub["array_id"]),
                             ("X", 0, "Subjob finished", i, jid))
            with open(os.path.join(si.work, "arr.%d.out" % i)) as f:
                self.assertEqual(f.read(), "index %d of %s\n" % (i, jid))
        # Never more than 2 at once, as the subjobs themselves recorded it.
        events = []
        with open(log) as f:
            for line in f:
                what, idx, t = line.split()
                events.append((float(t), 1 if what == "start" else -1))
        self.assertEqual(len(events), 8)
        running = peak = 0
        for _, delta in sorted(events):
            running += delta
            peak = max(peak, running)
        self.assertEqual(peak, 2)
        # Without -t only the parent; a subjob by its id.
        r, doc = si.jobs(jid)
        self.assertEqual(list(doc["Jobs"]), [jid])
        r, doc = si.jobs("%s[3]" % seq)
        self.assertEqual(list(doc["Jobs"]), ["%s[3].%s" % (seq, si.server)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
