#!/usr/bin/env python3
"""Torque stand-in self-test: dependencies (afterok, afterany, afternotok, afterokarray,
and the dependents the server deletes), job ids, the answers to errors, directives,
the text formats."""

import os
import unittest

from selftest_helpers import TorqueInstance, read_file, wait_for

FEASIBLE = ("qsub: submit error (Job exceeds queue resource limits MSG=cannot locate feasible "
            "nodes (nodes file is empty, all systems are busy, or no nodes have the requested "
            "feature))\n")


class DependenciesAndErrorsTest(unittest.TestCase):
    """One instance (4 slots, kill grace 1 s): dependencies and error answers."""

    @classmethod
    def setUpClass(cls):
        cls.si = TorqueInstance("kill_grace=1")
        cls.si.script("never.sh", "true\n")
        cls.si.script("fail.sh", "sleep 1\nexit 1\n")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_afterok_satisfied(self):
        si = self.si
        si.script("first.sh", "sleep 0.5\ndate +%%s.%%N > %s/first.done\n" % si.work)
        si.script("second.sh", "date +%%s.%%N > %s/second.start\n" % si.work)
        a = si.qsub("first.sh")
        b = si.qsub("-W", "depend=afterok:" + a.split(".")[0], "second.sh")
        job = si.job(b)
        if job["job_state"] == "H":
            self.assertEqual(job["Hold_Types"], "s")
        self.assertEqual(job["depend"], "afterok:%s@%s" % (a, si.server))
        self.assertEqual(si.wait_state(b, "C")["exit_status"], "0")
        self.assertLess(float(read_file(os.path.join(si.work, "first.done"))),
                        float(read_file(os.path.join(si.work, "second.start"))))

    def test_02_afterok_never_satisfied(self):
        si = self.si
        # The parent fails when the test lets it (a gate file): a loaded machine cannot see
        # the dependent deleted before seeing it held.
        gate = os.path.join(si.work, "fail02.go")
        si.script("gated_fail.sh", "while [ ! -e %s ]; do sleep 0.1; done\nexit 1\n" % gate)
        a = si.qsub("gated_fail.sh")
        b = si.qsub("-W", "depend=afterok:" + a, "never.sh")
        c = si.qsub("-W", "depend=afterok:" + b, "never.sh")
        self.assertEqual(si.job(b)["job_state"], "H")
        open(gate, "w").close()
        for dep, parent in ((b, a), (c, b)):
            job = si.wait_state(dep, "C")
            self.assertEqual(job["exit_status"], "271")
            self.assertEqual(job["comment"], "Job deleted as result of dependency on job %s"
                             % parent)
            self.assertNotIn("start_time", job)

    def test_03_afterany_and_afternotok(self):
        si = self.si
        a = si.qsub("fail.sh")
        b = si.qsub("-W", "depend=afterany:%s,afternotok:%s" % (a, a), "never.sh")
        self.assertEqual(si.wait_state(b, "C")["exit_status"], "0")

    def test_04_afterokarray(self):
        si = self.si
        good = si.qsub("-t", "1-2", "never.sh")
        bad = si.qsub("-t", "1-2", "fail.sh")
        after_good = si.qsub("-W", "depend=afterokarray:" + good, "never.sh")
        after_bad = si.qsub("-W", "depend=afterokarray:" + bad.split(".")[0], "never.sh")
        array_after_bad = si.qsub("-t", "1-2", "-W", "depend=afterokarray:" + bad, "never.sh")
        self.assertEqual(si.job(after_good)["depend"], "afterokarray:" + good)
        self.assertEqual(si.wait_state(after_good, "C")["exit_status"], "0")
        job = si.wait_state(after_bad, "C")
        self.assertEqual((job["exit_status"], job["comment"]),
                         ("271", "Job %s deleted because its dependency of array %s can never "
                                 "be satisfied" % (after_bad, bad)))
        si.wait_state(array_after_bad, "C")
        subs = si.job(array_after_bad, subjobs=True)
        self.assertEqual(len(subs), 2)
        for s in subs.values():
            self.assertEqual((s["job_state"], s["exit_status"], s["comment"]),
                             ("C", "271", "Job %s deleted because its dependency of array %s "
                                          "can never be satisfied" % (array_after_bad, bad)))

    def test_05_unknown_id_with_others_printed(self):
        si = self.si
        a = si.qsub("never.sh")
        si.wait_state(a, "C")
        r, jobs = si.jobs(a, "999999", "%s.%s" % (a.split(".")[0], si.server))
        self.assertEqual((r.returncode, r.stderr),
                         (153, "qstat: Unknown Job Id Error 999999.%s\n" % si.server))
        self.assertEqual(r.stdout.count('<?xml version="1.0"?>\n'), 2)     # one per operand found
        self.assertEqual([j for j, _ in jobs], [a, a])
        r = si.run("qstat", "-x", "999998[]")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (153, "", "qstat: Unknown Job Id Error 999998[].%s\n" % si.server))

    def test_06_empty_data_when_nothing_matched(self):
        si = self.si
        r = si.run("qstat", "-x", "-f", "-u", "nobody-at-all")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, '<?xml version="1.0"?>\n<Data></Data>\n', ""))

    def test_07_qsub_errors(self):
        si = self.si
        si.script("dos.sh", "true\r\n")
        cases = [
            (["-q", "nosuch", "never.sh"], 172,
             "qsub: submit error (Unknown queue MSG=requested queue not found)\n"),
            (["-l", "frobs=2", "never.sh"], 189,
             "qsub: submit error (Unknown resource type  Resource_List.frobs)\n"),
            (["-l", "nodes=1:ppn=1:gpus=1", "never.sh"], 190, FEASIBLE),
            (["-l", "nodes=1:ppn=5", "never.sh"], 190, FEASIBLE),
            (["-l", "walltime=soon", "never.sh"], 168, "qsub: submit error (Illegal attribute or "
             "resource value for Resource_List.walltime)\n"),
            (["-t", "5-1", "never.sh"], 235, "qsub: submit error (Bad Job Array Request)\n"),
            (["-W", "depend=afterok:999996", "never.sh"], 208,
             "qsub: submit error (Invalid Job Dependency)\n"),
            (["missing.sh"], 1,
             "qsub: script file 'missing.sh' cannot be loaded - No such file or directory\n"),
            (["dos.sh"], 1, "qsub:  script is written in DOS/Windows text format\n"),
        ]
        for args, status, message in cases:
            r = si.run("qsub", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (status, "", message), args)
        for args, first in ((["-N", "no spaces", "never.sh"], "[qsub: illegal -N value]\n"),
                            (["-N", "x" * 257, "never.sh"], "[qsub: illegal -N value]\n"),
                            (["-j", "sideways", "never.sh"], "[qsub: illegal -j value]\n"),
                            (["-W", "depend=sometime:1", "never.sh"],
                             "[qsub: illegal -W dependency value: 'sometime:1']\n"),
                            (["-Y", "never.sh"], "qsub: invalid option -- 'Y'\n[exiting]\n")):
            r = si.run("qsub", *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertTrue(r.stderr.startswith(first + "\nusage: qsub "), (args, r.stderr))
        self.assertRegex(si.qsub("-N", "x" * 256, "-h", "never.sh"), r"^\d+\.")

    def test_08_directives(self):
        si = self.si
        si.script("directives.sh", "#!/bin/bash\n\n# a comment\n#PBS -N from_directive\n"
                  "  #PBS -l walltime=00:02:00 -l nodes=1:ppn=2\n#PBS -m \\\nabe\n"
                  "true\n#PBS -N after_the_first_command\n")
        jid = si.qsub("-N", "from_cmdline", "-l", "walltime=00:03:00", "-h", "directives.sh")
        job = si.job(jid)
        self.assertEqual((job["Job_Name"], job["Mail_Points"], job["Hold_Types"]),
                         ("from_cmdline", "abe", "u"))
        self.assertEqual(job["Resource_List"], {"walltime": "00:03:00", "nodes": "1:ppn=2",
                                                "nodect": "1"})
        self.assertEqual(si.run("qdel", jid).returncode, 0)

    def test_09_qdel_ids(self):
        si = self.si
        r = si.run("qdel", "999997")
        self.assertEqual((r.returncode, r.stderr), (153, "qdel: nonexistent job id: 999997\n"))
        arr = si.qsub("-h", "-t", "1-3", "never.sh")
        seq = arr.split("[")[0]
        self.assertEqual(si.run("qdel", "%s[2]" % seq).returncode, 0)
        subs = si.job(arr, subjobs=True)
        self.assertEqual([s["job_state"] for s in subs.values()], ["H", "C", "H"])
        self.assertEqual(si.run("qdel", arr).returncode, 0)
        subs = wait_for(lambda: (lambda s: s if all(j["job_state"] == "C" for j in s.values())
                                 else None)(si.job(arr, subjobs=True)), what="the array deleted")
        self.assertEqual(si.job(arr)["job_state"], "C")

    def test_11_qhold_and_qrls(self):
        si = self.si
        si.script("gate.sh", "while [ ! -e %s/open ]; do sleep 0.1; done\n" % si.work)
        gate = si.qsub("gate.sh")
        si.wait_state(gate, "R")
        r = si.run("qhold", gate)  # a running job cannot be held
        self.assertEqual((r.returncode, r.stderr), (15018 % 256, "qhold: Request invalid for state of job %s\n" % gate))
        r = si.run("qhold", "999997")
        self.assertEqual((r.returncode, r.stderr), (153, "qhold: nonexistent job id: 999997\n"))
        held = si.qsub("-W", "depend=afterany:" + gate, "never.sh")
        self.assertEqual(si.run("qhold", "-h", "o", held).returncode, 2)  # only the user's hold
        self.assertEqual(si.run("qhold", "-h", "u", held).returncode, 0)
        self.assertEqual(si.job(held)["Hold_Types"], "us")
        open(os.path.join(si.work, "open"), "w").close()
        si.wait_state(gate, "C")
        twin = si.qsub("-W", "depend=afterany:" + gate, "never.sh")
        si.wait_state(twin, "C")
        job = si.job(held)  # its dependency went; the user's hold stays
        self.assertEqual((job["job_state"], job["Hold_Types"]), ("H", "u"))
        self.assertEqual(si.run("qrls", "-h", "u", held).returncode, 0)
        self.assertEqual(si.wait_state(held, "C")["exit_status"], "0")

    def test_10_text_formats(self):
        si = self.si
        a = si.qsub("-N", "text", "never.sh")
        si.wait_state(a, "C")
        r = si.run("qstat", "-f", a)
        self.assertEqual(r.returncode, 0)
        self.assertTrue(r.stdout.startswith("Job Id: %s\n    Job_Name = text\n" % a), r.stdout)
        self.assertRegex(r.stdout, r"\n    ctime = \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\n")
        self.assertIn("\n\t", r.stdout)                 # Variable_List is long enough to fold
        self.assertTrue(r.stdout.endswith("\n\n"))
        r1 = si.run("qstat", "-f", "-1", a)
        self.assertNotIn("\n\t", r1.stdout)
        self.assertEqual(r1.stdout.replace("\n\t", ""), r.stdout.replace("\n\t", ""))
        r = si.run("qstat", a)
        self.assertEqual(r.stdout.split("\n")[0], "Job ID                    Name             "
                                                  "User            Time Use S Queue")
        self.assertTrue(r.stdout.split("\n")[2].startswith(a.ljust(26) + " text "))
        r = si.run("qstat", "-1", a)
        self.assertEqual(r.returncode, 2)
        self.assertTrue(r.stderr.startswith("qstat: conflicting options.\nusage: \n"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
