#!/usr/bin/env python3
"""HTCondor stand-in self-test: a job's life on one instance (4 slots, kill grace 1 s),
driven as the C++ backend drives HTCondor: condor_submit's outputs; running, completed
(exit code, signal) and the history; a `queue ArrayIndex in (...)` cluster with
max_materialize and its environment; allowed_job_duration (hold 46) and request_memory
(hold 34/102) holds; condor_rm of idle, running and held jobs; nothing printed for no
match; condor_submit's refusals."""

import json
import os
import time
import unittest

from selftest_helpers import read_file, wait_for
from selftest_htcondor_helpers import HtcondorInstance
from standin.htcondor_common import fqdn

SLEEPER = "executable = /bin/sleep\narguments = %d\n%squeue %s\n"


class JobsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.si = HtcondorInstance("kill_grace=1", "slots=4")
        cls.si.env["FOO"] = "from the submitter"
        cls.host = fqdn()

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_submit_outputs_run_and_history(self):
        si = self.si
        script = si.write("job.sh", "#!/bin/sh\necho \"args=$* foo=${FOO-unset} "
                          "index=$YARD_HTCONDOR_INDEX pwd=$(pwd)\"\necho err >&2\n"
                          "test -n \"$_CONDOR_SCRATCH_DIR\" && test -f \"$_CONDOR_JOB_AD\" && "
                          "echo scratch\nwhile [ ! -e %s ]; do sleep 0.1; done\nexit 3\n"
                          % os.path.join(si.work, "job.go"))   # runs until the test lets it end
        os.chmod(script, 0o755)
        body = ("# HTCondor submit description: condor_submit FILE\nuniverse = vanilla\n"
                "executable = job.sh\narguments = \"a 'b c'\"\nbatch_name = yard-1-name\n"
                "request_cpus = 1\nrequest_memory = 512M\nallowed_job_duration = 60\n"
                "output = out.$(Cluster).$(Process)\nerror = err.$(Cluster).$(Process)\n"
                "environment = \"YARD_HTCONDOR_INDEX=$(Process)\"\naccounting_group = acct\n"
                "priority = 3\nqueue\n")
        si.write("one.sub", body)
        r = si.run("condor_submit", "one.sub")
        self.assertEqual(r.returncode, 0, r.stderr)
        cluster = int(r.stdout.split()[-1][:-1])
        self.assertEqual((r.stdout, r.stderr),
                         ("Submitting job(s).\n1 job(s) submitted to cluster %d.\n" % cluster,
                          "To monitor your job(s), run: condor_watch_q -clusters %d\n" % cluster))
        jid = "%d.0" % cluster
        ad = si.wait_state(jid, (2,))
        self.assertEqual((ad["RemoteHost"], ad["NumJobStarts"], ad["JobBatchName"],
                          ad["ExitBySignal"], "ExitCode" in ad, "CompletionDate" in ad),
                         ("slot1@%s" % self.host, 1, "yard-1-name", False, False, False))
        self.assertEqual(sorted(ad), sorted(["ClusterId", "ProcId", "JobStatus", "JobBatchName",
                                             "Owner", "ExitBySignal", "NumJobStarts",
                                             "JobStartDate", "EnteredCurrentStatus",
                                             "RemoteHost"]))
        open(os.path.join(si.work, "job.go"), "w").close()
        done = si.wait_gone(jid)
        self.assertEqual((done["JobStatus"], done["ExitCode"], done["ExitBySignal"],
                          "RemoteHost" in done, done["NumJobStarts"]), (4, 3, False, False, 1))
        self.assertGreaterEqual(done["CompletionDate"], done["JobStartDate"])
        self.assertEqual(done["EnteredCurrentStatus"], done["CompletionDate"])
        self.assertEqual(read_file(os.path.join(si.work, "out.%s" % jid)),
                         "args=a b c foo=unset index=0 pwd=%s\nscratch\n" % si.work)
        self.assertEqual(read_file(os.path.join(si.work, "err.%s" % jid)), "err\n")
        # -completedsince: jobs completed after T only; -limit
        r = si.run("condor_history", str(cluster), "-json", "-attributes", "ProcId",
                   "-completedsince", str(done["CompletionDate"]))
        self.assertEqual((r.returncode, r.stdout), (0, ""))
        r = si.run("condor_history", jid, "-json", "-attributes", "ProcId,ClusterId",
                   "-completedsince", str(done["CompletionDate"] - 1), "-limit", "1")
        self.assertEqual(r.stdout, '[\n{\n  "ClusterId": %d,\n  "ProcId": 0\n}\n]\n' % cluster)

    def test_02_signal_getenv_and_terse(self):
        si = self.si
        si.write("sig.sh", "#!/bin/sh\necho \"$FOO\" > sig.out\nkill -9 $$\n")
        os.chmod(os.path.join(si.work, "sig.sh"), 0o755)
        r = si.run("condor_submit", "-terse", os.path.join(si.work, "sig.sub"))
        self.assertEqual(r.returncode, 1)           # not written yet: unreadable
        self.assertEqual(r.stderr, "\nERROR: Failed to open command file (%s) (No such file or "
                         "directory)\n" % os.path.join(si.work, "sig.sub"))
        cluster = si.submit("sig.sub", "executable = sig.sh\ngetenv = FOO, BAR\nqueue 2\n")
        r = si.run("condor_submit", "-terse", os.path.join(si.work, "sig.sub"))
        self.assertEqual((r.stdout, r.stderr), ("%d.0 - %d.1\n" % (cluster + 1, cluster + 1), ""))
        for proc in (0, 1):
            ad = si.wait_gone("%d.%d" % (cluster, proc))
            self.assertEqual((ad["JobStatus"], ad["ExitBySignal"], ad["ExitSignal"],
                              "ExitCode" in ad), (4, True, 9, False))
        self.assertEqual(read_file(os.path.join(si.work, "sig.out")), "from the submitter\n")

    def test_03_array_with_max_materialize(self):
        si = self.si
        log = os.path.join(si.work, "array.log")
        si.write("arr.sh", "#!/bin/sh\necho \"start $YARD_HTCONDOR_INDEX $(date +%%s.%%N)\" >> %s\n"
                 "sleep 1\necho \"end $YARD_HTCONDOR_INDEX $(date +%%s.%%N)\" >> %s\n" % (log, log))
        os.chmod(os.path.join(si.work, "arr.sh"), 0o755)
        body = ("executable = arr.sh\nenvironment = \"YARD_HTCONDOR_INDEX=$(ArrayIndex)\"\n"
                "max_materialize = 2\nqueue ArrayIndex in (1, 3, 5, 7)\n")
        si.write("arr.sub", body)
        r = si.run("condor_submit", "arr.sub")
        cluster = int(r.stdout.split()[-1][:-1])
        self.assertEqual(r.stdout, "Submitting job(s)\n4 job(s) submitted to cluster %d.\n"
                         % cluster)                  # late materialization: no dots
        seen = []

        def finished():
            ads = si.q(cluster)
            seen.append(len(ads))
            return len(si.history(cluster)) == 4 and not ads
        wait_for(finished, what="the cluster to finish")
        self.assertLessEqual(max(seen), 2)
        self.assertEqual(sorted(a["ProcId"] for a in si.history(cluster)), [0, 1, 2, 3])
        events = []
        for line in read_file(log).split("\n")[:-1]:
            what, index, t = line.split()
            events.append((float(t), 1 if what == "start" else -1, index))
        self.assertEqual(sorted(i for _, d, i in events if d == 1), ["1", "3", "5", "7"])
        running = peak = 0
        for _, delta, _ in sorted(events):
            running += delta
            peak = max(peak, running)
        self.assertEqual(peak, 2)

    def test_04_job_duration_hold_then_rm(self):
        si = self.si
        cluster = si.submit("dur.sub", SLEEPER % (60, "allowed_job_duration = 1\n", ""))
        jid = "%d.0" % cluster
        ad = si.wait_state(jid, (5,))
        self.assertEqual((ad["HoldReasonCode"], ad["HoldReasonSubCode"], ad["HoldReason"],
                          ad["NumJobStarts"], "RemoteHost" in ad),
                         (46, 0, "The job exceeded allowed job duration of 00:01", 1, False))
        r = si.run("condor_rm", jid)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "Job %s marked for removal\n" % jid, ""))
        ad = si.wait_gone(jid)
        self.assertEqual((ad["JobStatus"], ad["HoldReasonCode"], ad["RemoveReason"]),
                         (3, 46, "via condor_rm (by user %s)" % ad["Owner"]))

    def test_05_memory_hold(self):
        si = self.si
        cluster = si.submit("mem.sub", "executable = /usr/bin/python3\narguments = \"-c 'import "
                            "time; x = bytearray(200 * 1024 * 1024); time.sleep(60)'\"\n"
                            "request_memory = 50M\nqueue\n")
        ad = si.wait_state("%d.0" % cluster, (5,))
        slot = ad.get("RemoteHost") or "slot"
        self.assertEqual((ad["HoldReasonCode"], ad["HoldReasonSubCode"], slot), (34, 102, "slot"))
        self.assertRegex(ad["HoldReason"], r"^Error from slot\d+@%s: Job has gone over cgroup "
                         r"memory limit of 50 megabytes\. Last measured usage: 50 megabytes\.  "
                         r"Consider resubmitting with a higher request_memory\.$" % self.host)
        self.assertEqual(si.run("condor_rm", str(cluster)).stdout,
                         "All jobs in cluster %d have been marked for removal\n" % cluster)

    def test_06_rm_idle_running_and_errors(self):
        si = self.si
        idle = si.submit("idle.sub", SLEEPER % (60, "request_cpus = 64\n", "2"))
        run = si.submit("run.sub", SLEEPER % (60, "", ""))
        si.wait_state("%d.0" % run, (2,))
        self.assertEqual(si.job("%d.1" % idle)["JobStatus"], 1)
        r = si.run("condor_rm", "%d.0" % idle, "%d.0" % run, "%d.7" % idle)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "Job %d.0 marked for removal\nJob %d.0 marked for removal\n"
                          % (idle, run), "Job %d.7 not found\n" % idle))
        ad = si.history("%d.0" % idle)[0]                # idle: gone at once
        self.assertEqual((ad["JobStatus"], ad["NumJobStarts"], "JobStartDate" in ad), (3, 0, False))
        ad = si.wait_gone("%d.0" % run)
        self.assertEqual((ad["JobStatus"], "ExitCode" in ad, ad["NumJobStarts"]), (3, False, 1))
        r = si.run("condor_rm", "%d.0" % run)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "\nJob %d.0 not found\n" % run))
        self.assertEqual(si.run("condor_rm", str(idle)).stdout,
                         "All jobs in cluster %d have been marked for removal\n" % idle)
        r = si.run("condor_rm", str(idle))
        self.assertEqual((r.returncode, r.stdout), (1 if si.q() else 0, ""))
        self.assertIn(r.stderr, ("\nCouldn't find/remove all jobs in cluster %d\n" % idle,
                                 "condor_rm:0:There are no jobs in the queue\n"))

    def test_06b_hold_and_release(self):
        si = self.si
        idle = si.submit("hidle.sub", SLEEPER % (60, "request_cpus = 64\n", ""))
        run = si.submit("hrun.sub", SLEEPER % (60, "", ""))
        si.wait_state("%d.0" % run, (2,))
        r = si.run("condor_hold", "%d.0" % idle, "%d.0" % run, "%d.7" % idle)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "Job %d.0 held\nJob %d.0 held\n" % (idle, run), "Job %d.7 not found\n" % idle))
        for jid in ("%d.0" % idle, "%d.0" % run):  # the running one is vacated, then held
            ad = si.wait_state(jid, (5,))
            self.assertEqual((ad["HoldReasonCode"], ad["HoldReason"]),
                             (1, "via condor_hold (by user %s)" % ad["Owner"]))
        self.assertEqual(si.job("%d.0" % run)["NumJobStarts"], 1)
        r = si.run("condor_hold", "%d.0" % idle)
        self.assertEqual((r.returncode, r.stderr), (1, "\nJob %d.0 already held\n" % idle))
        r = si.run("condor_release", str(run))
        self.assertEqual((r.returncode, r.stdout),
                         (0, "All jobs in cluster %d have been released\n" % run))
        ad = si.wait_state("%d.0" % run, (2,))  # it runs again
        self.assertNotIn("HoldReasonCode", ad)
        r = si.run("condor_release", "%d.0" % run)
        self.assertEqual((r.returncode, r.stderr), (1, "\nJob %d.0 not held to be released\n" % run))
        self.assertEqual(si.run("condor_rm", str(idle), str(run)).returncode, 0)

    def test_07_nothing_printed_for_no_match(self):
        si = self.si
        for cmd in ("condor_q", "condor_history"):
            for ids in (["99999"], ["99999.0", "88888"], ["nosuchuser"]):
                r = si.run(cmd, *ids, "-json", "-attributes", "ClusterId,ProcId,JobStatus")
                self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""), (cmd, ids))
        # The scan stops at the first completed job (CompletionDate <= T); a removed job
        # has no CompletionDate and never stops it.
        r = si.run("condor_history", "-json", "-completedsince", str(int(time.time()) + 60))
        self.assertEqual(r.returncode, 0)
        self.assertEqual({ad["JobStatus"] for ad in json.loads(r.stdout or "[]")} - {3}, set())

    def test_08_submit_refusals(self):
        si = self.si
        empty = si.write("empty.sh", "")
        path = si.write("bad.sub", "executable = /bin/true\n# no queue\n\n")
        cases = [
            ("executable = /bin/true\n# no queue\n\n",
             "\nERROR: on Line 3 of %s: no queue statement\n\nERROR: Failed to parse command "
             "file (line 3).\n" % path),
            ("executable = /bin/true\nthis is wrong\nqueue\n",
             "\nERROR: on Line 2 of %s: invalid queue statement.\nSubmit:-1:Error \"%s\", Line "
             "2: cannot parse: this is wrong\n\nERROR: Failed to parse command file (line 2).\n"
             % (path, path)),
            ("executable = /nonexistent/x\nqueue\n",
             "\nERROR: Can't access executable file /nonexistent/x: No such file or directory\n"),
            ("executable = %s\nqueue\n" % empty,
             "\nERROR: Executable file %s has zero length\n" % empty),
            ("arguments = 1\nqueue\n", "ERROR: No 'executable' parameter was provided\n"),
        ]
        for body, stderr in cases:
            si.write("bad.sub", body)
            r = si.run("condor_submit", "-terse", path)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (1, "", stderr), body)
        r = si.run("condor_submit", path)
        self.assertEqual((r.returncode, r.stdout), (1, "Submitting job(s)"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
