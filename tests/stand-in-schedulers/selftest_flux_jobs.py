#!/usr/bin/env python3
"""Flux stand-in self-test: a job's life on one instance (4 cores, kill timeout 1 s):
flux submit (tasks, environment, output templates, exit codes, signals, --cc), flux
batch (directives, default output, what its script does not see), flux cancel, flux
jobs (one id, several, unknown ones, tables), the F58 prefix by locale. The time-limit
job is submitted first and checked last, the other tests running meanwhile."""

import json
import os
import time
import unittest

from selftest_flux_helpers import FluxInstance, wait_for
from selftest_helpers import core, read_file
from standin.flux_common import b58, parse_jobid

ENV_SCRIPT = ('echo "rank=$FLUX_TASK_RANK local=$FLUX_TASK_LOCAL_ID size=$FLUX_JOB_SIZE '
              'nnodes=$FLUX_JOB_NNODES id=$FLUX_JOB_ID foo=$FOO uri=$FLUX_URI"; echo e >&2')


def plain(jid):
    return "f" + b58(parse_jobid(jid))


class JobsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.si = FluxInstance("kill_grace=1")
        cls.si.env["FOO"] = "bar baz"
        cls.t0 = time.monotonic()
        cls.limited = cls.si.submit("-t", "2s", "sh", "-c", "echo started; sleep 60")
        cls.host = core.short_hostname()

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_submit_runs_tasks(self):
        si = self.si
        jid = si.submit("--job-name=hello", "-n2", "--output=out-{{id}}.txt",
                        "--error", "err-{{name}}.txt", "sh", "-c", ENV_SCRIPT)
        job = si.done(jid)
        self.assertEqual((job["result"], job["status"], job["success"], job["returncode"],
                          job["waitstatus"], job["exception"]),
                         ("COMPLETED", "COMPLETED", True, 0, 0, {"occurred": False}))
        self.assertEqual((job["id"], parse_jobid(job["jobid"]), job["name"], job["ntasks"],
                          job["ncores"], job["nnodes"], job["ranks"], job["nodelist"],
                          job["cwd"], job["duration"], job["urgency"], job["priority"]),
                         (parse_jobid(jid), job["id"], "hello", 2, 2, 1, "0", self.host,
                          si.work, 0.0, 16, 16))
        for key in ("t_submit", "t_depend", "t_run", "t_cleanup", "t_inactive", "runtime"):
            self.assertIsInstance(job[key], float, key)
        self.assertRegex(job["annotations"]["sched"]["resource_summary"],
                         r"^rank0/core\[(\d)-(\d)\]$")             # 2 cores
        lines = sorted(read_file(os.path.join(si.work, "out-%s.txt" % plain(jid))).split("\n"))
        want = "size=2 nnodes=1 id=%s foo=bar baz uri=local:///run/flux/local" % plain(jid)
        self.assertEqual(lines, ["", "rank=0 local=0 " + want, "rank=1 local=1 " + want])
        self.assertEqual(read_file(os.path.join(si.work, "err-hello.txt")), "e\ne\n")
        # One id: the object alone; two: {"jobs": [...]}, in the order given.
        r = si.flux("jobs", "--json", jid, self.limited)
        self.assertEqual([j["id"] for j in json.loads(r.stdout)["jobs"]],
                         [parse_jobid(jid), parse_jobid(self.limited)])
        r = si.flux("jobs", "-a", "-o", "{id.f58plain} {name} {status_abbrev} {returncode}",
                    "-n", jid)
        self.assertEqual((r.stdout, r.stderr),
                         ("%s hello CD 0\n" % plain(jid),
                          "flux-jobs: WARNING: Filtering options ignored with jobid list\n"))

    def test_02_exit_codes_and_signals(self):
        si = self.si
        three = si.submit("sh", "-c", "exit 3")
        killed = si.submit("sh", "-c", "kill -9 $$")
        missing = si.submit("no-such-command-xyz")
        for jid, rc, ws, reason, exc in (
                (three, 3, 768, "Exit 3", None), (killed, 137, 137 << 8, "Killed", None),
                (missing, 127, 127 << 8, "command not found", "exec")):
            job = si.done(jid)
            self.assertEqual((job["result"], job["returncode"], job["waitstatus"],
                              job["exception"].get("type")), ("FAILED", rc, ws, exc), jid)
            r = si.flux("jobs", "-n", "-o", "{inactive_reason}", jid)
            self.assertEqual(r.stdout, reason + "\n")
        job = si.job(missing)
        self.assertEqual(job["exception"]["note"], "task 0 (host %s): start failed: "
                         "no-such-command-xyz: No such file or directory" % self.host)

    def test_03_cc_copies(self):
        si = self.si
        ids = si.submit_all("--cc=1-3", "--job-name=copy{cc}", "--output=cc-{cc}.out",
                            "sh", "-c", "echo cc=$FLUX_JOB_CC arg={cc}")
        self.assertEqual(len(set(ids)), 3)
        self.assertEqual(sorted(ids, key=parse_jobid), ids)      # FLUIDs increase
        for i, jid in enumerate(ids, 1):
            self.assertEqual(si.done(jid)["name"], "copy%d" % i)
            self.assertEqual(read_file(os.path.join(si.work, "cc-%d.out" % i)),
                             "cc=%d arg=%d\n" % (i, i))
        jid = si.submit("--bcc=7", "--output=bcc-{cc}-{{cc}}-{{id.dec}}-{{size}}.out",
                        "sh", "-c", "printenv FLUX_JOB_CC || echo unset")
        si.done(jid)                      # {{cc}} is no shell template: it stays as it is
        self.assertEqual(read_file(os.path.join(si.work, "bcc-7-{{cc}}-%d-1.out"
                                                % parse_jobid(jid))), "unset\n")
        r = si.flux("submit", "--cc=1-2", "echo", "{x}")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "flux-submit: ERROR: Invalid replacement string in "
                          "command: '{x}'\n"))

    def test_04_batch(self):
        si = self.si
        si.script("job.sh", "#!/bin/bash\n# flux: -n2\n# flux: --job-name=batchy\n"
                  'echo "id=${FLUX_JOB_ID-unset} cc=${FLUX_JOB_CC-unset} args=$*"\n'
                  "echo to-err >&2\n")
        jid = si.batch("-c2", "job.sh", "a", "b")
        job = si.done(jid)
        self.assertEqual((job["name"], job["ntasks"], job["ncores"], job["result"]),
                         ("batchy", 2, 4, "COMPLETED"))
        self.assertEqual(read_file(os.path.join(si.work, "flux-%s.out" % plain(jid))),
                         "id=unset cc=unset args=a b\nto-err\n")
        jid = si.batch("-n1", "--output=stdin.out", stdin="#!/bin/sh\necho from stdin\n")
        self.assertEqual(si.done(jid)["name"], "batch")
        self.assertEqual(read_file(os.path.join(si.work, "stdin.out")), "from stdin\n")
        si.script("noshebang.sh", "echo hi\n")
        for args, rc, err in (
                (["job.sh"], 0, None),
                (["-N1", "job.sh"], 0, None),
                (["-n1", "noshebang.sh"], 1,
                 "flux-batch: ERROR: noshebang.sh does not appear to start with '#!'\n"),
                (["-n1", "nosuch.sh"], 1,
                 "flux-batch: ERROR: No such file or directory: 'nosuch.sh'\n"),
                (["--cc=1-2", "-n1", "job.sh"], 2,
                 "usage: flux batch [OPTIONS...] [SCRIPT] [ARGS...]\n"
                 "flux batch: error: unrecognized arguments: --cc=1-2\n")):
            r = si.flux("batch", *args)
            if err is not None:
                self.assertEqual((r.returncode, r.stdout, r.stderr), (rc, "", err), args)
        si.script("bare.sh", "#!/bin/sh\ntrue\n")
        r = si.flux("batch", "bare.sh")
        self.assertEqual((r.returncode, r.stderr), (1, "flux-batch: ERROR: Number of slots "
                                                       "to allocate must be specified\n"))

    def test_05_cancel(self):
        si = self.si
        held = si.submit("--urgency=hold", "true")
        job = si.job(held)
        self.assertEqual((job["state"], job["priority"]), ("SCHED", 0))
        run = si.submit("sleep", "60")
        stubborn = si.submit("--output=stubborn.out", "sh", "-c",
                             "trap 'echo term' TERM; echo ready; while :; do sleep 0.1; done")
        si.wait_state(run, ("RUN",))
        wait_for(lambda: read_file(os.path.join(si.work, "stubborn.out")) == "ready\n",
                 what="the stubborn job to trap SIGTERM")
        r = si.flux("cancel", held, run, stubborn)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        job = si.job(held)
        self.assertEqual((job["state"], job["result"], job["returncode"], job["exception"]),
                         ("INACTIVE", "CANCELED", -128,
                          {"occurred": True, "severity": 0, "type": "cancel", "note": ""}))
        self.assertNotIn("waitstatus", job)
        self.assertNotIn("t_run", job)
        for jid, rc in ((run, 143), (stubborn, 137)):         # SIGTERM; SIGKILL 1 s later
            job = si.done(jid)
            self.assertEqual((job["result"], job["returncode"], job["exception"]["type"]),
                             ("CANCELED", rc, "cancel"))
        self.assertIn("\nterm\n", read_file(os.path.join(si.work, "stubborn.out")))
        r = si.flux("cancel", run, "123", env={"LC_ALL": "C"})     # ids as `f...`
        self.assertEqual((r.returncode, r.stderr),
                         (1, "flux-cancel: ERROR: %s: job is inactive\n"
                          "flux-cancel: ERROR: f%s: unknown job id\n" % (plain(run), b58(123))))

    def test_05b_urgency_hold_and_release(self):
        si = self.si
        gate = si.submit("sh", "-c", "while [ ! -e %s/open ]; do sleep 0.1; done" % si.work)
        si.wait_state(gate, ("RUN",))
        r = si.flux("job", "urgency", gate, "hold")  # resources allocated: refused
        self.assertEqual((r.returncode, r.stderr),
                         (1, "flux-job: %s: urgency cannot be changed once resources are allocated\n" % gate))
        held = si.submit("--dependency=afterany:" + gate, "true")
        r = si.flux("job", "urgency", held, "hold")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        twin = si.submit("--dependency=afterany:" + gate, "true")
        open(os.path.join(si.work, "open"), "w").close()
        si.done(twin)
        job = si.job(held)  # its dependency was met; urgency 0 keeps it
        self.assertEqual((job["state"], job["urgency"], job["priority"]), ("SCHED", 0, 0))
        self.assertEqual(si.flux("job", "urgency", held, "32").returncode, 1)
        r = si.flux("job", "urgency", "-v", held, "default")
        self.assertEqual((r.returncode, r.stdout), (0, "%s: 0\n" % held))
        self.assertEqual(si.done(held)["result"], "COMPLETED")
        r = si.flux("job", "urgency", held, "hold")
        self.assertEqual((r.returncode, r.stderr), (1, "flux-job: %s: job is inactive\n" % held))

    def test_06_unknown_ids_and_locale(self):
        si = self.si
        r = si.flux("jobs", "--json", "123")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (1, "", "JobID 123 unknown\n"))
        r = si.flux("jobs", "--json", "\u01921", "f2")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "JobID \u01921 unknown\nJobID f2 unknown\n"))
        r = si.flux("jobs", "--json", self.limited, "123")
        self.assertEqual((r.returncode, r.stderr), (0, "JobID 123 unknown\n"))
        self.assertEqual(len(json.loads(r.stdout)["jobs"]), 1)
        r = si.flux("jobs", "--json", "-a", "-u", "nobody")
        self.assertEqual((r.returncode, r.stdout), (0, '{"jobs": []}\n'))
        for env, prefix in (({"LC_ALL": "C"}, "f"), ({"LC_ALL": "C.UTF-8"}, "\u0192"),
                            ({"LC_ALL": "C.UTF-8", "FLUX_F58_FORCE_ASCII": "1"}, "f")):
            out = si.ok("submit", "true", env=env)
            self.assertEqual(out[0], prefix, env)
            r = si.flux("jobs", "--json", out.strip(), env=env)
            self.assertIn('"jobid": "%s' % ("\\u0192" if prefix != "f" else "f"), r.stdout)

    def test_99_time_limit(self):
        si = self.si
        job = si.done(self.limited, timeout=60)
        elapsed = time.monotonic() - self.t0
        self.assertEqual((job["result"], job["returncode"], job["exception"], job["duration"]),
                         ("TIMEOUT", 142, {"occurred": True, "severity": 0, "type": "timeout",
                                           "note": "resource allocation expired"}, 2.0))
        self.assertGreaterEqual(elapsed, 2.0)
        self.assertLess(job["runtime"], 4.0)
        r = si.flux("jobs", "-n", "-o", "{status_abbrev} {inactive_reason}", self.limited)
        self.assertEqual(r.stdout, "TO Timeout\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
