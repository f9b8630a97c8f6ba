#!/usr/bin/env python3
"""PBS stand-in self-test: the printers against the published samples in
tests/fixtures/pbs (no server); `qstat -Q -f` (the queue's limits) on one instance."""

import json
import subprocess
import sys
import time
import unittest

from selftest_helpers import HERE, PbsInstance, core, fixture
from standin import pbs_common, pbs_qstat_json, pbs_qstat_queue, pbs_qstat_text, pbs_view


class PrinterTest(unittest.TestCase):
    """The printers against the verbatim samples (no server)."""

    cfg = dict(core.DEFAULTS, **pbs_common.DEFAULTS)

    def render(self, printer, version, server, ts, jobs):
        cfg = dict(self.cfg, printer=printer, pbs_version=version, server_name=server)
        return pbs_qstat_json.render_json(cfg, ts, jobs)

    def test_old_printer_without_jobs_is_the_parsl_sample(self):
        text = fixture("pbs", "qstat_json_samples_verbatim.txt")
        sample = text.split("STDOUT:", 1)[1].split(" STDERR:", 1)[0] + "\n"
        out = self.render("old", "2024.1.2.20241017100211",
                          "polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov", 1752246824, [])
        self.assertEqual(out, sample)

    def test_cjson_printer_without_jobs_is_the_pr2675_sample(self):
        text = fixture("pbs", "qstat_json_samples_verbatim.txt")
        block = text.split("2000.VMa", 1)[1].split("\n", 1)[1]
        sample = block[:block.index("\n}") + 3]
        self.assertIn("\t", sample)
        out = self.render("cjson", "23.06.06", "VMa", 1749572608, [])
        self.assertEqual(out, sample)

    def test_cjson_printer_with_jobs_is_the_issue2672_sample(self):
        text = fixture("pbs", "qstat_json_samples_verbatim.txt")
        block = text.split("# qstat -f -F json 10 11\n", 1)[1].split("\n# BUG", 1)[0]
        sample = [l for l in block.split("\n") if "... job details" not in l]
        jobs = [("10.ip-10-0-6-176", [("Job_Name", "STDIN", pbs_view.S),
                                      ("Submit_Host", "ip-10-0-6-176.us-west-2.compute.internal",
                                       pbs_view.V)])]
        out = self.render("cjson", "latest", "ip-10-0-6-176", 1745411711, jobs)
        # GitHub showed the tabs as spaces to the next multiple of 8.
        self.assertEqual([l.expandtabs(8) for l in out.rstrip("\n").split("\n")], sample)

    def test_old_printer_with_jobs_is_the_man_page_sample(self):
        text = fixture("pbs", "qstat_json_samples_verbatim.txt")
        block = text.split("qstat -f F json\n\n", 1)[1].split("\n...", 1)[0]
        # The man page indents by 8 spaces a level; qstat's printer (pbs_json.c) by 4.
        sample = [" " * ((len(l) - len(l.lstrip(" "))) // 2) + l.lstrip(" ")
                  for l in block.split("\n")]
        jobs = [("1.vbox", [("Job_Name", "STDIN", pbs_view.S), ("Job_Owner", "root@vbox", pbs_view.V),
                            ("job_state", "Q", pbs_view.V), ("queue", "workq", pbs_view.V)])]
        out = self.render("old", "14.1", "vbox", 1479277336, jobs).split("\n")
        self.assertEqual(out[:len(sample)], sample)

    def griffith_record(self):
        text = fixture("pbs", "qstat_xf_failed_walltime_pbspro2020_griffith.txt").rstrip("\n")
        unwrapped = text.replace("\n\t", "")
        lines = unwrapped.split("\n")
        jid = lines[0].split("Job Id: ")[1]
        attrs = []
        for line in lines[1:]:
            name, value = line.strip().split(" = ", 1)
            if "." in name:
                group, res = name.split(".", 1)
                if attrs and attrs[-1][0] == group:
                    attrs[-1][1].append((res, value))
                else:
                    attrs.append((group, [(res, value)], pbs_view.RES))
            elif name == "Variable_List":
                attrs.append((name, [tuple(kv.split("=", 1)) for kv in value.split(",")], pbs_view.ENV))
            else:
                kind = pbs_view.S if name in ("Job_Name", "project", "Account_Name") else pbs_view.V
                attrs.append((name, value, kind))
        return text, jid, attrs

    def test_text_printer_wraps_like_the_griffith_sample(self):
        text, jid, attrs = self.griffith_record()
        out = pbs_qstat_text.render_text([(jid, attrs)], one_line=False)
        self.assertTrue(out.endswith("\n\n"))
        got = out.rstrip("\n").split("\n    ")
        want = text.split("\n    ")
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            if w.startswith(("Error_Path", "Output_Path")):
                # Not wrapped in the transcript, though qstat.c prt_attr wraps them.
                self.assertEqual(g.replace("\n\t", ""), w)
            else:
                self.assertEqual(g, w)
        one = pbs_qstat_text.render_text([(jid, attrs)], one_line=True)
        self.assertNotIn("\n\t", one)

    def test_json_twin_of_the_griffith_record_sniffs_values(self):
        _, jid, attrs = self.griffith_record()
        for printer in ("old", "cjson"):
            doc = json.loads(self.render(printer, "2020.1.0", "gc-prd-hpcadm", 1592976900,
                                         [(jid, attrs)]))
            job = doc["Jobs"][jid]
            self.assertEqual(job["Exit_status"], 271)
            self.assertEqual(job["session_id"], 53391)
            self.assertEqual(job["substate"], 93)
            self.assertEqual(job["run_count"], 1)
            self.assertEqual(job["history_timestamp"], 1592976849)
            self.assertEqual(job["Resource_List"], {"ncpus": 1, "nodect": 1, "place": "pack",
                                                    "select": 1, "walltime": "00:00:30"})
            self.assertEqual(job["resources_used"]["mem"], "3548kb")
            self.assertEqual(job["resources_used"]["cpupercent"], 0)
            self.assertEqual(job["job_state"], "F")
            self.assertEqual(job["Rerunable"], "True")
            self.assertEqual(job["Job_Name"], "simple_failing_test")
            self.assertEqual(job["Variable_List"]["PBS_O_QUEUE"], "workq")
            self.assertEqual(list(job), [a[0] for a in attrs])

    def test_default_table_is_the_griffith_sample(self):
        cfg = dict(self.cfg, table_trunc_mark="")
        sample = fixture("pbs", "qstat_default_griffith.txt").rstrip("\n").split("\n")
        rows = []
        for line in sample[2:]:
            f = line.split()
            rows.append((f[0] + "m", f[1], f[2] + "@host", f[3] + "00", f[4], f[5]))
        out = pbs_qstat_text.render_table(rows, cfg, wide=False).rstrip("\n").split("\n")
        self.assertEqual([l.rstrip() for l in out], [l.rstrip() for l in sample])
        sample = fixture("pbs", "qstat_x_default_griffith.txt").strip("\n").split("\n")
        out = pbs_qstat_text.render_table([("49230.gc-prd-hpcadm", "example-job", "s1234567@h",
                                 "00:00:00", "F", "workq")], cfg, wide=False)
        self.assertEqual([l.rstrip() for l in out.rstrip("\n").split("\n")],
                         [l.rstrip() for l in sample])
        # HEAD marks truncation with '*' (the default).
        out = pbs_qstat_text.render_table([("49230.gc-prd-hpcadm", "a-very-long-job-name", "u", "0", "Q",
                                 "workq")], self.cfg, wide=False)
        self.assertIn("49230.gc-prd-hpc* a-very-long-job* u ", out)

    def test_sniffers(self):
        old = pbs_qstat_json.old_is_number
        for v in ("0", "-0", "1", "271", "-29", "0.5", "1.50", "1e5", "-12"):
            self.assertTrue(old(v), v)
        for v in ("005", "00", "1.", "00:00:30", "True", "8gb", "", "+5", "inf", "0x10", "-05"):
            self.assertFalse(old(v), v)
        cj = pbs_qstat_json.cjson_parse
        self.assertEqual(cj("005"), 5.0)
        self.assertEqual(cj("1e5"), 100000.0)
        self.assertEqual(cj(" 7 "), 7.0)
        self.assertIs(cj("true"), True)
        self.assertIs(cj("null"), None)
        for v in ("00:00:30", "True", "8gb", "", "1-4", "Queued:0 Running:1", "/bin/bash", "-"):
            self.assertIs(cj(v), pbs_qstat_json.NOT_JSON, v)
        self.assertEqual(pbs_qstat_json.cjson_number(5.0), "5")
        self.assertEqual(pbs_qstat_json.cjson_number(1.5), "1.5")
        self.assertEqual(pbs_qstat_json.cjson_number(1e10), "10000000000")
        self.assertEqual(pbs_qstat_json.json_str('a"b\\c\n\x01'), '"a\\"b\\\\c\\n\\u0001"')

    def test_synth_qstat_1000_jobs(self):
        t0 = time.monotonic()
        r = subprocess.run([sys.executable, "-B", "-m", "standin.pbs", "synth-qstat", "1000"],
                           cwd=HERE, capture_output=True, text=True, timeout=60)
        elapsed = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual(len(doc["Jobs"]), 1000)
        states = {j["job_state"] for j in doc["Jobs"].values()}
        self.assertEqual(states, {"F", "R", "Q"})
        sys.stderr.write("[synth-qstat 1000 jobs: %.2f s] " % elapsed)
        self.assertLess(elapsed, 5.0)


LIMITS = ("queue_max_walltime=43200", "queue_max_cpus=4", "queue_max_mem=16384",
          "queue_default_walltime=3600")
STATE_COUNT = "Transit:0 Queued:0 Held:%d Waiting:0 Running:0 Exiting:0 Begun:0 "
WORKQ = ("Queue: workq\n"
         "    queue_type = Execution\n"
         "    total_jobs = %d\n"
         "    state_count = " + STATE_COUNT + "\n"
         "    resources_max.mem = 16gb\n"
         "    resources_max.ncpus = 4\n"
         "    resources_max.walltime = 12:00:00\n"
         "    resources_default.walltime = 01:00:00\n"
         "    enabled = True\n"
         "    started = True\n"
         "\n")


class QueueTest(unittest.TestCase):
    """qstat -Q -f on one instance with every queue limit set (queue_limits.py)."""

    @classmethod
    def setUpClass(cls):
        cls.si = PbsInstance(*LIMITS)

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_limits(self):
        for args in (["-Q", "-f"], ["-Qf", "workq"], ["-Q", "-f", "@" + self.si.server],
                     ["-Qf", "workq@" + self.si.server]):
            r = self.si.run("qstat", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (0, WORKQ % (0, 0), ""), args)

    def test_02_unknown_queue(self):
        r = self.si.run("qstat", "-Qf", "workqx")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (170, "", "qstat: Unknown queue workqx\n"))
        r = self.si.run("qstat", "-Qf", "nope", "workq")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (170, WORKQ % (0, 0), "qstat: Unknown queue nope\n"))
        r = self.si.run("qstat", "-Q")
        self.assertEqual((r.returncode, r.stderr),
                         (2, "qstat: the stand-in does not support -Q without -f\n"))

    def test_03_counts(self):
        self.si.script("held.sh", "sleep 60\n")
        jid = self.si.qsub("-h", "held.sh")
        r = self.si.run("qstat", "-Qf")
        self.assertEqual((r.returncode, r.stdout), (0, WORKQ % (1, 1)))
        self.si.run("qdel", jid)

    def test_no_limits_no_resources_lines(self):
        cfg = dict(core.DEFAULTS, **pbs_common.DEFAULTS)
        attrs = pbs_qstat_queue.queue_attributes(cfg, [])
        self.assertEqual(pbs_qstat_queue.render_queue("workq", attrs),
                         "Queue: workq\n    queue_type = Execution\n    total_jobs = 0\n"
                         "    state_count = " + STATE_COUNT % 0 + "\n    enabled = True\n"
                         "    started = True\n\n")
        cfg.update(queue_max_mem=1536, queue_max_walltime=720 * 3600 + 61)
        attrs = dict(pbs_qstat_queue.queue_attributes(cfg, []))
        self.assertEqual((attrs["resources_max.mem"], attrs["resources_max.walltime"]),
                         ("1536mb", "720:01:01"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
