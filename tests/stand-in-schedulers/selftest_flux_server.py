#!/usr/bin/env python3
"""Flux stand-in self-test: the server side. The broker out of reach (outage, --hang),
node failure and `preempt`, inactive jobs purged (inactive_age, standin-ctl purge),
FLUIDs beyond 2^53 (instance_uptime), 1000 jobs, an instance without the feasibility
validator, and stop.sh."""

import json
import os
import shutil
import subprocess
import sys
import time
import unittest

from selftest_flux_helpers import FluxInstance, wait_for
from selftest_helpers import CTL, core, read_file
from standin import flux_synth
from standin.flux_common import parse_jobid

UNREACHABLE = "ERROR: Unable to connect to Flux: broker socket /run/flux/local was not found\n"


class ServerTest(unittest.TestCase):
    """One instance: kill timeout 1 s, inactive jobs kept 8 s (a loaded machine sees a
    job end first), up 10 days already."""

    @classmethod
    def setUpClass(cls):
        cls.si = FluxInstance("kill_grace=1", "inactive_age=8", "instance_uptime=864000")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_outage(self):
        si = self.si
        # Running until the test lets it end (a gate file): a loaded machine cannot see it
        # end, and be forgotten, before seeing it run.
        gate = os.path.join(si.work, "slow.go")
        jid = si.submit("--output=slow.out", "sh", "-c",
                        "while [ ! -e %s ]; do sleep 0.1; done; echo survived" % gate)
        si.wait_state(jid, ("RUN",))
        self.assertEqual(si.run(CTL, "outage", "on").returncode, 0)
        for args in (["jobs", "--json", jid], ["submit", "true"], ["batch", "-n1", "--wrap",
                                                                   "true"], ["cancel", jid]):
            r = si.flux(*args)
            self.assertEqual((r.returncode, r.stdout, r.stderr),
                             (1, "", "flux-%s: %s" % (args[0], UNREACHABLE)), args)
        self.assertEqual(si.ok("job", "id", jid), "%d\n" % parse_jobid(jid))   # no broker
        r = si.flux("submit", "--bogus", "true")             # options first: exit 2
        self.assertEqual(r.returncode, 2)
        open(gate, "w").close()
        wait_for(lambda: read_file(os.path.join(si.work, "slow.out")) == "survived\n",
                 what="the job to finish during the outage")
        self.assertEqual(si.run(CTL, "outage", "off").returncode, 0)
        self.assertEqual(si.done(jid)["result"], "COMPLETED")
        jid = si.submit("sleep", "60")
        si.wait_state(jid, ("RUN",))
        self.assertEqual(si.run(CTL, "outage", "on", "--hang").returncode, 0)
        p = subprocess.Popen(["flux", "jobs", "--json", jid], env=si.env, cwd=si.work,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            with self.assertRaises(subprocess.TimeoutExpired):
                p.wait(timeout=0.5)       # a negative check: it must still be waiting
        finally:
            si.run(CTL, "outage", "off")
        out, err = p.communicate(timeout=30)
        self.assertEqual((p.returncode, json.loads(out)["state"]), (0, "RUN"), err)
        si.ok("cancel", jid)

    def test_02_node_failure_and_preempt(self):
        si = self.si
        a, b = si.submit("sleep", "60"), si.submit("sleep", "60")
        for jid in (a, b):
            si.wait_state(jid, ("RUN",))
        self.assertEqual(si.run(CTL, "node-fail", a).returncode, 0)
        self.assertEqual(si.run(CTL, "preempt", b).returncode, 0)
        job = si.done(a)
        self.assertEqual((job["result"], job["returncode"], job["exception"]),
                         ("FAILED", -9, {"occurred": True, "severity": 0, "type": "exec",
                                         "note": "node failure on %s (rank 0)"
                                                 % core.short_hostname()}))
        job = si.done(b)
        self.assertEqual((job["result"], job["returncode"], job["exception"]["type"]),
                         ("FAILED", 143, "preempt"))

    def test_03_inactive_age_and_big_ids(self):
        si = self.si
        jid = si.submit("true")
        self.assertGreater(parse_jobid(jid), 1 << 53)
        job = si.done(jid)
        self.assertEqual(job["id"], parse_jobid(jid))          # exact beyond 2^53
        wait_for(lambda: si.flux("jobs", "--json", jid).returncode == 1, timeout=30,
                 what="the job to be purged after inactive_age")
        r = si.flux("submit", "--dependency=afterany:" + jid, "true")
        self.assertEqual(r.stderr, "[Errno 22] dependency: afterany: id %s: job not found\n"
                         % jid)

    def test_04_flux_jobs_of_1000_jobs(self):
        si = self.si
        store = core.Store(si.state)
        rows = flux_synth.synthetic_rows(1000, store.cfg)
        with store.write() as cur:
            for row in rows:
                row = dict(row)
                del row["rid"]
                if row["phase"] == "done":          # kept past inactive_age
                    row["history_time"] = time.time() + 3600
                else:                               # held: the server leaves them alone
                    row.update(phase="held", user_hold=1, pgid=None)
                core.Store.insert_job(cur, **row)
        store.close()
        t0 = time.monotonic()
        r = si.flux("jobs", "--json", "-a")
        elapsed = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreaterEqual(len(json.loads(r.stdout)["jobs"]), 1000)
        sys.stderr.write("[flux jobs --json -a of 1000 jobs: %.2f s] " % elapsed)
        self.assertLess(elapsed, 3.0)
        with core.Store(si.state).write() as cur:
            cur.execute("DELETE FROM jobs WHERE seq IN (%s)" % ",".join(
                str(r["seq"]) for r in rows))


class StopTest(unittest.TestCase):
    """An instance without the feasibility validator (2 cores), then stop.sh."""

    def test_unsatisfiable_then_stop(self):
        si = FluxInstance("feasibility=0", "slots=2", "kill_grace=1")
        self.addCleanup(shutil.rmtree, si.root, True)
        try:
            jid = si.submit("-n3", "true")         # accepted, then denied by the scheduler
            job = si.done(jid)
            self.assertEqual((job["result"], job["returncode"], job["exception"]),
                             ("FAILED", 1, {"occurred": True, "severity": 0, "type": "alloc",
                                            "note": "unsatisfiable request"}))
            a = si.submit("-n2", "sh", "-c", "sleep 300 & echo $! > child.$FLUX_TASK_RANK; "
                          "wait")
            si.wait_state(a, ("RUN",))
            wait_for(lambda: all(read_file(os.path.join(si.work, "child.%d" % i))
                                 for i in (0, 1)), what="the children's pids")
            children = [int(read_file(os.path.join(si.work, "child.%d" % i))) for i in (0, 1)]
            store = core.Store(si.state)
            groups = [r[0] for r in store.db.execute(
                "SELECT pgid FROM jobs WHERE pgid IS NOT NULL")]
            store.close()
        finally:
            si.stop()
        self.assertFalse(core.pid_alive(si.pid))
        self.assertFalse(any(core.pid_alive(c) for c in children))
        self.assertFalse(any(core.group_members(g) for g in groups))

if __name__ == "__main__":
    unittest.main(verbosity=2)
