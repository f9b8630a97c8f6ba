#!/usr/bin/env python3
"""Flux stand-in self-test, no server: the printers and parsers on the published samples
(tests/fixtures/flux: the returncode vectors, the default and endreason tables), F58 on
fluid.c's own test pairs, FSD, idsets, the option parser, to_dict's keys, synthetic jobs;
then `flux queue list` (the queue's limits) on one instance."""

import json
import os
import subprocess
import sys
import time
import unittest

from selftest_flux_helpers import FluxInstance
from selftest_helpers import HERE, core, fixture
from standin import flux_common as fc
from standin import flux_queue, queue_limits
from standin import flux_submit_options as so
from standin.flux_format import OutputFormat, Formatter, fsd
from standin.flux_jobs import FORMATS
from standin.flux_view import RESULT_NAMES, JobView, returncode

# fluid.c's test/fluid.c f58_tests: (id, F58)
F58_PAIRS = [(0, "1"), (1, "2"), (57, "z"), (1234, "NH"), (1888, "ZZ"), (3363, "zz"),
             (3364, "211"), (4369, "2JL"), (65535, "LUv"), (4294967295, "7YXq9G"),
             (633528662, "xyzzy"), (6731191091817518, "uZZybuNNy"),
             (18446744073709551614, "jpXCZedGfVP"), (18446744073709551615, "jpXCZedGfVQ")]


class Row:
    """A table row for the formatter: the fields the sample shows."""

    def __init__(self, jobid, **fields):
        self.id = fc.parse_jobid(jobid)
        self.id = type("Id", (int,), {"f58": jobid})(self.id)
        self.__dict__.update(fields)


