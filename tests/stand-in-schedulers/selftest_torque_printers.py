#!/usr/bin/env python3
"""Torque stand-in self-test: the printers against the published samples in
tests/fixtures/torque (no server), the default table, ids, values, synth-qstat;
`qstat -Q -f` (the queue's limits) on one instance."""

import os
import subprocess
import sys
import time
import unittest
import xml.etree.ElementTree as ET

from selftest_helpers import HERE, TorqueInstance, core, fixture, xml_jobs
from standin import (torque_common, torque_qstat_queue, torque_qstat_text, torque_qstat_xml,
                     torque_resources)
from standin.torque_view import RES, STR


def sample_jobs(text):
    """A published <Data> document -> [(Job_Id, [(name, value, kind)])] as job_view makes."""
    jobs = []
    for job in ET.fromstring(text):
        attrs = [(e.tag, [(c.tag, c.text or "") for c in e], RES) if len(e) else
                 (e.tag, e.text or "", STR) for e in job]
        assert attrs[0][0] == "Job_Id"
        jobs.append((attrs[0][1], attrs[1:]))
    return jobs


def sample_attributes(text):
    """A published `qstat -f` record -> (job id, [(name, resource, value)]), continuation
    lines (8 spaces: the tabs were expanded) and raw newlines (column 0) undone."""
    lines = [l for l in text.rstrip("\n").split("\n") if l]
    jid = lines[0].split("Job Id: ", 1)[1]
    attrs = []
    for line in lines[1:]:
        if line.startswith("        "):
            attrs[-1][2] += line[8:]
        elif line.startswith("    "):
            name, value = line[4:].split(" = ", 1)
            name, _, res = name.partition(".")
            attrs.append([name, res or None, value])
        else:
            attrs[-1][2] += "\n" + line
    return jid, attrs


class TorquePrinterTest(unittest.TestCase):

    def check_xml_sample(self, name):
        text = fixture("torque", name)
        # Torque 6 qstat never prints exec_port (qstat.c); the older BatchEuphoria sample has it.
        data = text.rstrip("\n").replace("<exec_port>15003</exec_port>", "")
        jobs = sample_jobs(data)
        self.assertEqual(torque_qstat_xml.render_data(jobs), data)
        doc = torque_qstat_xml.render_document(jobs)
        self.assertTrue(doc.startswith('<?xml version="1.0"?>\n<Data><Job><Job_Id>'))
        self.assertEqual([j for j, _ in xml_jobs(doc)], [j for j, _ in jobs])
        return jobs

    def test_xml_printer_is_the_fyrd_sample(self):
        jobs = self.check_xml_sample("qstat_x_fyrd_torque.xml")
        ids = [j for j, _ in jobs]
        self.assertIn("673175[].superserver.stanford.edu", ids)
        self.assertIn("673175[19].fruster.stanford.edu", ids)

    def test_xml_printer_is_the_batcheuphoria_samples(self):
        self.check_xml_sample("qstat_x_batcheuphoria_outputQueued.xml")
        jobs = self.check_xml_sample("qstat_x_batcheuphoria_outputFinished.xml")
        hint = dict((n, v) for n, v, _ in jobs[0][1])["sched_hint"]
        self.assertIn("\n\nUnable to copy file", hint)        # raw newlines stay raw

    def test_xml_escapes_like_mxml(self):
        jobs = [("1.s", [("Job_Name", "a<b>&'\"\x01\nz", STR),
                         ("Resource_List", [("mem", "1gb"), ("nodes", "1")], RES),
                         ("exec_port", "15003", STR), ("queue", "batch", STR)])]
        self.assertEqual(torque_qstat_xml.render_data(jobs),
                         "<Data><Job><Job_Id>1.s</Job_Id><Job_Name>a&lt;b&gt;&amp;&apos;&quot;"
                         "\x01\nz</Job_Name><Resource_List><mem>1gb</mem><nodes>1</nodes>"
                         "</Resource_List><queue>batch</queue></Job></Data>")
        self.assertEqual(torque_qstat_xml.render_document([]),
                         '<?xml version="1.0"?>\n<Data></Data>\n')

    def check_text_sample(self, name):
        # The mavis samples are Python string literals: "\\" there is one backslash in
        # qstat's output (qsub escapes , ' " \ and newlines in -V values with one).
        text = fixture("torque", name).replace("\\\\", "\\")
        jid, attrs = sample_attributes(text)
        out = ["Job Id: %s\n" % jid]
        for n, res, value in attrs:
            if n in torque_qstat_text.TIME_ATTRS:
                out.append(torque_qstat_text.prt_attr(n, res, value + "\n"))
            else:
                out.append(torque_qstat_text.prt_attr(n, res, value) + "\n")
        # A value that ends exactly at the fold leaves a line holding only the TAB; the
        # published sample has it as an empty line (trailing white space stripped).
        got = [l.expandtabs(8).rstrip() for l in "".join(out).split("\n")]
        self.assertEqual([l for l in got if l], [l for l in text.split("\n") if l])
        one = "".join(torque_qstat_text.prt_attr(n, r, v, torque_qstat_text.MAXLINESIZE) + "\n"
                      for n, r, v in attrs)
        self.assertNotIn("\n\t", one)
        return dict((n if r is None else n + "." + r, v) for n, r, v in attrs)

    def test_text_printer_wraps_like_the_mavis_samples(self):
        done = self.check_text_sample("qstat_f_mavis_0.txt")
        self.assertEqual((done["job_state"], done["exit_status"]), ("C", "0"))
        deleted = self.check_text_sample("qstat_f_mavis_1.txt")
        self.assertEqual(deleted["exit_status"], "271")
        self.assertEqual(deleted["comment"], "Job 48[].torque01.bcgsc.ca deleted because its "
                         "dependency of array 43[].torque01.bcgsc.ca can never be satisfied")

    def test_default_table(self):
        t = torque_qstat_text
        self.assertEqual(t.HEADER.split("\n")[0].index("Name"), 26)
        attrs = [("Job_Name", "a-very-long-job-name/with/slash", STR),
                 ("Job_Owner", "someone@host", STR), ("job_state", "R", STR),
                 ("queue", "batch", STR), ("resources_used", [("cput", "00:01:02")], RES)]
        row = t.summary_row("6058223.brown-adm.rcac.purdue.edu", attrs)
        self.assertEqual(row, "6058223.brown-adm.rcac.purdue .../with/slash   someone        "
                              " 00:01:02 R batch          \n")
        row = t.summary_row("12.vm", [("Job_Name", "STDIN", STR), ("Job_Owner", "u@h", STR),
                                      ("job_state", "Q", STR), ("queue", "batch", STR)])
        # %-26s %-16s %-15s %8s %1s %-15s (qstat.c display_statjob)
        self.assertEqual(row, "12.vm" + " " * 22 + "STDIN" + " " * 12 + "u" + " " * 22 + "0 Q batch"
                         + " " * 10 + "\n")

    def test_ids_and_values(self):
        p = torque_common.parse_ref
        self.assertEqual(p("12", "vm").shown, "12.vm")
        self.assertEqual((p("12[]", "vm").kind, p("12[].vm", "vm").shown), ("array", "12[].vm"))
        self.assertEqual((p("12[3].vm", "vm").kind, p("12[3]", "vm").idx), ("sub", 3))
        self.assertEqual(p("21.vm[]", "vm").shown, "21[].vm")
        self.assertFalse(p("12.other", "vm").server_ok)
        self.assertIsNone(p("x12", "vm"))
        r = torque_resources
        self.assertEqual([r.time_seconds(v) for v in ("01:00:00", "00:04:00:00", "90", "1:2.6")],
                         [3600, 14400, 90, 63])
        self.assertIsNone(r.time_seconds("soon"))
        self.assertEqual([r.size_text(v) for v in ("1024M", "4gb", "100")],
                         ["1024mb", "4gb", "100b"])

    def test_synth_qstat_1000_jobs(self):
        t0 = time.monotonic()
        r = subprocess.run([sys.executable, "-B", "-m", "standin.torque_synth", "1000"], cwd=HERE,
                           capture_output=True, text=True, timeout=60)
        elapsed = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        jobs = xml_jobs(r.stdout)
        self.assertEqual(len(jobs), 1000)
        self.assertEqual({a["job_state"] for _, a in jobs}, {"C", "R", "Q"})
        sys.stderr.write("[torque synth-qstat 1000 jobs: %.2f s] " % elapsed)
        self.assertLess(elapsed, 5.0)


