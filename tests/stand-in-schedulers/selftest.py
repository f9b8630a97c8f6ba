#!/usr/bin/env python3
"""Self-test of the PBS stand-in scheduler (ctest: StandInPbs.SelfTest).

Starts instances in temporary directories and drives them through the bin/pbs
commands only, as the C++ backend will; checks the printers against the verbatim
samples in testdata/ (copied from the project's format notes). Every wait polls a
condition with a deadline.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True      # nothing written into the source tree

from standin import core, pbs  # noqa: E402

BIN = os.path.join(HERE, "bin", "pbs")
CTL = os.path.join(HERE, "standin-ctl")
TESTDATA = os.path.join(HERE, "testdata")


def wait_for(cond, timeout=30.0, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(0.05)


def read(name):
    with open(os.path.join(TESTDATA, name)) as f:
        return f.read()


def read_file(path):
    """The file's text, or None if it does not exist (yet)."""
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


class Instance:
    """A stand-in PBS server in a temporary state dir, driven through bin/pbs."""

    def __init__(self, *settings):
        self.root = tempfile.mkdtemp(prefix="standin-pbs-")
        self.state = os.path.join(self.root, "state")
        self.work = os.path.join(self.root, "work")
        os.makedirs(self.work)
        r = subprocess.run(["bash", os.path.join(HERE, "start.sh"), self.state, "pbs"]
                           + list(settings), capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise AssertionError("start.sh failed (%d): %s" % (r.returncode, r.stderr))
        expected = "export PATH=%s:$PATH YARD_STANDIN_DIR=%s\n" % (BIN, self.state)
        assert r.stdout == expected, r.stdout
        self.env = dict(os.environ, PATH=BIN + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
                        YARD_STANDIN_DIR=self.state)
        self.server = core.load_config(self.state)["server_name"]
        with open(os.path.join(self.state, "server.pid")) as f:
            self.pid = int(f.read())

    def run(self, *args, timeout=30, stdin=None):
        return subprocess.run(list(args), env=self.env, cwd=self.work, capture_output=True,
                              text=True, timeout=timeout, input=stdin)

    def script(self, name, body):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write(body)
        return name

    def qsub(self, *args):
        r = self.run("qsub", *args)
        if r.returncode != 0:
            raise AssertionError("qsub %s failed (%d): %s" % (args, r.returncode, r.stderr))
        assert r.stderr == "", r.stderr
        return r.stdout.strip()

    def jobs(self, *ids, flags=("-x", "-f", "-F", "json")):
        r = self.run("qstat", *flags, *ids)
        doc = json.loads(r.stdout)
        return r, doc

    def job(self, jid, subjobs=False):
        r, doc = self.jobs(jid, flags=("-x", "-f", "-F", "json") + (("-t",) if subjobs else ()))
        if r.returncode != 0:
            raise AssertionError("qstat %s: %d %s" % (jid, r.returncode, r.stderr))
        return doc["Jobs"][jid] if not subjobs else doc["Jobs"]

    def wait_state(self, jid, states, timeout=30.0):
        return wait_for(lambda: (lambda j: j if j["job_state"] in states else None)(self.job(jid)),
                        timeout, "%s in %s" % (jid, states))

    def stop(self):
        subprocess.run(["bash", os.path.join(HERE, "stop.sh"), self.state], timeout=60)

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


# ======================================================================= printers

class PrinterTest(unittest.TestCase):
    """The printers against the verbatim samples (no server)."""

    cfg = dict(core.DEFAULTS, **pbs.DEFAULTS)

    def render(self, printer, version, server, ts, jobs):
        cfg = dict(self.cfg, printer=printer, pbs_version=version, server_name=server)
        return pbs.render_json(cfg, ts, jobs)

    def test_old_printer_without_jobs_is_the_parsl_sample(self):
        text = read("qstat_json_samples_verbatim.txt")
        sample = text.split("STDOUT:", 1)[1].split(" STDERR:", 1)[0] + "\n"
        out = self.render("old", "2024.1.2.20241017100211",
                          "polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov", 1752246824, [])
        self.assertEqual(out, sample)

    def test_cjson_printer_without_jobs_is_the_pr2675_sample(self):
        text = read("qstat_json_samples_verbatim.txt")
        block = text.split("2000.VMa", 1)[1].split("\n", 1)[1]
        sample = block[:block.index("\n}") + 3]
        self.assertIn("\t", sample)
        out = self.render("cjson", "23.06.06", "VMa", 1749572608, [])
        self.assertEqual(out, sample)

    def test_cjson_printer_with_jobs_is_the_issue2672_sample(self):
        text = read("qstat_json_samples_verbatim.txt")
        block = text.split("# qstat -f -F json 10 11\n", 1)[1].split("\n# BUG", 1)[0]
        sample = [l for l in block.split("\n") if "... job details" not in l]
        jobs = [("10.ip-10-0-6-176", [("Job_Name", "STDIN", pbs.S),
                                      ("Submit_Host", "ip-10-0-6-176.us-west-2.compute.internal",
                                       pbs.V)])]
        out = self.render("cjson", "latest", "ip-10-0-6-176", 1745411711, jobs)
        # GitHub showed the tabs as spaces to the next multiple of 8.
        self.assertEqual([l.expandtabs(8) for l in out.rstrip("\n").split("\n")], sample)

    def test_old_printer_with_jobs_is_the_man_page_sample(self):
        text = read("qstat_json_samples_verbatim.txt")
        block = text.split("qstat -f F json\n\n", 1)[1].split("\n...", 1)[0]
        # The man page indents by 8 spaces a level; qstat's printer (pbs_json.c) by 4.
        sample = [" " * ((len(l) - len(l.lstrip(" "))) // 2) + l.lstrip(" ")
                  for l in block.split("\n")]
        jobs = [("1.vbox", [("Job_Name", "STDIN", pbs.S), ("Job_Owner", "root@vbox", pbs.V),
                            ("job_state", "Q", pbs.V), ("queue", "workq", pbs.V)])]
        out = self.render("old", "14.1", "vbox", 1479277336, jobs).split("\n")
        self.assertEqual(out[:len(sample)], sample)

    def griffith_record(self):
        text = read("qstat_xf_failed_walltime_pbspro2020_griffith.txt").rstrip("\n")
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
                    attrs.append((group, [(res, value)], pbs.RES))
            elif name == "Variable_List":
                attrs.append((name, [tuple(kv.split("=", 1)) for kv in value.split(",")], pbs.ENV))
            else:
                kind = pbs.S if name in ("Job_Name", "project", "Account_Name") else pbs.V
                attrs.append((name, value, kind))
        return text, jid, attrs

    def test_text_printer_wraps_like_the_griffith_sample(self):
        text, jid, attrs = self.griffith_record()
        out = pbs.render_text([(jid, attrs)], one_line=False)
        self.assertTrue(out.endswith("\n\n"))
        got = out.rstrip("\n").split("\n    ")
        want = text.split("\n    ")
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            if w.startswith(("Error_Path", "Output_Path")):
                # Not wrapped in the transcript, though qstat.c wraps them (FORMATS.md).
                self.assertEqual(g.replace("\n\t", ""), w)
            else:
                self.assertEqual(g, w)
        one = pbs.render_text([(jid, attrs)], one_line=True)
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
        sample = read("qstat_default_griffith.txt").rstrip("\n").split("\n")
        rows = []
        for line in sample[2:]:
            f = line.split()
            rows.append((f[0] + "m", f[1], f[2] + "@host", f[3] + "00", f[4], f[5]))
        out = pbs.render_table(rows, cfg, wide=False).rstrip("\n").split("\n")
        self.assertEqual([l.rstrip() for l in out], [l.rstrip() for l in sample])
        sample = read("qstat_x_default_griffith.txt").strip("\n").split("\n")
        out = pbs.render_table([("49230.gc-prd-hpcadm", "example-job", "s1234567@h",
                                 "00:00:00", "F", "workq")], cfg, wide=False)
        self.assertEqual([l.rstrip() for l in out.rstrip("\n").split("\n")],
                         [l.rstrip() for l in sample])
        # HEAD marks truncation with '*' (the default).
        out = pbs.render_table([("49230.gc-prd-hpcadm", "a-very-long-job-name", "u", "0", "Q",
                                 "workq")], self.cfg, wide=False)
        self.assertIn("49230.gc-prd-hpc* a-very-long-job* u ", out)

    def test_sniffers(self):
        old = pbs.old_is_number
        for v in ("0", "-0", "1", "271", "-29", "0.5", "1.50", "1e5", "-12"):
            self.assertTrue(old(v), v)
        for v in ("005", "00", "1.", "00:00:30", "True", "8gb", "", "+5", "inf", "0x10", "-05"):
            self.assertFalse(old(v), v)
        cj = pbs.cjson_parse
        self.assertEqual(cj("005"), 5.0)
        self.assertEqual(cj("1e5"), 100000.0)
        self.assertEqual(cj(" 7 "), 7.0)
        self.assertIs(cj("true"), True)
        self.assertIs(cj("null"), None)
        for v in ("00:00:30", "True", "8gb", "", "1-4", "Queued:0 Running:1", "/bin/bash", "-"):
            self.assertIs(cj(v), pbs.NOT_JSON, v)
        self.assertEqual(pbs.cjson_number(5.0), "5")
        self.assertEqual(pbs.cjson_number(1.5), "1.5")
        self.assertEqual(pbs.cjson_number(1e10), "10000000000")
        self.assertEqual(pbs.json_str('a"b\\c\n\x01'), '"a\\"b\\\\c\\n\\u0001"')

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


# ======================================================================= life cycle

class LifeCycleTest(unittest.TestCase):
    """One instance (4 slots, kill grace 1 s) through its whole life cycle."""

    @classmethod
    def setUpClass(cls):
        cls.si = Instance("kill_grace=1")

    @classmethod
    def tearDownClass(cls):
        cls.si.cleanup()

    def test_01_submit_run_complete(self):
        si = self.si
        si.script("hello.sh", "#!/bin/bash\n#PBS -N hello\n#PBS -l walltime=00:01:00\n"
                  "echo \"hello $FOO from $PBS_JOBID\"\n"
                  "echo \"cwd=$(pwd) workdir=$PBS_O_WORKDIR home=$HOME\"\n"
                  "echo \"env $PBS_ENVIRONMENT $PBS_QUEUE $PBS_JOBNAME $PBS_O_QUEUE\"\n"
                  "cat \"$PBS_NODEFILE\"\n"
                  "echo err >&2\n")
        jid = si.qsub("-v", "FOO=bar", "hello.sh")
        self.assertRegex(jid, r"^\d+\.%s$" % re.escape(si.server))
        job = si.wait_state(jid, "F")
        seq = jid.split(".")[0]
        self.assertEqual(job["Exit_status"], 0)
        self.assertEqual(job["substate"], 92)
        self.assertRegex(job["comment"],
                         r"^Job run at \w{3} \w{3} \d\d at \d\d:\d\d on \(\S+:ncpus=1\) and finished$")
        self.assertEqual(job["Job_Name"], "hello")
        self.assertEqual(job["Resource_List"]["walltime"], "00:01:00")
        self.assertIsInstance(job["history_timestamp"], int)
        for key in ("resources_used", "stime", "obittime", "session_id", "exec_host", "etime"):
            self.assertIn(key, job)
        home = core.user_info(os.getuid())[1]
        with open(os.path.join(si.work, "hello.o" + seq)) as f:
            out = f.read().split("\n")
        self.assertEqual(out[0], "hello bar from %s" % jid)
        self.assertEqual(out[1], "cwd=%s workdir=%s home=%s" % (os.path.realpath(home), si.work,
                                                                 home))
        self.assertEqual(out[2], "env PBS_BATCH workq hello workq")
        self.assertEqual(out[3], core.short_hostname())
        with open(os.path.join(si.work, "hello.e" + seq)) as f:
            self.assertEqual(f.read(), "err\n")
        # The attributes come in the order of the real qstat (the Griffith transcript).
        text = read("qstat_xf_failed_walltime_pbspro2020_griffith.txt")
        order = []
        for line in text.split("\n"):
            m = re.match(r"^    ([A-Za-z_]+)[ .]", line)
            if m and m.group(1) not in order:
                order.append(m.group(1))
        ours = [k for k in job if k in order]
        self.assertEqual(ours, [k for k in order if k in job])

    def test_02_exit_status(self):
        si = self.si
        si.script("exit3.sh", "exit 3\n")
        jid = si.qsub("exit3.sh")
        job = si.wait_state(jid, "F")
        self.assertEqual(job["Exit_status"], 3)
        self.assertEqual(job["substate"], 93)
        self.assertTrue(job["comment"].endswith(" and failed"))

    def test_03_shell_killed_by_signal(self):
        si = self.si
        si.script("kill9.sh", "kill -9 $$\n")
        job = si.wait_state(si.qsub("kill9.sh"), "F")
        self.assertEqual(job["Exit_status"], 265)

    def test_04_walltime(self):
        si = self.si
        si.script("long.sh", "#PBS -l walltime=1\nsleep 60\n")
        jid = si.qsub("long.sh")
        job = si.wait_state(jid, "F", timeout=20)
        self.assertEqual(job["Exit_status"], -29)
        self.assertEqual(job["substate"], 93)
        self.assertTrue(job["comment"].endswith(" and exceeded resource walltime"), job["comment"])
        with open(os.path.join(si.work, "long.sh.e" + jid.split(".")[0])) as f:
            self.assertRegex(f.read(), r"=>> PBS: job killed: walltime \d+ exceeded limit 1\n")

    def test_05_qdel_running(self):
        si = self.si
        si.script("sleep.sh", "sleep 60\n")
        si.script("stubborn.sh", "trap '' TERM\nsleep 60 & wait; sleep 60\n")
        a, b = si.qsub("sleep.sh"), si.qsub("stubborn.sh")
        si.wait_state(a, "R")
        si.wait_state(b, "R")
        r = si.run("qdel", a, b)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        job = si.wait_state(a, "F")
        self.assertEqual(job["Exit_status"], 271)
        self.assertEqual(job["substate"], 91)
        self.assertTrue(job["comment"].endswith(" and terminated"))
        job = si.wait_state(b, "F", timeout=20)
        self.assertEqual(job["Exit_status"], 265)
        self.assertEqual(job["substate"], 91)

    def test_06_qdel_queued(self):
        si = self.si
        si.script("big.sh", "true\n")
        jid = si.qsub("-l", "select=1:ncpus=8", "big.sh")      # more than the 4 slots
        job = wait_for(lambda: (lambda j: j if "comment" in j else None)(si.job(jid)),
                       what="a Not Running comment")
        self.assertEqual(job["job_state"], "Q")
        self.assertEqual(job["comment"],
                         "Not Running: Insufficient amount of resource: ncpus (R: 8 A: 4 T: 4)")
        self.assertEqual(si.run("qdel", jid).returncode, 0)
        job = si.job(jid)
        self.assertEqual(job["job_state"], "F")
        self.assertEqual(job["substate"], 91)
        self.assertNotIn("Exit_status", job)
        self.assertNotIn("stime", job)
        held = si.qsub("-h", "big.sh")
        self.assertEqual(si.job(held)["job_state"], "H")
        self.assertEqual(si.job(held)["Hold_Types"], "u")
        self.assertEqual(si.run("qdel", held).returncode, 0)
        self.assertEqual(si.job(held)["job_state"], "F")

    def test_07_array_with_throttle(self):
        si = self.si
        log = os.path.join(si.work, "array.log")
        si.script("array.sh", "#PBS -J 1-4%%2\n#PBS -o %s/arr.^array_index^.out\n#PBS -j oe\n"
                  "echo \"start $PBS_ARRAY_INDEX $(date +%%s.%%N)\" >> %s\n"
                  "echo \"index $PBS_ARRAY_INDEX of $PBS_ARRAY_ID\"\n"
                  "sleep 1\n"
                  "echo \"end $PBS_ARRAY_INDEX $(date +%%s.%%N)\" >> %s\n" % (si.work, log, log))
        jid = si.qsub("array.sh")
        self.assertRegex(jid, r"^\d+\[\]\.%s$" % re.escape(si.server))
        seq = jid.split("[")[0]
        seen_begun = []

        def done():
            j = si.job(jid)
            if j["job_state"] == "B":
                seen_begun.append(j["array_state_count"])
            return j if j["job_state"] == "F" else None
        parent = wait_for(done, what="the array to finish")
        self.assertTrue(seen_begun, "the parent was never seen in state B")
        self.assertRegex(seen_begun[0], r"^Queued:\d Running:[12] Exiting:0 Expired:\d$")
        self.assertEqual(parent["array"], "True")
        self.assertEqual(parent["array_indices_submitted"], "1-4")
        self.assertEqual(parent["array_indices_remaining"], "-")
        self.assertEqual(parent["array_state_count"], "Queued:0 Running:0 Exiting:0 Expired:4")
        self.assertEqual(parent["Exit_status"], 0)
        self.assertEqual(parent["max_run_subjobs"], 2)
        jobs = si.job(jid, subjobs=True)
        self.assertEqual(list(jobs), [jid] + ["%s[%d].%s" % (seq, i, si.server) for i in range(1, 5)])
        for i in range(1, 5):
            sub = jobs["%s[%d].%s" % (seq, i, si.server)]
            self.assertEqual((sub["job_state"], sub["Exit_status"], sub["comment"],
                              sub["array_index"], sub["array_id"]),
                             ("X", 0, "Subjob finished", i, jid))
            with open(os.path.join(si.work, "arr.%d.out" % i)) as f:
                self.assertEqual(f.read(), "index %d of %s\n" % (i, jid))
        # Never more than 2 at once, as the subjobs themselves recorded it.
        events = []
        with open(log) as f:
            for line in f:
                what, idx, t = line.split()
                events.append((float(t), 1 if what == "start" else -1))
        self.assertEqual(len(events), 8)
        running = peak = 0
        for _, delta in sorted(events):
            running += delta
            peak = max(peak, running)
        self.assertEqual(peak, 2)
        # Without -t only the parent; a subjob by its id.
        r, doc = si.jobs(jid)
        self.assertEqual(list(doc["Jobs"]), [jid])
        r, doc = si.jobs("%s[3]" % seq)
        self.assertEqual(list(doc["Jobs"]), ["%s[3].%s" % (seq, si.server)])

    def test_08_afterok_satisfied(self):
        si = self.si
        si.script("first.sh", "sleep 0.5\ndate +%%s.%%N > %s/first.done\n" % si.work)
        si.script("second.sh", "date +%%s.%%N > %s/second.start\n" % si.work)
        a = si.qsub("first.sh")
        b = si.qsub("-W", "depend=afterok:" + a, "second.sh")
        job = si.job(b)
        if job["job_state"] != "F":
            self.assertIn(job["job_state"], ("H", "Q", "R"))
        self.assertEqual(job["depend"], "afterok:%s@%s" % (a, si.server))
        job = si.wait_state(b, "F")
        self.assertEqual(job["Exit_status"], 0)
        with open(os.path.join(si.work, "first.done")) as f:
            first_done = float(f.read())
        with open(os.path.join(si.work, "second.start")) as f:
            second_start = float(f.read())
        self.assertLess(first_done, second_start)

    def test_09_afterok_never_satisfied(self):
        si = self.si
        si.script("fail.sh", "sleep 1\nexit 1\n")
        si.script("never.sh", "true\n")
        a = si.qsub("fail.sh")
        b = si.qsub("-W", "depend=afterok:" + a.split(".")[0], "never.sh")
        c = si.qsub("-W", "depend=afterok:" + b, "never.sh")
        self.assertEqual(si.job(b)["substate"], 22)
        job = si.wait_state(b, "F")
        self.assertEqual(job["substate"], 91)
        self.assertNotIn("Exit_status", job)
        self.assertEqual(job["comment"], "Job deleted as result of dependency on job %s" % a)
        job = si.wait_state(c, "F")
        self.assertEqual(job["comment"], "Job deleted as result of dependency on job %s" % b)

    def test_10_afterany(self):
        si = self.si
        a = si.qsub("fail.sh")
        b = si.qsub("-W", "depend=afterany:%s,afternotok:%s" % (a, a), "never.sh")
        job = si.wait_state(b, "F")
        self.assertEqual(job["Exit_status"], 0)
        self.assertEqual(job["substate"], 92)

    def test_11_unknown_id_with_others_printed(self):
        si = self.si
        a = si.qsub("never.sh")
        si.wait_state(a, "F")
        r, doc = si.jobs(a, "999999", "%s.%s" % (a.split(".")[0], si.server))
        self.assertEqual(r.returncode, 153)
        self.assertEqual(r.stderr, "qstat: Unknown Job Id 999999.%s\n" % si.server)
        self.assertEqual(list(doc["Jobs"]), [a])

    def test_12_no_jobs_key_when_nothing_matched(self):
        si = self.si
        r, doc = si.jobs("999998")
        self.assertEqual(r.returncode, 153)
        self.assertEqual(list(doc), ["timestamp", "pbs_version", "pbs_server"])
        self.assertIsInstance(doc["timestamp"], int)

    def test_13_finished_job_without_x(self):
        si = self.si
        a = si.qsub("never.sh")
        si.wait_state(a, "F")
        r = si.run("qstat", "-f", "-F", "json", a)
        self.assertEqual(r.returncode, 35)
        self.assertEqual(r.stderr, "qstat: %s Job has finished, use -x or -H to obtain historical "
                                   "job information\n" % a)
        self.assertNotIn("Jobs", json.loads(r.stdout))
        r = si.run("qdel", a)
        self.assertEqual((r.returncode, r.stderr), (35, "qdel: Job has finished %s\n" % a))
        r = si.run("qdel", "999997")
        self.assertEqual((r.returncode, r.stderr),
                         (153, "qdel: Unknown Job Id 999997.%s\n" % si.server))
        r = si.run("qstat")
        self.assertNotIn(a.split(".")[0] + ".", r.stdout)
        r = si.run("qstat", "-x")
        self.assertIn(a + " ", r.stdout)

    def test_14_qsub_errors(self):
        si = self.si
        cases = [
            (["-q", "nosuch", "never.sh"], 170, "qsub: Unknown queue\n"),
            (["-l", "frobs=2", "never.sh"], 187, "qsub: Unknown resource Resource_List.frobs\n"),
            (["-l", "select=1:ngpus=1", "never.sh"], 187,
             "qsub: Unknown resource Resource_List.ngpus\n"),
            (["-W", "depend=afterok:999996", "never.sh"], 153,
             "qsub: Unknown Job Id 999996.%s\n" % si.server),
            (["missing.sh"], 1, "qsub: script file:: No such file or directory\n"),
            (["-l", "select=1:ncpus=2,ncpus=2", "never.sh"], 5,
             'qsub: "-lresource=" cannot be used with "select" or "place", resource is: ncpus\n'),
            (["-l", "place=scatter", "never.sh"], 7, 'qsub: Cannot have "place" without "select"\n'),
            (["-l", "walltime=soon", "never.sh"], 166,
             "qsub: Illegal attribute or resource value Resource_List.walltime\n"),
        ]
        for args, status, message in cases:
            r = si.run("qsub", *args)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (status, "", message), args)
        r = si.run("qsub", "-j", "sideways", "never.sh")
        self.assertEqual(r.returncode, 2)
        self.assertTrue(r.stderr.startswith("qsub: illegal -j value\nusage: qsub "), r.stderr)
        r = si.run("qsub", "-N", "no spaces; please", "never.sh")
        self.assertEqual(r.returncode, 2)
        self.assertTrue(r.stderr.startswith("qsub: illegal -N value\nusage: qsub "), r.stderr)
        r = si.run("qsub", "-Y", "never.sh")
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage: qsub", r.stderr)

    def test_14b_directives(self):
        si = self.si
        si.script("directives.sh", "#!/bin/bash\n\n# a comment\n#PBS -N from_directive\n"
                  "  #PBS -l walltime=00:02:00 -l select=2:ncpus=1\n#PBS -W depend=afterok:1 \\\n"
                  "\n"
                  "true\n#PBS -N after_the_first_command\n")
        # -W depend=afterok:1 continued by the empty line: job 1 finished with 0 long ago.
        jid = si.qsub("-N", "from_cmdline", "-h", "directives.sh")
        job = si.job(jid)
        self.assertEqual(job["Job_Name"], "from_cmdline")
        self.assertEqual(job["Resource_List"], {"ncpus": 2, "nodect": 2, "place": "free",
                                                "select": "2:ncpus=1", "walltime": "00:02:00"})
        self.assertIn(job["Hold_Types"], ("us", "u"))     # the dependency is met at once
        self.assertEqual(job["depend"], "afterok:1.%s@%s" % (si.server, si.server))
        self.assertEqual(si.run("qdel", jid).returncode, 0)
        si.script("bad_directive.sh", "#PBS -j sideways\ntrue\n")
        r = si.run("qsub", "bad_directive.sh")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "qsub: illegal -j value\nqsub: directive error: -j sideways \n"))

    def test_15_outage(self):
        si = self.si
        si.script("slow.sh", "sleep 1\necho survived\n")
        jid = si.qsub("slow.sh")
        si.wait_state(jid, "R")
        self.assertEqual(si.run(CTL, "outage", "on").returncode, 0)
        for cmd in (["qstat"], ["qsub", "never.sh"], ["qdel", jid], ["qstat", "-x", "-f", jid]):
            r = si.run(*cmd)
            self.assertEqual(r.returncode, 162, cmd)
            self.assertEqual(r.stderr, "Connection refused\n%s: cannot connect to server %s "
                                       "(errno=15010)\n" % (cmd[0], si.server), cmd)
        # The server goes on running its jobs meanwhile.
        out = os.path.join(si.work, "slow.sh.o" + jid.split(".")[0])
        wait_for(lambda: read_file(out) == "survived\n", what="the job to finish during the outage")
        self.assertEqual(si.run(CTL, "outage", "off").returncode, 0)
        self.assertEqual(si.job(jid)["Exit_status"], 0)
        # --hang: commands block until the outage ends.
        self.assertEqual(si.run(CTL, "outage", "on", "--hang").returncode, 0)
        p = subprocess.Popen(["qstat", "-x", "-f", "-F", "json", jid], env=si.env, cwd=si.work,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            with self.assertRaises(subprocess.TimeoutExpired):
                p.wait(timeout=0.5)     # a negative check: it must still be waiting
        finally:
            si.run(CTL, "outage", "off")
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err)
        self.assertIn(jid, json.loads(out)["Jobs"])

    def test_16_preempt_and_node_failure(self):
        si = self.si
        si.script("sleep.sh", "sleep 60\n")
        a = si.qsub("sleep.sh")
        b = si.qsub("-r", "n", "sleep.sh")
        c = si.qsub("sleep.sh")
        for j in (a, b, c):
            si.wait_state(j, "R")
        self.assertEqual(si.run(CTL, "preempt", a).returncode, 0)
        job = si.job(a)
        self.assertIn(job["job_state"], "QR")
        wait_for(lambda: (lambda j: j["job_state"] == "R" and j["run_count"] == 2)(si.job(a)),
                 what="the preempted job to run again")
        self.assertEqual(si.run(CTL, "node-fail", b).returncode, 0)
        job = si.wait_state(b, "F")
        self.assertEqual((job["Exit_status"], job["substate"]), (-20, 93))
        self.assertEqual(si.run(CTL, "node-fail", c).returncode, 0)
        job = si.job(c)
        self.assertIn(job["job_state"], "QR")
        self.assertEqual(job["Exit_status"], -20)
        job = si.wait_state(c, "R")
        self.assertEqual(job["run_count"], 2)
        self.assertEqual(si.run("qdel", a, c).returncode, 0)
        si.wait_state(a, "F")
        si.wait_state(c, "F")

    def test_17_concurrent_clients(self):
        si = self.si
        ids, errors = [], []
        lock = threading.Lock()

        def submitter():
            for _ in range(5):
                r = si.run("qsub", "-h", "never.sh")
                with lock:
                    (ids if r.returncode == 0 else errors).append(r.stdout.strip() or r.stderr)

        def watcher():
            for _ in range(5):
                r = si.run("qstat", "-f", "-F", "json")
                if r.returncode != 0:
                    with lock:
                        errors.append(r.stderr)
                else:
                    json.loads(r.stdout)

        threads = [threading.Thread(target=submitter) for _ in range(6)]
        threads += [threading.Thread(target=watcher) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(len(ids), 30)
        self.assertEqual(len(set(ids)), 30)
        r, doc = si.jobs(*ids)
        self.assertEqual(r.returncode, 0)
        self.assertEqual(sorted(doc["Jobs"]), sorted(ids))
        self.assertEqual({j["job_state"] for j in doc["Jobs"].values()}, {"H"})
        r = si.run("qrls", ids[0])
        self.assertEqual(r.returncode, 0)
        si.wait_state(ids[0], "F")
        self.assertEqual(si.run("qdel", *ids[1:]).returncode, 0)

    def test_18_client_dies_mid_transaction(self):
        si = self.si
        code = ("import sqlite3, os, signal\n"
                "db = sqlite3.connect(%r, isolation_level=None)\n"
                "db.execute('BEGIN IMMEDIATE')\n"
                "db.execute(\"UPDATE meta SET value='999' WHERE key='next_seq'\")\n"
                "db.execute(\"INSERT INTO jobs(seq, kind, phase) VALUES(424242, 'job', 'queued')\")\n"
                "os.kill(os.getpid(), signal.SIGKILL)\n" % os.path.join(si.state, "standin.db"))
        r = subprocess.run([sys.executable, "-c", code], timeout=30)
        self.assertEqual(r.returncode, -signal.SIGKILL)
        jid = si.qsub("never.sh")
        self.assertNotEqual(jid.split(".")[0], "999")
        self.assertEqual(si.wait_state(jid, "F")["Exit_status"], 0)
        r = si.run("qstat", "-x", "424242")
        self.assertEqual(r.returncode, 153)

    def test_19_qstat_of_1000_jobs(self):
        si = self.si
        store = core.Store(si.state)
        cfg = store.cfg
        with store.write() as cur:
            first = core.Store.alloc_seq(cur)
            for _ in range(999):
                core.Store.alloc_seq(cur)
            for row in pbs.synthetic_rows(1000, cfg, start_seq=first):
                row = dict(row)
                del row["rid"]
                if row["phase"] == "running":
                    row.update(phase="done", how="ok", exit_status=0, end_time=time.time(),
                               history_time=time.time(), pgid=None)
                core.Store.insert_job(cur, **row)
        store.close()
        t0 = time.monotonic()
        r = si.run("qstat", "-x", "-f", "-F", "json", "-t")
        elapsed = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreaterEqual(len(json.loads(r.stdout)["Jobs"]), 1000)
        sys.stderr.write("[qstat of %d jobs: %.2f s] " % (len(json.loads(r.stdout)["Jobs"]), elapsed))
        self.assertLess(elapsed, 3.0)
        with core.Store(si.state).write() as cur:
            cur.execute("DELETE FROM jobs WHERE seq>=?", (first,))

    def test_20_history_purge(self):
        si = self.si
        a = si.qsub("never.sh")
        si.wait_state(a, "F")
        self.assertEqual(si.run(CTL, "purge").returncode, 0)
        r, doc = si.jobs(a)
        self.assertEqual((r.returncode, r.stderr), (153, "qstat: Unknown Job Id %s\n" % a))
        self.assertNotIn("Jobs", doc)


# ======================================================================= other settings, stop

class SettingsAndStopTest(unittest.TestCase):
    """cjson printer, old walltime exit, short history; stop.sh leaves nothing behind."""

    def test_settings_and_stop(self):
        si = Instance("printer=cjson", "walltime_exit=old", "job_history_duration=2",
                      "kill_grace=1")
        self.addCleanup(shutil.rmtree, si.root, True)
        try:
            si.script("long.sh", "sleep 60\n")
            jid = si.qsub("-l", "walltime=00:00:01", "long.sh")
            job = si.wait_state(jid, "F", timeout=20)
            self.assertEqual(job["Exit_status"], 271)
            self.assertTrue(job["comment"].endswith(" and failed"), job["comment"])
            r = si.run("qstat", "-x", "-f", "-F", "json", jid)
            self.assertIn('\t"timestamp":\t', r.stdout)
            self.assertIn('\t\t\t"Exit_status":\t271,\n', r.stdout)
            # History is kept job_history_duration seconds, then forgotten.
            wait_for(lambda: si.run("qstat", "-x", jid).returncode == 153, timeout=20,
                     what="the job to leave the history")
            # A running job, and one that left a process of its own behind it.
            si.script("forever.sh", "cd \"$PBS_O_WORKDIR\"\nsleep 300 &\necho $! > child.pid\nwait\n")
            a = si.qsub("forever.sh")
            b = si.qsub("long.sh")
            ja, jb = si.wait_state(a, "R"), si.wait_state(b, "R")
            child = wait_for(lambda: (lambda t: int(t) if t and t.strip() else None)(
                read_file(os.path.join(si.work, "child.pid"))), what="the child pid")
            groups = [ja["session_id"], jb["session_id"]]
            for g in groups:
                self.assertTrue(core.group_members(g))
            self.assertTrue(core.pid_alive(si.pid))
        finally:
            si.stop()
        self.assertFalse(core.pid_alive(si.pid), "the server is still alive")
        for g in groups:
            self.assertEqual(core.group_members(g), [], "job group %d left behind" % g)
        self.assertFalse(core.pid_alive(child), "the job's child %d left behind" % child)
        r = subprocess.run(["bash", os.path.join(HERE, "stop.sh"), si.state], timeout=60)
        self.assertEqual(r.returncode, 0)
        r = si.run("qstat")
        self.assertEqual(r.returncode, 162)

    def test_no_instance(self):
        env = dict(os.environ)
        env.pop("YARD_STANDIN_DIR", None)
        for cmd in ("qsub", "qstat", "qdel"):
            r = subprocess.run([os.path.join(BIN, cmd)], env=env, capture_output=True, text=True,
                               timeout=30)
            self.assertEqual((r.returncode, r.stderr),
                             (1, "%s: YARD_STANDIN_DIR is not set (no stand-in scheduler)\n" % cmd))


if __name__ == "__main__":
    unittest.main(verbosity=2)
