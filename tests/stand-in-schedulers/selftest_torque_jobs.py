#!/usr/bin/env python3
"""Torque stand-in self-test: a job's life (run, exit statuses, signals, walltime, qdel,
arrays with a slot limit) on one instance (4 slots, kill grace 1 s)."""

import os
import re
import unittest

from selftest_helpers import TorqueInstance, core, fixture, read_file, wait_for, xml_jobs


def sample_orders():
    """Each published XML job's attribute names, in order."""
    orders = []
    for name in ("qstat_x_fyrd_torque.xml", "qstat_x_batcheuphoria_outputFinished.xml"):
        for _, attrs in xml_jobs('<?xml version="1.0"?>\n' + fixture("torque", name)):
            orders.append(list(attrs))
    return orders


class JobsTest(unittest.TestCase):
    """One instance (4 slots, kill grace 1 s): jobs from submission to the end."""

    @classmethod
    def setUpClass(cls):
        cls.si = TorqueInstance("kill_grace=1")
        cls.si.script("never.sh", "true\n")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_submit_run_complete(self):
        si = self.si
        si.script("hello.sh", "#!/bin/bash\n#PBS -N hello\n#PBS -l walltime=00:01:00\n"
                  "echo \"hello $FOO from $PBS_JOBID ($PBS_JOBNAME)\"\n"
                  "echo \"cwd=$(pwd) workdir=$PBS_O_WORKDIR home=$HOME\"\n"
                  "echo \"env $PBS_ENVIRONMENT $PBS_QUEUE $PBS_O_QUEUE $PBS_O_HOST\"\n"
                  "echo \"cores $PBS_NUM_NODES $PBS_NUM_PPN $PBS_NP\"\n"
                  "test -d \"$TMPDIR\" && echo tmpdir\n"
                  "cat \"$PBS_NODEFILE\"\n"
                  "echo err >&2\n")
        jid = si.qsub("-v", "FOO=bar", "-l", "nodes=1:ppn=2", "hello.sh")
        self.assertRegex(jid, r"^\d+\.%s$" % re.escape(si.server))
        job = si.wait_state(jid, "C")
        seq = jid.split(".")[0]
        self.assertEqual((job["exit_status"], job["Job_Name"], job["queue"]),
                         ("0", "hello", "batch"))
        self.assertEqual(job["Resource_List"], {"walltime": "00:01:00", "nodes": "1:ppn=2",
                                                "nodect": "1"})
        self.assertEqual(job["exec_host"], "%s/0-1" % core.short_hostname())
        self.assertRegex(job["comment"], r"^Job started on \w{3} \w{3} \d\d at \d\d:\d\d$")
        for key in ("start_time", "comp_time", "session_id", "total_runtime", "etime"):
            self.assertRegex(job[key], r"^\d+(\.\d+)?$", key)
        self.assertEqual(sorted(job["resources_used"]),
                         ["cput", "energy_used", "mem", "vmem", "walltime"])
        self.assertEqual(job["start_count"], "1")
        self.assertIn("PBS_O_WORKDIR=%s," % si.work, job["Variable_List"])
        self.assertTrue(job["Variable_List"].startswith("PBS_O_QUEUE=batch,PBS_O_HOME="))
        home = core.user_info(os.getuid())[1]
        out = read_file(os.path.join(si.work, "hello.o" + seq)).split("\n")
        self.assertEqual(out[0], "hello bar from %s (hello)" % jid)
        self.assertEqual(out[1], "cwd=%s workdir=%s home=%s" % (os.path.realpath(home), si.work,
                                                                 home))
        self.assertEqual(out[2], "env PBS_BATCH batch batch %s" % core.short_hostname())
        self.assertEqual(out[3:7], ["cores 1 2 2", "tmpdir"] + [core.short_hostname()] * 2)
        self.assertEqual(read_file(os.path.join(si.work, "hello.e" + seq)), "err\n")
        # The attributes come in the order of the real qstat (the published samples).
        ours = list(job)
        for order in sample_orders():
            common = [k for k in ours if k in order]
            self.assertEqual(common, [k for k in order if k in common])

    def test_02_exit_status(self):
        si = self.si
        si.script("exit3.sh", "exit 3\n")
        self.assertEqual(si.wait_state(si.qsub("exit3.sh"), "C")["exit_status"], "3")

    def test_03_shell_killed_by_signal(self):
        si = self.si
        si.script("kill9.sh", "kill -9 $$\n")
        self.assertEqual(si.wait_state(si.qsub("kill9.sh"), "C")["exit_status"], "265")

    def test_04_walltime(self):
        si = self.si
        # 3 s: time enough for a loaded machine's qstat to see it run before it is killed.
        si.script("long.sh", "#PBS -l walltime=3\nsleep 60\n")
        jid = si.qsub("long.sh")
        running = si.wait_state(jid, "R")
        self.assertRegex(running["Walltime"]["Remaining"], r"^-?\d+$")
        job = si.wait_state(jid, "C", timeout=20)
        self.assertEqual(job["exit_status"], "-11")
        self.assertNotIn("Walltime", job)
        err = read_file(os.path.join(si.work, "long.sh.e" + jid.split(".")[0]))
        self.assertRegex(err, r"=>> PBS: job killed: walltime \d+ exceeded limit 3\n")

    def test_05_qdel_running(self):
        si = self.si
        si.script("sleep.sh", "sleep 60\n")
        si.script("stubborn.sh", "trap '' TERM\nsleep 60 & wait; sleep 60\n")
        a, b = si.qsub("sleep.sh"), si.qsub("stubborn.sh")
        si.wait_state(a, "R")
        si.wait_state(b, "R")
        r = si.run("qdel", a, b)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        self.assertEqual(si.wait_state(a, "C")["exit_status"], "271")
        self.assertEqual(si.wait_state(b, "C", timeout=20)["exit_status"], "265")

    def test_06_qdel_queued_and_completed(self):
        si = self.si
        held = si.qsub("-h", "never.sh")
        job = si.job(held)
        self.assertEqual((job["job_state"], job["Hold_Types"]), ("H", "u"))
        self.assertEqual(si.run("qdel", held).returncode, 0)
        job = si.job(held)
        self.assertEqual(job["job_state"], "C")
        for key in ("exit_status", "start_time", "comp_time", "resources_used"):
            self.assertNotIn(key, job)
        r = si.run("qdel", held)                 # a completed job: nothing to do
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))

    def test_07_array_with_slot_limit(self):
        si = self.si
        log = os.path.join(si.work, "array.log")
        si.script("array.sh", "#PBS -t 1-4%%2\n"
                  "echo \"start $PBS_ARRAYID $(date +%%s.%%N)\" >> %s\n"
                  "echo \"index $PBS_ARRAYID of $PBS_JOBID ($PBS_JOBNAME)\"\n"
                  "sleep 1\n"
                  "echo \"end $PBS_ARRAYID $(date +%%s.%%N)\" >> %s\n" % (log, log))
        jid = si.qsub("array.sh")
        self.assertRegex(jid, r"^\d+\[\]\.%s$" % re.escape(si.server))
        seq = jid.split("[")[0]
        seen = set()

        def done():
            j = si.job(jid)
            seen.add(j["job_state"])
            return j if j["job_state"] == "C" else None
        parent = wait_for(done, what="the array to finish")
        self.assertIn("R", seen)
        self.assertEqual(parent["job_array_request"], "1-4")
        self.assertNotIn("exit_status", parent)
        subs = si.job(jid, subjobs=True)
        ids = ["%s[%d].%s" % (seq, i, si.server) for i in range(1, 5)]
        self.assertEqual(list(subs), ids)
        for i, sid in enumerate(ids, 1):
            s = subs[sid]
            self.assertEqual((s["job_state"], s["exit_status"], s["job_array_id"], s["Job_Name"]),
                             ("C", "0", str(i), "array.sh-%d" % i))
            self.assertTrue(s["Variable_List"].startswith("PBS_ARRAYID=%d," % i))
            self.assertEqual(read_file(os.path.join(si.work, "array.sh.o%s-%d" % (seq, i))),
                             "index %d of %s (array.sh-%d)\n" % (i, sid, i))
        events = []
        for line in read_file(log).split("\n")[:-1]:
            what, _, t = line.split()
            events.append((float(t), 1 if what == "start" else -1))
        running = peak = 0
        for _, delta in sorted(events):
            running += delta
            peak = max(peak, running)
        self.assertEqual((len(events), peak), (8, 2))
        # qstat -x: the parent, no subjobs; qstat -x -t: the subjobs, no parent.
        r, jobs = si.jobs()
        self.assertIn(jid, dict(jobs))
        self.assertFalse(set(ids) & set(dict(jobs)))
        r, jobs = si.jobs(flags=("-x", "-t"))
        self.assertNotIn(jid, dict(jobs))
        self.assertTrue(set(ids) <= set(dict(jobs)))
        r, jobs = si.jobs("%s[3]" % seq)
        self.assertEqual([j for j, _ in jobs], [ids[2]])

    def test_08_array_with_a_list(self):
        si = self.si
        jid = si.qsub("-t", "1-3,6,9%2", "never.sh")
        subs = wait_for(lambda: (lambda s: s if all(j["job_state"] == "C" for j in s.values())
                                 else None)(si.job(jid, subjobs=True)), what="the subjobs")
        seq = jid.split("[")[0]
        self.assertEqual(list(subs), ["%s[%d].%s" % (seq, i, si.server) for i in (1, 2, 3, 6, 9)])
        self.assertEqual(si.job(jid)["job_array_request"], "1-3,6,9")

    def test_09_node_exclusive_and_dev_null(self):
        si = self.si
        si.script("cores.sh", "echo $PBS_NP $PBS_NUM_PPN\n")
        jid = si.qsub("-n", "-o", "cores.out", "-j", "oe", "cores.sh")
        job = si.wait_state(jid, "C")
        self.assertEqual((job["node_exclusive"], job["exec_host"]),
                         ("True", "%s/0-3" % core.short_hostname()))
        self.assertEqual(read_file(os.path.join(si.work, "cores.out")), "1 1\n")
        arr = si.qsub("-t", "1-2", "-o", "/dev/null", "-j", "oe", "never.sh")
        subs = wait_for(lambda: (lambda s: s if all(j["job_state"] == "C" for j in s.values())
                                 else None)(si.job(arr, subjobs=True)), what="the subjobs")
        self.assertEqual(sorted(j["Output_Path"].split(":", 1)[1] for j in subs.values()),
                         ["/dev/null-1", "/dev/null-2"])
        self.assertFalse(os.path.exists("/dev/null-1"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
