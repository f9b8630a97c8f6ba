#!/usr/bin/env python3
"""HTCondor stand-in self-test: the printers and the submit description parser, without a
server. The unit test's two ads (tests/fixtures/htcondor) re-printed as -json and -jsonl
and compared character by character; values, sorting, -attributes, -long, -af;
format_time_short; macros, queue statements, arguments, environment, request_memory."""

import json
import re
import subprocess
import sys
import unittest

from selftest_helpers import HERE, fixture
from standin.htcondor_common import format_time_short
from standin.htcondor_json import (Expr, af_list, json_list, jsonl_list, long_list, select)
from standin.htcondor_submit_file import Hash, SubmitFile, SubmitSyntaxError
from standin.htcondor_submit_keys import (environment_text, memory_mb, parse_arguments,
                                          parse_environment)

ADS = [[("MyType", "Job"), ("ClusterId", 1), ("ProcId", 2), ("Owner", "Bob"), ("JobStatus", 5)],
       [("MyType", "Job"), ("ClusterId", 2), ("Owner", "Alice"), ("ProcId", 1), ("JobStatus", 3)]]


def sample(name):
    """A raw string of FTEST_classad_file_iterator.cpp: `const char name[] = \\nR"(...)";`."""
    text = fixture("htcondor", "json_and_jsonl_ad_format_unit_test.txt")
    return re.search(r'const char %s\[\] = \s*\nR"\((.*?)\)";' % name, text, re.S).group(1)


