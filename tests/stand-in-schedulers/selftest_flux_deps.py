#!/usr/bin/env python3
"""Flux stand-in self-test: --dependency=after* (satisfied, never satisfiable: a fatal
`dependency` exception, refused at submission), and the refusals of flux submit and
flux batch (options, durations, unsatisfiable requests, queues, urgency)."""

import json
import os
import unittest

from selftest_flux_helpers import FluxInstance
from selftest_helpers import CTL, read_file
from standin.flux_common import b58, parse_jobid

UNSAT = "[Errno 75] unsatisfiable request\n"


class DependenciesTest(unittest.TestCase):
    """One instance (4 cores, 1 GPU, queues batch and debug, kill timeout 1 s)."""

    @classmethod
    def setUpClass(cls):
        cls.si = FluxInstance("kill_grace=1", "gpus=1", "queues=batch,debug")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_afterok_satisfied_and_never(self):
        si = self.si
        gate = os.path.join(si.work, "gate")
        ok = si.submit("sh", "-c", "while [ ! -e %s ]; do sleep 0.05; done" % gate)
        bad = si.submit("sh", "-c", "while [ ! -e %s ]; do sleep 0.05; done; exit 2" % gate)
        after_ok = si.submit("--dependency=afterok:%s" % ok, "--output=after.out",
                             "sh", "-c", "echo ran")
        never = si.submit("--dependency=afterok:" + bad, "true")
        any_ = si.submit("--dependency=afterany:f" + b58(parse_jobid(never)), "true")
        notok = si.submit("--dependency=afternotok:%d" % parse_jobid(ok), "true")
        job = si.job(never)
        self.assertEqual((job["state"], job["status"], job["dependencies"]),
                         ("DEPEND", "DEPEND", ["after-success=" + bad]))
        self.assertNotIn("t_sched", job)
        r = si.flux("jobs", "-n", "-o", "{status_abbrev} {contextual_info}", never)
        self.assertEqual(r.stdout, "D depends:after-success=%s\n" % bad)
        with open(gate, "w"):
            pass
        self.assertEqual(si.done(after_ok)["result"], "COMPLETED")
        self.assertEqual(read_file(os.path.join(si.work, "after.out")), "ran\n")
        job = si.done(never)
        self.assertEqual((job["result"], job["returncode"], job["exception"]),
                         ("FAILED", 1, {"occurred": True, "severity": 0, "type": "dependency",
                                        "note": "dependency after-success=%s can never be "
                                                "satisfied" % bad}))
        for key in ("t_run", "waitstatus", "t_sched"):
            self.assertNotIn(key, job)
        self.assertEqual(si.done(any_)["result"], "COMPLETED")     # after a failed job
        job = si.done(notok)
        self.assertEqual((job["result"], job["exception"]["note"]),
                         ("FAILED", "dependency after-failure=%d can never be satisfied"
                          % parse_jobid(ok)))
        r = si.flux("jobs", "-n", "-o", "{inactive_reason}", never)
        self.assertEqual(r.stdout, "Exception: type=dependency note=dependency "
                         "after-success=%s can never be satisfied\n" % bad)

    def test_02_afterstart(self):
        si = self.si
        held = si.submit("--urgency=0", "sleep", "30")
        start = si.submit("--dependency=afterstart:" + held, "true")
        old = si.submit("--dependency=after:" + held, "true")
        self.assertEqual(si.job(start)["state"], "DEPEND")
        si.ok("cancel", held)             # never started: the afterstart can never be met
        for jid in (start, old):
            self.assertEqual(si.done(jid)["exception"]["type"], "dependency")
        running = si.submit("sleep", "30")
        si.wait_state(running, ("RUN",))
        self.assertEqual(si.done(si.submit("--dependency=afterstart:" + running,
                                           "true"))["result"], "COMPLETED")
        si.ok("cancel", running)

    def test_03_refused_dependencies(self):
        si = self.si
        failed = si.submit("false")
        done = si.submit("true")
        for jid in (failed, done):
            si.done(jid)
        cases = [("afterok:" + failed, "dependency: afterok: job %s failed or was canceled"
                  % failed),
                 ("afternotok:" + done, "dependency: afternotok: job %s succeeded" % done),
                 ("afterok:123", "dependency: afterok: id 123: job not found"),
                 ("afterok:bar", 'dependency: afterok: "bar" is not a valid jobid'),
                 ("singleton:x", 'dependency scheme "singleton" not supported')]
        for dep, text in cases:
            r = si.flux("submit", "--dependency=" + dep, "true")
            self.assertEqual((r.returncode, r.stdout, r.stderr), (1, "", "[Errno 22] %s\n"
                                                                  % text), dep)
        si.script("ok.sh", "#!/bin/sh\ntrue\n")
        r = si.flux("batch", "-n1", "--dependency=afterok:123", "ok.sh")
        self.assertEqual((r.returncode, r.stderr),
                         (1, "flux-batch: ERROR: dependency: afterok: id 123: job not found\n"))
        self.assertEqual(si.done(si.submit("--dependency=afterany:" + failed,
                                           "true"))["result"], "COMPLETED")
        self.assertEqual(si.run(CTL, "purge").returncode, 0)         # now unknown
        r = si.flux("submit", "--dependency=afterany:" + failed, "true")
        self.assertEqual(r.stderr, "[Errno 22] dependency: afterany: id %s: job not found\n"
                         % failed)
        r = si.flux("jobs", "--json", failed)
        self.assertEqual((r.returncode, r.stderr), (1, "JobID %s unknown\n" % failed))

    def test_04_submit_refusals(self):
        si = self.si
        usage = "usage: flux submit [OPTIONS...] COMMAND [ARGS...]\nflux submit: error: "
        err = "flux-submit: ERROR: "
        for args, rc, text in [
                (["--bogus", "true"], 2, usage + "unrecognized arguments: --bogus\n"),
                (["-n"], 2, usage + "argument -n/--ntasks: expected one argument\n"),
                ([], 1, err + "job command and arguments are missing\n"),
                (["-t", "1x", "true"], 1, err + "invalid Flux standard duration\n"),
                (["-n", "x", "true"], 1, err + "--ntasks: invalid int value 'x'\n"),
                (["-x", "true"], 1, err + "exclusive can only be set with a node count\n"),
                (["-N2", "-n1", "true"], 1, err + "node count must not be greater than "
                                                  "task count\n"),
                (["--gpus-per-node=1", "true"], 1, err + "--gpus-per-node requires --nodes\n"),
                (["--urgency=x", "true"], 1, err + "invalid literal for int() with base 10: "
                                                   "'x'\n"),
                (["--urgency=40", "true"], 1, "[Errno 22] urgency range is [0:31]\n"),
                (["-n5", "true"], 1, UNSAT), (["-N2", "true"], 1, UNSAT),
                (["-g2", "true"], 1, UNSAT), (["-c3", "-n2", "true"], 1, UNSAT),
                (["-q", "other", "true"], 1, "[Errno 22] 'other' is not a valid queue\n"),
                (["--cc=1-2", "-n5", "true"], 1, "cc=1: " + UNSAT + "cc=2: " + UNSAT)]:
            r = si.flux("submit", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (rc, "", text), args)
        r = si.flux("batch", "-n5", "--wrap", "true")
        self.assertEqual((r.returncode, r.stderr), (1, "flux-batch: ERROR: unsatisfiable "
                                                       "request\n"))

    def test_05_resources_queue_bank(self):
        si = self.si
        jid = si.submit("-g1", "-q", "debug", "-B", "acct", "-c2", "--env=-*",
                        "--env=ONLY=1", "--output=env.out", "/usr/bin/env")
        job = si.done(jid)
        self.assertEqual((job["queue"], job["bank"], job["ncores"], job["result"]),
                         ("debug", "acct", 2, "COMPLETED"))
        self.assertRegex(job["annotations"]["sched"]["resource_summary"],
                         r"^rank0/core(\d|\[\d-\d\]),gpu0$")
        env = dict(line.split("=", 1) for line in
                   read_file(os.path.join(si.work, "env.out")).split("\n")[:-1])
        self.assertEqual(env["ONLY"], "1")
        self.assertNotIn("HOME", env)
        self.assertIn("FLUX_JOB_ID", env)
        default_q = si.done(si.submit("true"))
        self.assertEqual(default_q["queue"], "batch")
        whole = si.done(si.submit("-N1", "true"))          # -N alone: the whole node
        self.assertEqual((whole["ncores"], whole["ntasks"], whole["nnodes"]), (4, 1, 1))
        r = si.flux("jobs", "-a", "-f", "completed", "-o", "{id.f58plain}", "-n")
        self.assertIn("f" + b58(parse_jobid(jid)), r.stdout.split())
        r = si.flux("jobs", "--json", "-a", "--name", "env", "-q", "debug")
        self.assertEqual([j["id"] for j in json.loads(r.stdout)["jobs"]], [parse_jobid(jid)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