LIMITS = ("queue_max_walltime=43200", "queue_max_cpus=4", "queue_max_mem=16384",
          "queue_default_walltime=3600")
STATE_COUNT = "Transit:0 Queued:0 Held:%d Waiting:0 Running:0 Exiting:0 Complete:0 "
BATCH = ("Queue: batch\n"
         "    queue_type = Execution\n"
         "    total_jobs = %d\n"
         "    state_count = " + STATE_COUNT + "\n"
         "    resources_max.mem = 16gb\n"
         "    resources_max.ncpus = 4\n"
         "    resources_max.walltime = 12:00:00\n"
         "    resources_default.walltime = 01:00:00\n"
         "    mtime = %d\n"
         "    enabled = True\n"
         "    started = True\n"
         "\n")


class QueueTest(unittest.TestCase):
    """qstat -Q -f on one instance with every queue limit set (queue_limits.py)."""

    @classmethod
    def setUpClass(cls):
        cls.si = TorqueInstance(*LIMITS)
        cls.mtime = int(os.stat(os.path.join(cls.si.state, core.CONFIG_NAME)).st_mtime)

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_limits(self):
        for args in (["-Q", "-f"], ["-Qf", "batch"], ["-Q", "-f", "batch@" + self.si.server]):
            r = self.si.run("qstat", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr),
                             (0, BATCH % (0, 0, self.mtime), ""), args)

    def test_02_unknown_queue(self):
        err = "qstat: Unknown queue MSG=cannot locate queue batchx \n"
        r = self.si.run("qstat", "-Qf", "batchx")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (172, "", err))
        r = self.si.run("qstat", "-Qf", "batchx", "batch")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (172, BATCH % (0, 0, self.mtime), err))
        r = self.si.run("qstat", "-Q")
        self.assertEqual((r.returncode, r.stderr),
                         (2, "qstat: the stand-in does not support -Q without -f\n"))

    def test_03_counts(self):
        self.si.script("held.sh", "sleep 60\n")
        jid = self.si.qsub("-h", "held.sh")
        r = self.si.run("qstat", "-Qf")
        self.assertEqual((r.returncode, r.stdout), (0, BATCH % (1, 1, self.mtime)))
        self.si.run("qdel", jid)

    def test_no_limits_no_resources_lines(self):
        cfg = dict(core.DEFAULTS, **torque_common.DEFAULTS)
        attrs = torque_qstat_queue.queue_attributes(cfg, [], {}, 1604051516)
        self.assertEqual(torque_qstat_queue.render_queue("batch", attrs),
                         "Queue: batch\n    queue_type = Execution\n    total_jobs = 0\n"
                         "    state_count = " + STATE_COUNT % 0 + "\n"
                         "    mtime = 1604051516\n    enabled = True\n    started = True\n\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
