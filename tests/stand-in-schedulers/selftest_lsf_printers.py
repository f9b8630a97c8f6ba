#!/usr/bin/env python3
"""LSF stand-in self-test: what bjobs prints. The published samples re-printed with the
stand-in's printers (JSON layout, the default table), times, escapes, unknown ids (as
ERROR records, or on stderr with bjobs_unknown=stderr), nothing matched, -o text; and
`bqueues -l` (the queue's limits) on one instance."""

import json
import os
import subprocess
import sys
import time
import unittest

from selftest_helpers import HERE, LsfInstance, core, fixture
from standin import lsf_bjobs, lsf_bqueues, lsf_common, queue_limits

FIELDS = LsfInstance.FIELDS


class SamplesTest(unittest.TestCase):
    """The printers on the published samples (tests/fixtures/lsf), no server."""

    def test_json_layout(self):
        text = fixture("lsf", "batcheuphoria_convertBJobsResultLinesToResultMapTest.json")
        doc = json.loads(text, object_pairs_hook=list)
        records = dict(doc)["RECORDS"]
        self.assertEqual(lsf_common.json_document(records), text.rstrip("\n") + "\n")

    def test_times(self):
        t = time.mktime(time.strptime("2021 Jan 7 09:59", "%Y %b %d %H:%M"))
        self.assertEqual(lsf_common.lsf_time(t), "Jan  7 09:59")
        t = time.mktime(time.strptime("2020 Dec 28 19:56", "%Y %b %d %H:%M"))
        self.assertEqual(lsf_common.lsf_time(t), "Dec 28 19:56")

    def test_default_tables(self):
        for name, wide in (("bjobs_w_nextflow_test.txt", True),
                           ("bjobs_w_extra_header_lines_nextflow_test.txt", False)):
            lines = fixture("lsf", name).split("\n")
            while lines[0].startswith("LSF is processing"):
                lines.pop(0)
            values = []
            for line in lines[1:]:
                if not line:
                    continue
                w = line.split()
                values.append(dict(zip(("JOBID", "USER", "STAT", "QUEUE", "FROM_HOST",
                                        "EXEC_HOST"), w[:6]), JOB_NAME=" ".join(w[6:-3]),
                                   SUBMIT_TIME=" ".join(w[-3:])))
            self.assertEqual(lsf_bjobs.table(values, wide), "\n".join(lines), name)

    def test_synth(self):
        r = subprocess.run([sys.executable, "-m", "standin.lsf_synth", "30"], cwd=HERE,
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        doc = json.loads(r.stdout)
        self.assertEqual((doc["COMMAND"], doc["JOBS"], len(doc["RECORDS"])), ("bjobs", 30, 30))
        self.assertEqual(list(doc["RECORDS"][0]), [f.upper() for f in FIELDS.split()])
        self.assertEqual({x["STAT"] for x in doc["RECORDS"]}, {"DONE", "EXIT", "RUN", "PEND"})


class BjobsTest(unittest.TestCase):
    """One instance (defaults), then one with bjobs_unknown=stderr."""

    @classmethod
    def setUpClass(cls):
        cls.si = LsfInstance()
        cls.done = cls.si.bsub("true\n", "-J", 'a/b "q" \\ tab\tend')
        cls.si.wait_state(cls.done, ("DONE",))

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_escapes(self):
        r = self.si.run("bjobs", "-a", "-json", "-o", "job_name", self.done)
        self.assertIn('"JOB_NAME":"a\\/b \\"q\\" \\\\ tab\\tend"\n', r.stdout)
        self.assertEqual(json.loads(r.stdout)["RECORDS"][0]["JOB_NAME"], 'a/b "q" \\ tab\tend')

    def test_unknown_ids_as_records(self):
        si = self.si
        r, recs = si.records(self.done, "99999", "%s[3]" % self.done)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertEqual(recs[0]["JOBID"], self.done)
        self.assertEqual(recs[1:], [{"JOBID": "99999", "ERROR": "Job <99999> is not found"},
                                    {"JOBID": "%s[3]" % self.done,
                                     "ERROR": "Job <%s[3]> is not found" % self.done}])
        # Text output: the unknown ids on stderr, exit 255.
        r = si.run("bjobs", "-a", "-o", "jobid stat", self.done, "99999")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (255, "JOBID STAT\n%s DONE\n" % self.done, "Job <99999> is not found\n"))

    def test_nothing_matched(self):
        si = self.si
        for args, err in ((["-a", "-u", "nobody"], "No job found\n"),
                          (["-u", "nobody"], "No unfinished job found\n"),
                          ([self.done], "No unfinished job found\n"),
                          (["-r", "-u", "all"], "No running job found\n")):
            r = si.run("bjobs", "-json", "-o", FIELDS, *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", err), args)

    def test_text_outputs_and_users(self):
        si = self.si
        r = si.run("bjobs", "-a", "-noheader", "-o", "jobid stat exit_code delimiter='^'",
                   self.done)
        self.assertEqual((r.returncode, r.stdout), (0, "%s^DONE^-\n" % self.done))
        for users in ([], ["-u", "all"], ["-u", lsf_common.user_name()]):
            r, recs = si.records(*users)
            self.assertIn(self.done, [x["JOBID"] for x in recs], users)
        r = si.run("bjobs", "-a", self.done)
        self.assertTrue(r.stdout.startswith("JOBID   USER    STAT  QUEUE      FROM_HOST   "
                                            "EXEC_HOST   JOB_NAME   SUBMIT_TIME\n%-7s "
                                            % self.done), r.stdout)
        r = si.run("bjobs", "-l")
        self.assertEqual((r.returncode, r.stderr), (2, "bjobs: the stand-in does not support -l\n"))

    def test_unknown_ids_on_stderr(self):
        si = LsfInstance("bjobs_unknown=stderr")
        self.addCleanup(si.cleanup)
        a = si.bsub("true\n")
        si.wait_state(a, ("DONE",))
        r, recs = si.records(a, "99999")
        self.assertEqual((r.returncode, r.stderr, [x["JOBID"] for x in recs]),
                         (255, "Job <99999> is not found\n", [a]))
        r = si.run("bjobs", "-a", "-json", "-o", FIELDS, "99998", "99999")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (255, "", "Job <99998> is not found\nJob <99999> is not found\n"))


