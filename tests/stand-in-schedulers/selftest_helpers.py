"""What the stand-in self-tests share (selftest_<scheduler>_*.py, run by selftest.py).

An Instance is a stand-in server in a temporary state dir, started by start.sh and
driven only through the bin/<scheduler> commands, as the C++ backends drive a real
scheduler. Every wait polls a condition with a deadline (wait_for); nothing sleeps for
a fixed time to wait for something.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True      # nothing written into the source tree

from standin import core  # noqa: E402

CTL = os.path.join(HERE, "standin-ctl")
FIXTURES = os.path.join(os.path.dirname(HERE), "fixtures")


def wait_for(cond, timeout=30.0, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(0.05)


def fixture(scheduler, name):
    """A published sample from tests/fixtures/<scheduler>/ (their README names the sources)."""
    with open(os.path.join(FIXTURES, scheduler, name)) as f:
        return f.read()


def read_file(path):
    """The file's text, or None if it does not exist (yet)."""
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


class Instance:
    """A stand-in server in a temporary state dir, driven through bin/<scheduler>."""

    scheduler = None

    def __init__(self, *settings):
        self.bin = os.path.join(HERE, "bin", self.scheduler)
        self.root = tempfile.mkdtemp(prefix="standin-%s-" % self.scheduler)
        self.state = os.path.join(self.root, "state")
        self.work = os.path.join(self.root, "work")
        os.makedirs(self.work)
        r = subprocess.run(["bash", os.path.join(HERE, "start.sh"), self.state, self.scheduler]
                           + list(settings), capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise AssertionError("start.sh failed (%d): %s" % (r.returncode, r.stderr))
        expected = "export PATH=%s:$PATH YARD_STANDIN_DIR=%s\n" % (self.bin, self.state)
        assert r.stdout == expected, r.stdout
        self.env = dict(os.environ, PATH=self.bin + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
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

    def wait_state(self, jid, states, timeout=30.0):
        return wait_for(lambda: (lambda j: j if j[self.STATE] in states else None)(self.job(jid)),
                        timeout, "%s in %s" % (jid, states))

    def stop(self):
        subprocess.run(["bash", os.path.join(HERE, "stop.sh"), self.state], timeout=60)

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class PbsInstance(Instance):
    """Jobs read with `qstat -x -f -F json`."""

    scheduler = "pbs"
    STATE = "job_state"

    def jobs(self, *ids, flags=("-x", "-f", "-F", "json")):
        r = self.run("qstat", *flags, *ids)
        doc = json.loads(r.stdout)
        return r, doc

    def job(self, jid, subjobs=False):
        r, doc = self.jobs(jid, flags=("-x", "-f", "-F", "json") + (("-t",) if subjobs else ()))
        if r.returncode != 0:
            raise AssertionError("qstat %s: %d %s" % (jid, r.returncode, r.stderr))
        return doc["Jobs"][jid] if not subjobs else doc["Jobs"]


def xml_jobs(text):
    """`qstat -x` output -> [(Job_Id, {name: value or {resource: value}})] over every
    <Data> document in it (one per operand)."""
    out = []
    docs = text.split('<?xml version="1.0"?>\n')
    assert docs[0] == "", repr(text[:80])
    for doc in docs[1:]:
        assert doc.startswith("<Data>") and doc.endswith("</Data>\n"), doc
        for job in ET.fromstring(doc):
            attrs = {}
            for e in job:
                attrs[e.tag] = {c.tag: c.text or "" for c in e} if len(e) else (e.text or "")
            out.append((attrs.pop("Job_Id"), attrs))
    return out


class TorqueInstance(Instance):
    """Jobs read with `qstat -x [-t] ID`."""

    scheduler = "torque"
    STATE = "job_state"

    def jobs(self, *ids, flags=("-x",)):
        r = self.run("qstat", *flags, *ids)
        return r, xml_jobs(r.stdout)

    def job(self, jid, subjobs=False):
        r, jobs = self.jobs(jid, flags=("-x", "-t") if subjobs else ("-x",))
        if r.returncode != 0:
            raise AssertionError("qstat %s: %d %s" % (jid, r.returncode, r.stderr))
        return dict(jobs) if subjobs else dict(jobs)[jid]


class LsfInstance(Instance):
    """Jobs submitted with `bsub < script` and read with `bjobs -a -json -o FIELDS`."""

    scheduler = "lsf"
    STATE = "STAT"
    FIELDS = ("jobid stat exit_code exit_reason job_name pend_reason exec_host start_time "
              "finish_time")

    def bsub(self, script, *args):
        """Submit `script` on stdin (None: `bsub ARGS` with a command); the job id."""
        r = self.run("bsub", *args, stdin=script if script is not None else "")
        if r.returncode != 0:
            raise AssertionError("bsub %s failed (%d): %s" % (args, r.returncode, r.stderr))
        assert r.stderr == "", r.stderr
        words = r.stdout.split()
        assert r.stdout.startswith("Job <") and r.stdout.endswith(".\n"), r.stdout
        return words[1][1:-1]

    def records(self, *ids, fields=None):
        r = self.run("bjobs", "-a", "-json", "-o", fields or self.FIELDS, *ids)
        return r, (json.loads(r.stdout)["RECORDS"] if r.stdout else [])

    def job(self, jid):
        """The one record of a job or an element `N[i]`."""
        r, recs = self.records(jid)
        if r.returncode != 0 or len(recs) != 1:
            raise AssertionError("bjobs %s: %d %r %s" % (jid, r.returncode, recs, r.stderr))
        return recs[0]

    def elements(self, jid):
        """An array's records, in index order."""
        r, recs = self.records(jid)
        if r.returncode != 0:
            raise AssertionError("bjobs %s: %d %s" % (jid, r.returncode, r.stderr))
        return recs
