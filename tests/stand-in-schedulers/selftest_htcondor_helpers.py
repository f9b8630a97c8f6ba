"""What the HTCondor stand-in's self-tests (selftest_htcondor_*.py) share: an instance
driven through bin/htcondor as the C++ backend drives HTCondor (condor_submit -terse FILE,
condor_q IDS -json -attributes ..., condor_history IDS -json -attributes ...
-completedsince T, condor_rm IDS)."""

import json
import os

from selftest_helpers import Instance, wait_for

ATTRS = ("ClusterId,ProcId,JobStatus,JobBatchName,Owner,ExitCode,ExitBySignal,ExitSignal,"
         "HoldReason,HoldReasonCode,HoldReasonSubCode,RemoveReason,NumJobStarts,JobStartDate,"
         "CompletionDate,EnteredCurrentStatus,RemoteHost")


class HtcondorInstance(Instance):
    scheduler = "htcondor"
    STATE = "JobStatus"

    def write(self, name, text):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def submit(self, name, body, *args):
        """Write the description `name` and submit it with -terse; the cluster id."""
        path = self.write(name, body)
        r = self.run("condor_submit", "-terse", *args, path)
        if r.returncode != 0:
            raise AssertionError("condor_submit %s failed (%d): %s" % (name, r.returncode,
                                                                       r.stderr))
        first, last = r.stdout.split(" - ")
        return int(first.split(".")[0])

    def ads(self, cmd, *args):
        r = self.run(cmd, *args, "-json", "-attributes", ATTRS)
        if r.returncode != 0:
            raise AssertionError("%s %s: %d %s" % (cmd, args, r.returncode, r.stderr))
        return json.loads(r.stdout) if r.stdout else []

    def q(self, *ids):
        return self.ads("condor_q", *[str(i) for i in ids])

    def history(self, *ids):
        return self.ads("condor_history", *[str(i) for i in ids])

    def job(self, jid):
        """The ad of proc `C.P`: in the queue, else in the history."""
        for cmd in ("condor_q", "condor_history"):
            found = self.ads(cmd, str(jid))
            if found:
                return found[0]
        return {"JobStatus": None}

    def wait_gone(self, jid, timeout=30.0):
        """The history ad of a proc once it left the queue."""
        return wait_for(lambda: (self.history(jid) or [None])[0] if not self.q(jid) else None,
                        timeout, "%s to leave the queue" % jid)