class PrintersTest(unittest.TestCase):

    def test_returncode_vectors(self):
        inputs = fixture("flux", "t_flux-jobs_returncode_input.txt").split("\n")[:-1]
        outputs = fixture("flux", "t_flux-jobs_returncode_output.txt").split("\n")[:-1]
        fmt = fixture("flux", "t_flux-jobs_returncode_format.txt").strip()
        self.assertEqual((len(inputs), len(outputs), fmt), (6, 6, "{returncode:h}"))
        for line, want in zip(inputs, outputs):
            rec = json.loads(line)
            code = returncode(rec.get("waitstatus", ""), RESULT_NAMES.get(rec.get("result"), ""))
            row = type("R", (), {"returncode": code})()
            self.assertEqual(Formatter().format("{%s}" % fmt[1:-1], row), want, line)

    def test_f58(self):
        for value, digits in F58_PAIRS:
            self.assertEqual(fc.f58(value, utf8=True), "\u0192" + digits)
            self.assertEqual(fc.f58(value, utf8=False), "f" + digits)
            for text in ("\u0192" + digits, "f" + digits, str(value), hex(value),
                         fc.encode(value, "dothex"), fc.encode(value, "kvs")):
                self.assertEqual(fc.parse_jobid(text), value, text)
        self.assertEqual(fc.encode(65535, "dothex"), "0000.0000.0000.ffff")
        for bad in ("aaa", "f", "flux", "f1230", "x1", "", "-1", "fjpXCZedGfVR",
                    "18446744073709551616"):
            self.assertIsNone(fc.parse_jobid(bad), bad)
        self.assertEqual(fc.parse_jobid(" 1234 "), 1234)

    def test_locale_choice(self):
        env = {k: v for k, v in os.environ.items()
               if k not in ("LANG", "LC_ALL", "LC_CTYPE", "FLUX_F58_FORCE_ASCII")}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        code = "from standin import flux_common as c; print(c.f58(57))"
        for extra, want in (({"LC_ALL": "C"}, "fz"), ({"LC_ALL": "C.UTF-8"}, "\u0192z"),
                            ({"LC_ALL": "C.UTF-8", "FLUX_F58_FORCE_ASCII": "1"}, "fz"),
                            ({"LANG": "C", "LC_ALL": ""}, "\u0192z")):   # PEP 538
            r = subprocess.run([sys.executable, "-c", code], cwd=HERE, env=dict(env, **extra),
                               capture_output=True, timeout=30)
            self.assertEqual(r.stdout.decode("utf-8").strip(), want, extra)

    def test_default_table_sample(self):
        lines = fixture("flux", "flux_submit_and_jobs_default_interact_guide.txt").split("\n")
        table = [line for line in lines[lines.index(
            "  $ FLUX_URI=$(flux uri $(flux job last)) flux jobs") + 1:] if line]
        rows = []
        for line in table[1:]:
            w = line.split()
            rows.append(Row(w[0], queue="", username=w[1], name=w[2], status_abbrev=w[3],
                            ntasks=int(w[4]), nnodes=int(w[5]),
                            contextual_time=6.593 if w[3] == "R" else 0.0,
                            contextual_info=w[7] if len(w) > 7 else ""))
        got = OutputFormat(FORMATS["default"]).lines(rows)
        self.assertEqual([g.rstrip() for g in got], table)   # the guide dropped end blanks

    def test_endreason_sample(self):
        lines = fixture("flux", "flux_jobs_endreason_pr5055.txt").split("\n")[1:-1]
        rows = []
        for line in lines[1:]:
            w = line.split(None, 5) + [""]
            t = 0.0 if w[4] == "-" else time.mktime(time.strptime(w[4], "%Y-%m-%dT%H:%M:%S"))
            reason = line[56:] if t else ""
            rows.append(Row(w[0], queue="", username=w[1], name=w[2], status_abbrev=w[3],
                            t_inactive=t, inactive_reason=reason))
        rows[2].name = "nosuchcommand"
        self.assertEqual(OutputFormat(FORMATS["endreason"]).lines(rows), lines)

    def test_fsd_idset_and_times(self):
        self.assertEqual([so.parse_fsd(x) for x in ("30s", "10m", "2h", "1d", "1.5h", "90",
                                                    "500ms")],
                         [30, 600, 7200, 86400, 5400, 90, 0.5])
        for bad in ("x", "-1s", "1y", "nan"):
            self.assertRaises(ValueError, so.parse_fsd, bad)
        self.assertEqual(so.time_limit("submit", "2"), 120)     # a bare number: minutes
        self.assertEqual(so.time_limit("submit", "0.5m"), 30)
        with self.assertRaises(fc.FluxError) as e:
            so.time_limit("submit", "1x")
        self.assertEqual(e.exception.message,
                         "flux-submit: ERROR: invalid Flux standard duration\n")
        self.assertEqual(fc.parse_idset("1-4,7"), [1, 2, 3, 4, 7])
        self.assertIsNone(fc.parse_idset("4-1"))
        self.assertEqual(fc.encode_idset([0, 1, 2, 5], brackets=True), "[0-2,5]")
        self.assertEqual((fsd(0.0), fsd(6.5934), fsd(90), fsd(7200)),
                         ("0s", "6.593s", "1.5m", "2h"))

    def test_option_parser(self):
        p = so.Parser("submit")
        words, cmd = p.split(["-n2", "-c", "4", "--job-name=a b", "--cc", "1-3", "-x", "-N1",
                              "--env=-*", "--env", "PATH", "cmd", "-n", "9"])
        self.assertEqual(cmd, ["cmd", "-n", "9"])
        o = p.parse(words)
        self.assertEqual((o["ntasks"], o["cores_per_task"], o["job_name"], o["cc"], o["nodes"],
                          o["exclusive"], o["env"]), ("2", "4", "a b", "1-3", "1", True,
                                                      ["-*", "PATH"]))
        with self.assertRaises(fc.FluxError) as e:
            p.parse(["--bogus", "-n"])
        self.assertEqual((e.exception.status, e.exception.message.split("\n")[1]),
                         (2, "flux submit: error: argument -n/--ntasks: expected one argument"))
        with self.assertRaises(fc.FluxError) as e:
            so.Parser("batch").parse(["--cc=1-2"])
        self.assertEqual(e.exception.message.split("\n")[1],
                         "flux batch: error: unrecognized arguments: --cc=1-2")
        env = so.environment("submit", ["-*", "PATH", "A=$PATH:x", "-B*"],
                             {"PATH": "/bin", "BX": "1", "HOME": "/h"})
        self.assertEqual(env, {"PATH": "/bin", "A": "/bin:x"})

    def test_to_dict_keys(self):
        now = time.time()
        job = dict(seq=1 << 30, phase="queued", dep_hold=0, uid=os.getuid(), start_time=None,
                   eligible_time=now, submit_time=now, end_time=None, history_time=None,
                   cwd="/w", attrs={"name": "sleep", "urgency": 16, "ntasks": 1, "ncores": 1,
                                    "duration": 0.0, "deps": []})
        d = JobView(job, {"host": "vm"}, None, now=now, utf8=False).to_dict()
        self.assertEqual(list(d), ["t_depend", "t_priority", "t_sched", "duration", "name",
                                   "cwd", "ntasks", "ncores", "priority", "id", "t_submit",
                                   "state", "username", "userid", "urgency", "status",
                                   "dependencies", "jobid", "annotations", "exception"])
        self.assertEqual((d["state"], d["jobid"], d["exception"], d["dependencies"]),
                         ("SCHED", "f" + fc.b58(1 << 30), {"occurred": False}, []))

    def test_synth(self):
        r = subprocess.run([sys.executable, "-m", "standin.flux_synth", "30"], cwd=HERE,
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        jobs = json.loads(r.stdout)["jobs"]
        self.assertEqual(len(jobs), 30)
        self.assertEqual({j["status"] for j in jobs}, {"COMPLETED", "FAILED", "RUN", "SCHED"})
        self.assertEqual({j.get("returncode") for j in jobs}, {0, 3, None})


ON = "\033[01;32m \u2714\033[0;0m"     # EN/ST: a green check mark, always
QUEUE_HEADER = " EN ST TDEFAULT   TLIMIT     NNODES     NCORES      NGPUS\n"
ANON = " %s %s       1h      12h      0-inf        0-4      0-inf\n" % (ON, ON)


class QueueListTest(unittest.TestCase):
    """flux queue list on one instance (no named queues) with the limits set; named queues
    without a server. The expected lines are what flux-core 0.65's own OutputFormat prints
    for these values (/work/notes/queue-formats.md)."""

    @classmethod
    def setUpClass(cls):
        cls.si = FluxInstance("queue_max_walltime=43200", "queue_max_cpus=4",
                              "queue_max_mem=16384", "queue_default_walltime=3600")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_anonymous_queue(self):
        self.assertEqual(self.si.ok("queue", "list"), QUEUE_HEADER + ANON)
        self.assertEqual(self.si.ok("queue", "list", "-n"), ANON)
        out = self.si.ok("queue", "list", "-no", "{queue},{defaults.timelimit},"
                         "{limits.timelimit},{limits.max.ncores},{limits.max.nnodes},"
                         "{limits.range.ngpus},{submission},{scheduling},{enabled.ascii}")
        self.assertEqual(out, ",3600.0,43200.0,4,inf,0-inf,enabled,started,y\n")

    def test_unknown_queue(self):
        for args in (["-q", "batch"], ["--queue=batch"], ["-n", "-qbatch"]):
            r = self.si.flux("queue", "list", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr),
                             (1, "", "flux-queue: ERROR: No such queue: batch\n"), args)
        r = self.si.flux("queue", "list", "-o", "{foobar}")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "flux-queue: ERROR: Unknown format field: foobar\n"))

    def test_named_queues_and_no_limits(self):
        limits = queue_limits.Limits(dict(core.DEFAULTS))
        items = [flux_queue.queue_item("batch", True, limits),
                 flux_queue.queue_item("debug", False, limits)]
        lines = OutputFormat(flux_queue.DEFAULT_FORMAT, flux_queue.HEADINGS).lines(items)
        row = " %s %s      inf      inf      0-inf      0-inf      0-inf" % (ON, ON)
        self.assertEqual(lines, ["QUEUE   " + QUEUE_HEADER.rstrip("\n"), "batch*  " + row,
                                 "debug   " + row])


if __name__ == "__main__":
    unittest.main(verbosity=2)
