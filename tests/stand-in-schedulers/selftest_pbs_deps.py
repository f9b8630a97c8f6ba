#!/usr/bin/env python3
"""PBS stand-in self-test: dependencies, job ids, qstat/qdel/qsub errors, directives."""

import json
import os
import unittest

from selftest_helpers import PbsInstance


class DependenciesAndErrorsTest(unittest.TestCase):
    """One instance (4 slots, kill grace 1 s): dependencies and error answers."""

    @classmethod
    def setUpClass(cls):
        cls.si = PbsInstance("kill_grace=1")
        cls.si.script("never.sh", "true\n")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_08_afterok_satisfied(self):
        si = self.si
        si.script("first.sh", "sleep 0.5\ndate +%%s.%%N > %s/first.done\n" % si.work)
        si.script("second.sh", "date +%%s.%%N > %s/second.start\n" % si.work)
        a = si.qsub("first.sh")
        b = si.qsub("-W", "depend=afterok:" + a, "second.sh")
        job = si.job(b)
        if job["job_state"] != "F":
            self.assertIn(job["job_state"], ("H", "Q", "R"))
        self.assertEqual(job["depend"], "afterok:%s@%s" % (a, si.server))
        job = si.wait_state(b, "F")
        self.assertEqual(job["Exit_status"], 0)
        with open(os.path.join(si.work, "first.done")) as f:
            first_done = float(f.read())
        with open(os.path.join(si.work, "second.start")) as f:
            second_start = float(f.read())
        self.assertLess(first_done, second_start)

    def test_09_afterok_never_satisfied(self):
        si = self.si
        si.script("fail.sh", "sleep 1\nexit 1\n")
        si.script("never.sh", "true\n")
        # The parent fails when the test lets it (a gate file): a loaded machine cannot see
        # the dependent deleted before seeing it held.
        gate = os.path.join(si.work, "fail09.go")
        si.script("gated_fail.sh", "while [ ! -e %s ]; do sleep 0.1; done\nexit 1\n" % gate)
        a = si.qsub("gated_fail.sh")
        b = si.qsub("-W", "depend=afterok:" + a.split(".")[0], "never.sh")
        c = si.qsub("-W", "depend=afterok:" + b, "never.sh")
        self.assertEqual(si.job(b)["substate"], 22)
        open(gate, "w").close()
        job = si.wait_state(b, "F")
        self.assertEqual(job["substate"], 91)
        self.assertNotIn("Exit_status", job)
        self.assertEqual(job["comment"], "Job deleted as result of dependency on job %s" % a)
        job = si.wait_state(c, "F")
        self.assertEqual(job["comment"], "Job deleted as result of dependency on job %s" % b)

    def test_10_afterany(self):
        si = self.si
        a = si.qsub("fail.sh")
        b = si.qsub("-W", "depend=afterany:%s,afternotok:%s" % (a, a), "never.sh")
        job = si.wait_state(b, "F")
        self.assertEqual(job["Exit_status"], 0)
        self.assertEqual(job["substate"], 92)

    def test_11_unknown_id_with_others_printed(self):
        si = self.si
        a = si.qsub("never.sh")
        si.wait_state(a, "F")
        r, doc = si.jobs(a, "999999", "%s.%s" % (a.split(".")[0], si.server))
        self.assertEqual(r.returncode, 153)
        self.assertEqual(r.stderr, "qstat: Unknown Job Id 999999.%s\n" % si.server)
        self.assertEqual(list(doc["Jobs"]), [a])

    def test_12_no_jobs_key_when_nothing_matched(self):
        si = self.si
        r, doc = si.jobs("999998")
        self.assertEqual(r.returncode, 153)
        self.assertEqual(list(doc), ["timestamp", "pbs_version", "pbs_server"])
        self.assertIsInstance(doc["timestamp"], int)

    def test_13_finished_job_without_x(self):
        si = self.si
        a = si.qsub("never.sh")
        si.wait_state(a, "F")
        r = si.run("qstat", "-f", "-F", "json", a)
        self.assertEqual(r.returncode, 35)
        self.assertEqual(r.stderr, "qstat: %s Job has finished, use -x or -H to obtain historical "
                                   "job information\n" % a)
        self.assertNotIn("Jobs", json.loads(r.stdout))
        r = si.run("qdel", a)
        self.assertEqual((r.returncode, r.stderr), (35, "qdel: Job has finished %s\n" % a))
        r = si.run("qdel", "999997")
        self.assertEqual((r.returncode, r.stderr),
                         (153, "qdel: Unknown Job Id 999997.%s\n" % si.server))
        r = si.run("qstat")
        self.assertNotIn(a.split(".")[0] + ".", r.stdout)
        r = si.run("qstat", "-x")
        self.assertIn(a + " ", r.stdout)

    def test_14_qsub_errors(self):
        si = self.si
        cases = [
            (["-q", "nosuch", "never.sh"], 170, "qsub: Unknown queue\n"),
            (["-l", "frobs=2", "never.sh"], 187, "qsub: Unknown resource Resource_List.frobs\n"),
            (["-l", "select=1:ngpus=1", "never.sh"], 187,
             "qsub: Unknown resource Resource_List.ngpus\n"),
            (["-W", "depend=afterok:999996", "never.sh"], 153,
             "qsub: Unknown Job Id 999996.%s\n" % si.server),
            (["missing.sh"], 1, "qsub: script file:: No such file or directory\n"),
            (["-l", "select=1:ncpus=2,ncpus=2", "never.sh"], 5,
             'qsub: "-lresource=" cannot be used with "select" or "place", resource is: ncpus\n'),
            (["-l", "place=scatter", "never.sh"], 7, 'qsub: Cannot have "place" without "select"\n'),
            (["-l", "walltime=soon", "never.sh"], 166,
             "qsub: Illegal attribute or resource value Resource_List.walltime\n"),
        ]
        for args, status, message in cases:
            r = si.run("qsub", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (status, "", message), args)
        r = si.run("qsub", "-j", "sideways", "never.sh")
        self.assertEqual(r.returncode, 2)
        self.assertTrue(r.stderr.startswith("qsub: illegal -j value\nusage: qsub "), r.stderr)
        r = si.run("qsub", "-N", "no spaces; please", "never.sh")
        self.assertEqual(r.returncode, 2)
        self.assertTrue(r.stderr.startswith("qsub: illegal -N value\nusage: qsub "), r.stderr)
        r = si.run("qsub", "-Y", "never.sh")
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage: qsub", r.stderr)

    def test_14b_directives(self):
        si = self.si
        si.script("directives.sh", "#!/bin/bash\n\n# a comment\n#PBS -N from_directive\n"
                  "  #PBS -l walltime=00:02:00 -l select=2:ncpus=1\n#PBS -W depend=afterok:1 \\\n"
                  "\n"
                  "true\n#PBS -N after_the_first_command\n")
        # -W depend=afterok:1 continued by the empty line: job 1 finished with 0 long ago.
        jid = si.qsub("-N", "from_cmdline", "-h", "directives.sh")
        job = si.job(jid)
        self.assertEqual(job["Job_Name"], "from_cmdline")
        self.assertEqual(job["Resource_List"], {"ncpus": 2, "nodect": 2, "place": "free",
                                                "select": "2:ncpus=1", "walltime": "00:02:00"})
        self.assertIn(job["Hold_Types"], ("us", "u"))     # the dependency is met at once
        self.assertEqual(job["depend"], "afterok:1.%s@%s" % (si.server, si.server))
        self.assertEqual(si.run("qdel", jid).returncode, 0)
        si.script("bad_directive.sh", "#PBS -j sideways\ntrue\n")
        r = si.run("qsub", "bad_directive.sh")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "qsub: illegal -j value\nqsub: directive error: -j sideways \n"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
