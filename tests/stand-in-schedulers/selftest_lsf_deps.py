#!/usr/bin/env python3
"""LSF stand-in self-test: bsub -w dependencies (satisfied, never satisfied and kept
pending, arrays, exit codes, names), bsub's refusals, bkill -s, unplaceable jobs."""

import os
import unittest

from selftest_helpers import LsfInstance, read_file, wait_for

WAITING = "Job dependency condition not satisfied;"
NEVER = "Dependency condition invalid or never satisfied;"


class DependenciesTest(unittest.TestCase):
    """One instance (4 slots, 1 GPU, kill grace 1 s)."""

    @classmethod
    def setUpClass(cls):
        cls.si = LsfInstance("kill_grace=1", "gpus=1")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def reason(self, jid, reason):
        return wait_for(lambda: (lambda j: j if j["PEND_REASON"] == reason else None)(
            self.si.job(jid)), what="%s pending with %r" % (jid, reason))

    def test_01_done_satisfied(self):
        si = self.si
        a = si.bsub("sleep 0.5\ndate +%%s.%%N > %s/first.done\n" % si.work)
        b = si.bsub("date +%%s.%%N > %s/second.start\n" % si.work, "-w", "done(%s)" % a)
        r, recs = si.records(b, fields="stat pend_reason dependency")
        if recs[0]["STAT"] == "PEND":
            self.assertEqual(recs[0]["PEND_REASON"], WAITING)
        self.assertEqual(recs[0]["DEPENDENCY"], "done(%s)" % a)
        si.wait_state(b, ("DONE",))
        first = float(read_file(os.path.join(si.work, "first.done")))
        self.assertLess(first, float(read_file(os.path.join(si.work, "second.start"))))

    def test_02_never_satisfied_stays_pending(self):
        si = self.si
        a = si.bsub("sleep 0.5\nexit 1\n")
        b = si.bsub("touch never-ran\n", "-w", "done(%s)" % a)
        c = si.bsub("true\n", "-w", "done(%s)" % b)
        self.assertEqual(si.job(c)["PEND_REASON"], WAITING)
        job = self.reason(b, NEVER)
        self.assertEqual((job["STAT"], job["EXEC_HOST"], job["START_TIME"]), ("PEND", "", ""))
        self.assertEqual(si.job(c)["PEND_REASON"], WAITING)     # b may still end, for c
        self.assertEqual(si.run("bkill", b).returncode, 0)
        self.assertEqual(si.job(b)["EXIT_REASON"], "TERM_OWNER: job killed by owner")
        self.reason(c, NEVER)
        self.assertFalse(os.path.exists(os.path.join(si.work, "never-ran")))
        si.run("bkill", c)

    def test_03_ended_done_exit_on_an_array(self):
        si = self.si
        arr = si.bsub("test $LSB_JOBINDEX != 2\n", "-J", "arr[1-3]")
        ended = si.bsub("true\n", "-w", "ended(%s)" % arr)
        done = si.bsub("true\n", "-w", "done(%s)" % arr)
        element = si.bsub("true\n", "-w", "exit(%s[2]) && done(%s[1])" % (arr, arr))
        exited = si.bsub("true\n", "-w", "exit(%s)" % arr)       # every element: never
        for jid in (ended, element):
            si.wait_state(jid, ("DONE",))
        self.assertEqual([r["STAT"] for r in si.elements(arr)], ["DONE", "EXIT", "DONE"])
        self.reason(done, NEVER)
        self.reason(exited, NEVER)
        si.run("bkill", done, exited)

    def test_04_exit_codes_started_or_not_names(self):
        si = self.si
        three = si.bsub("exit 3\n", "-J", "three")
        running = si.bsub("sleep 60\n")
        si.wait_state(three, ("EXIT",))
        si.wait_state(running, ("RUN",))
        ok = [si.bsub("true\n", "-w", w) for w in (
            "exit(%s, 3)" % three, "exit(%s,>=2)" % three, "started(%s)" % running,
            "done(%s) || ended(%s)" % (three, three), "!done(%s)" % running,
            'exit("three")', "exit(thr*)")]
        never = [si.bsub("true\n", "-w", w) for w in (
            "exit(%s, >5)" % three, "done(%s) && started(%s)" % (three, running), "three")]
        for jid in ok:
            si.wait_state(jid, ("DONE",))
        for jid in never:
            self.reason(jid, NEVER)
        si.run("bkill", running, *never)

    def test_05_bsub_refusals(self):
        si = self.si
        for args, stdin, err in [
                (["-w", "done(99999)"], "true\n", "99999: No matching job found"),
                (["-w", "ended(1[77])"], "true\n", "1[77]: No matching job found"),
                (["-w", "done(1"], "true\n", "done(1: Dependency condition syntax error"),
                (["-q", "other"], "true\n", "No such queue"),
                (["-n", "99"], "true\n", "Too many processors requested"),
                (["-n", "x"], "true\n", "Bad argument for option -n"),
                (["-W", "1:x"], "true\n", "1:x: Bad RUNLIMIT specification"),
                (["-J", "a[0-3]"], "true\n", "Job array index error"),
                (["-J", "a[1-2000]"], "true\n", "Job array index too large"),
                (["-R", "rusage[mem=lots]"], "true\n", "Error in rusage section"),
                (["-R", "span[hosts=1] span[hosts=1]"], "true\n",
                 'Error near "span" : duplicate section'),
                ([], "#!/bin/bash\n#BSUB -n 1\n\n", "No command is specified in the script file")]:
            r = si.run("bsub", *args, stdin=stdin)
            self.assertEqual((r.returncode, r.stdout, r.stderr),
                             (255, "", err + ". Job not submitted.\n"), args)
        r = si.run("bsub", "-Y", "true")
        self.assertEqual((r.returncode, r.stderr), (255, "bsub: illegal option -- Y\n"))
        r = si.run("bsub", "-K", "true")
        self.assertEqual((r.returncode, r.stderr), (2, "bsub: the stand-in does not support -K\n"))

    def test_06_bkill_s_stop_and_cont(self):
        si = self.si
        pend = si.bsub("true\n", "-w", "done(%s)" % si.bsub("sleep 3\n"))
        run = si.bsub("sleep 60\n")
        si.wait_state(run, ("RUN",))
        r = si.run("bkill", "-s", "STOP", pend, run)
        self.assertEqual((r.returncode, r.stdout), (0, "Job <%s> is being stopped\n"
                                                      "Job <%s> is being stopped\n" % (pend, run)))
        self.assertEqual([si.job(j)["STAT"] for j in (pend, run)], ["PSUSP", "USUSP"])
        r = si.run("bkill", "-s", "CONT", pend, run)
        self.assertEqual(r.stdout, "Job <%s> is being resumed\nJob <%s> is being resumed\n"
                         % (pend, run))
        self.assertEqual(si.job(run)["STAT"], "RUN")
        si.wait_state(pend, ("DONE",))
        r = si.run("bkill", "-s", "USR1", run, pend)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (255, "Job <%s> is being signaled\n" % run,
                          "Job <%s>: Job has already finished\n" % pend))
        self.assertEqual(si.wait_state(run, ("EXIT",))["EXIT_CODE"], "138")   # 128 + SIGUSR1

    def test_06b_bstop_and_bresume(self):
        si = self.si
        first = si.bsub("while [ ! -e %s/open ]; do sleep 0.1; done\n" % si.work)
        held = si.bsub("true\n", "-w", "ended(%s)" % first)
        r = si.run("bstop", held)
        self.assertEqual((r.returncode, r.stdout), (0, "Job <%s> is being stopped\n" % held))
        twin = si.bsub("true\n", "-w", "ended(%s)" % first)
        open(os.path.join(si.work, "open"), "w").close()
        si.wait_state(twin, ("DONE",))
        self.assertEqual(si.job(held)["STAT"], "PSUSP")  # its dependency was met; it stays stopped
        r = si.run("bresume", held)
        self.assertEqual((r.returncode, r.stdout), (0, "Job <%s> is being resumed\n" % held))
        si.wait_state(held, ("DONE",))
        self.assertEqual(si.run("bstop", "-s", "STOP", held).returncode, 2)
        r = si.run("bstop", "999999")
        self.assertEqual((r.returncode, r.stderr), (255, "Job <999999>: No matching job found\n"))

    def test_07_what_cannot_run_here_pends(self):
        si = self.si
        span = si.bsub("true\n", "-n", "4", "-R", "span[ptile=2]")
        gpus = si.bsub("true\n", "-gpu", "num=2")
        one = si.bsub("true\n", "-gpu", "num=1:mode=shared")
        si.wait_state(one, ("DONE",))
        self.reason(span, "Not enough processors to meet the job's spanning requirement: 1 host;")
        self.reason(gpus, "Job's resource requirements not satisfied: 1 host;")
        self.assertEqual(si.run("bkill", span, gpus).returncode, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