LOAD = (" loadSched   -     -     -     -       -     -    -     -     -      -      -  \n"
        " loadStop    -     -     -     -       -     -    -     -     -      -      -  \n")
NORMAL = ("\n"
          "QUEUE: normal\n"
          "  -- For normal low priority jobs, running only if hosts are lightly loaded.  "
          "This is the default queue.\n"
          "\n"
          "PARAMETERS/STATISTICS\n"
          "PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV\n"
          " 30   20  Open:Active       -    -    -    -  %%4d  %%4d  %%4d     0  %%4d    0\n"
          "Interval for a host to accept two jobs is 0 seconds\n"
          "%s"
          "\n"
          "SCHEDULING PARAMETERS\n"
          "           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem\n"
          + LOAD.replace("%", "%%") +
          "\n"
          "USERS: all\n"
          "HOSTS:  all\n"
          "\n")
LIMIT_BLOCKS = ("\n"
                "DEFAULT LIMITS:\n"
                " RUNLIMIT                \n"
                " 60.0 min\n"
                "\n"
                "MAXIMUM LIMITS:\n"
                " RUNLIMIT                 TASKLIMIT               \n"
                " 720.0 min                4\n"
                "\n"
                " MEMLIMIT\n"
                "     16 G \n")


class BqueuesTest(unittest.TestCase):
    """bqueues -l on one instance with every queue limit set (queue_limits.py)."""

    @classmethod
    def setUpClass(cls):
        cls.si = LsfInstance("queue_max_walltime=43200", "queue_max_cpus=4",
                             "queue_max_mem=16384", "queue_default_walltime=3600")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_limits(self):
        for args in (["-l"], ["-l", "normal"]):
            r = self.si.run("bqueues", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr),
                             (0, NORMAL % LIMIT_BLOCKS % (0, 0, 0, 0), ""), args)

    def test_02_unknown_queue(self):
        for args in (["-l", "normalx"], ["-l", "normal", "normalx"]):
            r = self.si.run("bqueues", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr),
                             (255, "", "normalx: No such queue\n"), args)
        r = self.si.run("bqueues")
        self.assertEqual((r.returncode, r.stderr), (2, "bqueues: the stand-in does not "
                                                       "support the short format (use -l)\n"))

    def test_03_counts(self):
        jid = self.si.bsub(None, "-n", "2", "-H", "sleep", "60")   # PSUSP: pending slots
        r = self.si.run("bqueues", "-l")
        self.assertEqual(r.stdout, NORMAL % LIMIT_BLOCKS % (2, 2, 0, 0))
        self.si.run("bkill", jid)

    def test_limit_blocks(self):
        cfg = dict(core.DEFAULTS)
        self.assertEqual(lsf_bqueues.limit_blocks(queue_limits.Limits(cfg)), "")
        cfg.update(queue_max_walltime=43200)
        self.assertEqual(lsf_bqueues.limit_blocks(queue_limits.Limits(cfg)),
                         "\n RUNLIMIT                \n 720.0 min\n")
        cfg = dict(core.DEFAULTS, queue_max_mem=50000, queue_max_cpus=8)
        self.assertEqual(lsf_bqueues.limit_blocks(queue_limits.Limits(cfg)),
                         "\n TASKLIMIT               \n 8\n\n MEMLIMIT\n   48.8 G \n")
        for mib, shown in ((16384, ("16", "G")), (4000, ("3.9", "G")), (500, ("500", "M")),
                           (200000, ("195.3", "G")), (2 ** 21, ("2", "T"))):
            self.assertEqual(queue_limits.lsf_mem(mib), shown)


if __name__ == "__main__":
    unittest.main(verbosity=2)
