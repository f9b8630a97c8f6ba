#!/usr/bin/env python3
"""LSF stand-in self-test: a job's life (bsub < script with #BSUB lines, output, exit
codes, signals, bkill, arrays with a slot limit, the run limit) on one instance (6 slots,
kill grace 1 s). The run-limit job (-W 0:01, a minute) is submitted first and checked
last, the other tests running meanwhile."""

import os
import re
import time
import unittest

from selftest_helpers import LsfInstance, core, read_file, wait_for

TIME_RE = r"^[A-Z][a-z]{2} [ 123]\d \d\d:\d\d$"


class JobsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.si = LsfInstance("kill_grace=1", "slots=6")
        cls.si.env["FOO"] = "bar baz"
        cls.t0 = time.monotonic()
        cls.limited = cls.si.bsub("#!/bin/bash\n#BSUB -W 0:01\n#BSUB -o limit.out\n"
                                  "echo started\nsleep 120\n")
        cls.host = core.short_hostname()

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_stdin_script_with_directives(self):
        si = self.si
        script = ("#!/bin/bash\n"
                  "# a comment, then the directives\n"
                  "#BSUB -J \"hello\"\n"
                  "  #  BSUB -o out.%J  # a comment after a directive\n"
                  "#BSUB -e err.%J\n"
                  "#BSUB -n 2\n"
                  "#BSUB -R \"rusage[mem=4GB] span[hosts=1]\"\n"
                  "echo \"id=$LSB_JOBID index=$LSB_JOBINDEX name=$LSB_JOBNAME foo=$FOO\"\n"
                  "echo \"hosts=$LSB_HOSTS mcpu=$LSB_MCPU_HOSTS queue=$LSB_QUEUE\"\n"
                  "echo \"cwd=$(pwd) subcwd=$LS_SUBCWD\"\n"
                  "cat \"$LSB_DJOB_HOSTFILE\"\n"
                  "test -d \"$TMPDIR\" && echo tmpdir\n"
                  "echo err >&2\n"
                  "#BSUB -P late # bsub reads #BSUB lines after commands too\n")
        jid = si.bsub(script)
        job = si.wait_state(jid, ("DONE", "EXIT"))
        self.assertEqual((job["STAT"], job["EXIT_CODE"], job["EXIT_REASON"], job["JOB_NAME"],
                          job["PEND_REASON"], job["EXEC_HOST"]),
                         ("DONE", "", "", "hello", "", "%s:%s" % (self.host, self.host)))
        self.assertRegex(job["START_TIME"], TIME_RE)
        self.assertRegex(job["FINISH_TIME"], TIME_RE)        # no run limit: no " L"
        out = read_file(os.path.join(si.work, "out." + jid)).split("\n")
        self.assertEqual(out[:5], ["id=%s index=0 name=hello foo=bar baz" % jid,
                                   "hosts=%s %s mcpu=%s 2 queue=normal" % ((self.host,) * 3),
                                   "cwd=%s subcwd=%s" % (si.work, si.work), self.host, self.host])
        self.assertEqual(out[5:], ["tmpdir", ""])
        self.assertEqual(read_file(os.path.join(si.work, "err." + jid)), "err\n")
        r, recs = si.records(jid, fields="proj_name slots queue sub_cwd dependency")
        self.assertEqual(recs, [{"PROJ_NAME": "late", "SLOTS": "2", "QUEUE": "normal",
                                 "SUB_CWD": si.work, "DEPENDENCY": ""}])
        # The command line wins over the script; -q names the queue in the answer.
        r = si.run("bsub", "-J", "other", "-q", "normal", stdin=script)
        self.assertEqual(r.returncode, 0, r.stderr)
        other = re.match(r"^Job <(\d+)> is submitted to queue <normal>\.\n$", r.stdout).group(1)
        self.assertEqual(si.wait_state(other, ("DONE",))["JOB_NAME"], "other")
        # The run-limit job is running: its estimated finish carries " L".
        job = si.job(self.limited)
        self.assertEqual(job["STAT"], "RUN")
        self.assertRegex(job["FINISH_TIME"], TIME_RE[:-1] + " L$")

    def test_02_exit_code(self):
        job = self.si.wait_state(self.si.bsub("exit 3\n"), ("DONE", "EXIT"))
        self.assertEqual((job["STAT"], job["EXIT_CODE"], job["EXIT_REASON"]), ("EXIT", "3", ""))

    def test_03_shell_killed_by_signal(self):
        job = self.si.wait_state(self.si.bsub("kill -9 $$\n"), ("DONE", "EXIT"))
        self.assertEqual((job["STAT"], job["EXIT_CODE"]), ("EXIT", "137"))

    def test_04_bkill_running(self):
        si = self.si
        a = si.bsub("sleep 60\n")
        b = si.bsub("trap 'echo int' INT\ntrap 'echo term' TERM\n"
                    "sleep 60 & wait\nsleep 60 & wait\nsleep 60\n", "-o", "stubborn.out")
        si.wait_state(a, ("RUN",))
        si.wait_state(b, ("RUN",))
        r = si.run("bkill", a, b)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "Job <%s> is being terminated\nJob <%s> is being terminated\n"
                          % (a, b), ""))
        owner = "TERM_OWNER: job killed by owner"
        job = si.wait_state(a, ("EXIT",))
        self.assertEqual((job["EXIT_CODE"], job["EXIT_REASON"]), ("130", owner))
        job = si.wait_state(b, ("EXIT",), timeout=20)
        self.assertEqual((job["EXIT_CODE"], job["EXIT_REASON"]), ("137", owner))
        self.assertEqual(read_file(os.path.join(si.work, "stubborn.out")), "int\nterm\n")

    def test_05_bkill_pending_finished_unknown(self):
        si = self.si
        held = si.bsub("true\n", "-H")
        job = si.job(held)
        self.assertEqual((job["STAT"], job["PEND_REASON"]),
                         ("PSUSP", "The job was suspended by the user while pending;"))
        r = si.run("bkill", held)
        self.assertEqual((r.returncode, r.stdout), (0, "Job <%s> is being terminated\n" % held))
        job = si.job(held)
        self.assertEqual((job["STAT"], job["EXIT_CODE"], job["EXIT_REASON"], job["START_TIME"],
                          job["EXEC_HOST"]),
                         ("EXIT", "", "TERM_OWNER: job killed by owner", "", ""))
        self.assertRegex(job["FINISH_TIME"], TIME_RE)
        r = si.run("bkill", held, "99999", "%s[2]" % held)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (255, "", "Job <%s>: Job has already finished\n"
                          "Job <99999>: No matching job found\n"
                          "Job <%s[2]>: No matching job found\n" % (held, held)))

    def test_06_array_with_slot_limit(self):
        si = self.si
        log = os.path.join(si.work, "array.log")
        jid = si.bsub("#BSUB -J \"arr[1-4]%%2\"\n#BSUB -o arr-%%I.out\n"
                      "echo \"start $LSB_JOBINDEX $(date +%%s.%%N)\" >> %s\n"
                      "echo \"$LSB_JOBID $LSB_JOBINDEX $LSB_JOBINDEX_END $LSB_JOBNAME\"\n"
                      "sleep 1\n"
                      "echo \"end $LSB_JOBINDEX $(date +%%s.%%N)\" >> %s\n" % (log, log))
        reasons = set()

        def finished():
            recs = si.elements(jid)
            reasons.update(r["PEND_REASON"] for r in recs)
            return recs if all(r["STAT"] == "DONE" for r in recs) else None
        recs = wait_for(finished, what="the array to finish")
        self.assertIn("The job array has reached its job slot limit;", reasons)
        self.assertEqual([(r["JOBID"], r["JOB_NAME"]) for r in recs],
                         [(jid, "arr[%d]" % i) for i in range(1, 5)])
        for i in range(1, 5):
            self.assertEqual(read_file(os.path.join(si.work, "arr-%d.out" % i)),
                             "%s %d 4 arr[1-4]%%2\n" % (jid, i))
        events = []
        for line in read_file(log).split("\n")[:-1]:
            what, _, t = line.split()
            events.append((float(t), 1 if what == "start" else -1))
        running = peak = 0
        for _, delta in sorted(events):
            running += delta
            peak = max(peak, running)
        self.assertEqual((len(events), peak), (8, 2))
        self.assertEqual(si.job("%s[3]" % jid)["JOB_NAME"], "arr[3]")
        r, recs = si.records("%s[2-3]" % jid)
        self.assertEqual([x["JOB_NAME"] for x in recs], ["arr[2]", "arr[3]"])

    def test_07_index_list_and_bkill_of_elements(self):
        si = self.si
        jid = si.bsub("sleep 60\n", "-J", "lst[1-10:4,20]")
        wait_for(lambda: all(r["STAT"] == "RUN" for r in si.elements(jid)), what="the elements")
        self.assertEqual([r["JOB_NAME"] for r in si.elements(jid)],
                         ["lst[1]", "lst[5]", "lst[9]", "lst[20]"])
        r = si.run("bkill", "%s[5]" % jid)
        self.assertEqual(r.stdout, "Job <%s[5]> is being terminated\n" % jid)
        self.assertEqual(si.wait_state("%s[5]" % jid, ("EXIT",))["EXIT_CODE"], "130")
        self.assertEqual(si.job("%s[9]" % jid)["STAT"], "RUN")
        self.assertEqual(si.run("bkill", jid).stdout, "Job <%s> is being terminated\n" % jid)
        recs = wait_for(lambda: (lambda rs: rs if all(x["STAT"] == "EXIT" for x in rs) else None)(
            si.elements(jid)), what="every element to end")
        self.assertEqual({x["EXIT_REASON"] for x in recs}, {"TERM_OWNER: job killed by owner"})

    def test_08_output_files_and_cwd(self):
        si = self.si
        os.makedirs(os.path.join(si.work, "sub"), exist_ok=True)
        for name in ("append.out", "over.out"):
            with open(os.path.join(si.work, name), "w") as f:
                f.write("old\n")
        a = si.bsub("echo new\n", "-o", "append.out")
        b = si.bsub("echo new\necho e >&2\n", "-oo", "over.out")
        c = si.bsub("echo dropped\necho only-err >&2\npwd >&2\n", "-eo", "c.err", "-cwd", "sub")
        for j in (a, b, c):
            si.wait_state(j, ("DONE",))
        self.assertEqual(read_file(os.path.join(si.work, "append.out")), "old\nnew\n")
        self.assertEqual(read_file(os.path.join(si.work, "over.out")), "new\ne\n")
        self.assertEqual(read_file(os.path.join(si.work, "sub", "c.err")),
                         "only-err\n%s/sub\n" % si.work)

    def test_99_run_limit(self):
        si = self.si
        job = si.wait_state(self.limited, ("EXIT", "DONE"), timeout=90)
        elapsed = time.monotonic() - self.t0
        self.assertEqual((job["STAT"], job["EXIT_CODE"], job["EXIT_REASON"]),
                         ("EXIT", "140", "TERM_RUNLIMIT: job killed after reaching LSF run "
                          "time limit"))                        # SIGUSR2: 128 + 12
        self.assertRegex(job["FINISH_TIME"], TIME_RE[:-1] + " L$")
        self.assertGreaterEqual(elapsed, 60.0)
        self.assertLess(elapsed, 64.0)
        self.assertEqual(read_file(os.path.join(si.work, "limit.out")), "started\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