class PrintersTest(unittest.TestCase):

    def test_json_sample(self):
        """The unit test keeps the ads' own order (-long:nosort): so does select()."""
        shown = [select(ad, keep_order=True) for ad in ADS]
        self.assertEqual(json_list(shown), sample("two_json_ads"))
        self.assertEqual(jsonl_list(shown), sample("two_jsonl_ads"))

    def test_nothing_printed_for_no_ad(self):
        self.assertEqual((json_list([]), jsonl_list([]), long_list([])), ("", "", ""))
        self.assertEqual(json_list([[]]), "[\n{\n}\n]\n")     # an ad with nothing asked for

    def test_sorting_and_attributes(self):
        ad = [("JobStatus", 5), ("HoldReasonSubCode", 0), ("HoldReasonCode", 46),
              ("HoldReason", "x"), ("ClusterId", 7), ("ProcId", 0), ("ExitBySignal", False)]
        self.assertEqual([k for k, _ in select(ad)],
                         ["ClusterId", "ExitBySignal", "HoldReason", "HoldReasonCode",
                          "HoldReasonSubCode", "JobStatus", "ProcId"])
        picked = select(ad, ["procid", "HOLDREASON", "RemoteHost", "clusterid"])
        self.assertEqual(picked, [("ClusterId", 7), ("HoldReason", "x"), ("ProcId", 0)])
        self.assertEqual(json.loads(json_list([picked])), [{"ClusterId": 7, "HoldReason": "x",
                                                            "ProcId": 0}])

    def test_values(self):
        ad = [("A", 'q"b\\s/\n\t\x01'), ("B", True), ("C", None), ("D", 12.0), ("E", 0.5),
              ("F", Expr('RequestMemory * 2')), ("G", -3)]
        self.assertEqual(json_list([ad]),
                         '[\n{\n  "A": "q\\"b\\\\s/\\n\\t\\u0001",\n  "B": true,\n  "C": null,'
                         '\n  "D": 12.0,\n  "E": 0.5,\n  "F": "\\/Expr(RequestMemory * 2)\\/",'
                         '\n  "G": -3\n}\n]\n')
        self.assertEqual(long_list([[("A", "x"), ("B", False), ("C", None)]]),
                         'A = "x"\nB = false\nC = undefined\n\n')
        ads = [[("ClusterId", 4), ("ProcId", 1), ("JobStatus", 2), ("Owner", "u")]]
        self.assertEqual(af_list(ads, ["JobStatus", "ExitCode", "Owner"], "j"),
                         "4.1 2 undefined u\n")
        self.assertEqual(af_list(ads, ["Owner"], "V"), '"u"\n')

    def test_format_time_short(self):
        self.assertEqual([format_time_short(s) for s in (0, 5, 60, 600, 3600, 36000, 90061)],
                         ["00:00", "00:05", "01:00", "10:00", "1:00:00", "10:00:00",
                          "1+01:01:01"])

    def test_synthetic_answer(self):
        r = subprocess.run([sys.executable, "-m", "standin.htcondor", "synth-q", "30"], cwd=HERE,
                           capture_output=True, text=True, timeout=60,
                           env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"})
        ads = json.loads(r.stdout)
        self.assertEqual(len(ads), 30)
        self.assertEqual({a["JobStatus"] for a in ads}, {1, 2, 5})


class DescriptionTest(unittest.TestCase):

    def statements(self, text):
        sf = SubmitFile(text, "/x/j.sub")
        h = Hash()
        queues = []
        for s in sf.statements():
            if s[0] == "set":
                h.set(s[2], s[3], s[1])
            elif s[0] == "plus":
                h.set_plus(s[2], s[3])
            else:
                queues.append(sf.parse_queue(h.expand(s[2], {}), s[1]))
        return h, queues

    def test_macros_and_queue_in(self):
        h, queues = self.statements(
            "# a comment\n\nExecutable = /bin/$(Name)\nname = e$(DOLLAR)(cho)\n"
            "Arguments = \"$(ArrayIndex) $(Cluster).$(Process) $(missing) $(gone:dflt)\"\n"
            "long = a \\\n  b\n+Custom = \"v$(Process)\"\nqueue ArrayIndex in (1, 3, 5)\n")
        (q,) = queues
        live = [dict(p, cluster="7", process=str(i)) for i, p in enumerate(q.procs())]
        self.assertEqual([h.get(v, "executable") for v in live], ["/bin/e$(cho)"] * 3)
        self.assertEqual([parse_arguments(h.get(v, "arguments")) for v in live],
                         [["1", "7.0", "dflt"], ["3", "7.1", "dflt"], ["5", "7.2", "dflt"]])
        self.assertEqual(h.get({}, "LONG"), "a b")
        self.assertEqual([(n, h.expand(v, live[2])) for n, v in h.plus], [("Custom", '"v2"')])

    def test_queue_forms(self):
        _, qs = self.statements("executable = x\nqueue\nqueue 3\nqueue 2 in (a b)\n"
                                "queue x, y from (\n  1 one\n  # skipped\n  2, two\n)\n")
        self.assertEqual([len(q.procs()) for q in qs], [1, 3, 4, 2])
        self.assertEqual([(p["x"], p["y"], p["itemindex"]) for p in qs[3].procs()],
                         [("1", "one", "0"), ("2", "two", "1")])
        self.assertEqual([(p["item"], p["step"]) for p in qs[2].procs()],
                         [("a", "0"), ("a", "1"), ("b", "0"), ("b", "1")])

    def test_bad_lines(self):
        with self.assertRaises(SubmitSyntaxError) as e:
            self.statements("executable = x\nthis is no statement\nqueue\n")
        self.assertEqual((e.exception.line, e.exception.errmsg, e.exception.extra),
                         (2, "invalid queue statement.", 'Submit:-1:Error "/x/j.sub", Line 2: '
                          'cannot parse: this is no statement\n'))
        with self.assertRaises(SubmitSyntaxError) as e:
            self.statements("executable = x\nqueue abc\n")
        self.assertEqual(e.exception.errmsg, "Invalid Queue count expression")

    def test_arguments_environment_memory(self):
        self.assertEqual(parse_arguments('"a \'b c\' \'it\'\'s\' ""q"""'),
                         ["a", "b c", "it's", '"q"'])
        self.assertEqual(parse_arguments("old style  args"), ["old", "style", "args"])
        self.assertEqual(parse_environment('"A=1 B=\'x y\' C="'),
                         [("A", "1"), ("B", "x y"), ("C", "")])
        self.assertEqual(parse_environment("A=1;B=2"), [("A", "1"), ("B", "2")])
        self.assertEqual(environment_text([("A", "1"), ("B", "x y")]), "A=1 B='x y'")
        self.assertEqual([memory_mb(t) for t in ("512", "512M", "1G", "1.5 GB", "100K", "2T",
                                                 "x * 2")],
                         [512, 512, 1024, 1536, 1, 2 * 1024 * 1024, None])


if __name__ == "__main__":
    unittest.main(verbosity=2)
