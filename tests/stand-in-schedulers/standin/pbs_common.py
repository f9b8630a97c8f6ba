"""What every PBS command shares: settings, error numbers, substates, usage texts,
job ids, and the words for a server out of reach.

Facts from the OpenPBS sources (openpbs/openpbs @ cd7ab5e): src/include/job.h and
pbs_error.h (numbers), src/cmds/qsub.c, qstat.c, qdel.c (usage texts).
"""

import os
import re
import sys
import time

from standin import core

DEFAULTS = {
    "printer": "old",              # "old": `"key":value`, 4 spaces; "cjson": `"key":\tvalue`, tabs
    "walltime_exit": "modern",     # "modern": Exit_status -29 (OpenPBS >= 22.05); "old": 271
    "pbs_version": None,           # None: 22.05.11 with the old printer, 23.06.06 with cjson
    "table_trunc_mark": "*",       # mark of a truncated field in the default qstat table
}

QUEUE = "workq"

# Exit statuses (src/include/job.h)
JOB_EXEC_FAIL1 = -1
JOB_EXEC_RERUN_MS_FAIL = -20
JOB_EXEC_KILL_WALLTIME = -29

# pbs_errno values (src/include/pbs_error.h); commands exit with errno % 256
PBSE_UNKJOBID = 15001
PBSE_UNKQUE = 15018
PBSE_BADATVAL = 15014
PBSE_SYSTEM = 15010
PBSE_UNKRESC = 15035
PBSE_HISTJOBID = 15139
PBSE_BADSTATE = 15016
PBSE_INVALJOBRESC = 15109
PBSE_PLACENOSELECT = 15111
PBS_MAXJOBNAME = 230

# Substates (src/include/job.h)
SUB_QUEUED, SUB_HELD, SUB_DEPNHOLD, SUB_WAITING = 10, 20, 22, 30
SUB_RUNNING, SUB_EXITING = 42, 51
SUB_BEGUN = 70
SUB_TERMINATED, SUB_FINISHED, SUB_FAILED = 91, 92, 93

HOW_SUBSTATE = {"ok": SUB_FINISHED, "failed": SUB_FAILED, "walltime": SUB_FAILED,
                "nodefail": SUB_FAILED, "terminated": SUB_TERMINATED,
                "deleted": SUB_TERMINATED, "depdeleted": SUB_TERMINATED}
SUBSTATE_WORD = {SUB_FINISHED: "finished", SUB_FAILED: "failed", SUB_TERMINATED: "terminated"}

QSUB_USAGE = ("usage: qsub [-a date_time] [-A account_string] [-c interval]\n"
              "\t[-C directive_prefix] [-e path] [-f ] [-h ] [-I [-X]] [-j oe|eo] [-J X-Y[:Z]]\n"
              "\t[-k keep] [-l resource_list] [-m mail_options] [-M user_list]\n"
              "\t[-N jobname] [-o path] [-p priority] [-P project] [-q queue] [-r y|n]\n"
              "\t[-R o|e|oe] [-S path] [-u user_list] [-W otherattributes=value...]\n"
              "\t[-v variable_list] [-V ] [-z] [script | -- command [arg1 ...]]\n"
              "       qsub --version\n")
QSTAT_USAGE = ("usage: \n"
               "qstat [-f] [-J] [-p] [-t] [-x] [-E] [-F format | -w] [-D delim] "
               "[ job_identifier... | destination... ]\n"
               "qstat [-a|-i|-r|-H|-T] [-J] [-t] [-u user] [-n] [-s] [-G|-M] [-1] [-w]\n"
               "\t[ job_identifier... | destination... ]\n"
               "qstat -Q [-f] [-F format] [-D delim] [ destination... ]\n"
               "qstat -q [-G|-M] [ destination... ]\n"
               "qstat -B [-f] [-F format] [-D delim] [ server_name... ]\n")
QDEL_USAGE = ("usage:\n"
              "\tqdel [-W force|suppress_email=X] [-x] job_identifier...\n"
              "\tqdel --version\n")


def pbs_version(cfg):
    if cfg.get("pbs_version"):
        return str(cfg["pbs_version"])
    return "23.06.06" if cfg.get("printer") == "cjson" else "22.05.11"


# =============================================================== job ids

def display_id(job, server):
    if job["kind"] == "array":
        return "%d[].%s" % (job["seq"], server)
    if job["kind"] == "sub":
        return "%d[%d].%s" % (job["seq"], job["idx"], server)
    return "%d.%s" % (job["seq"], server)


ID_RE = re.compile(r"^(\d+)(\[(\d*)(?:-(\d+))?\])?(?:\.([^@\s]*))?(?:@\S*)?$")


class JobRef:
    """A job id operand: 123, 123.srv, 123[], 123[].srv, 123[4], 123[1-3]."""

    def __init__(self, seq, bracket, lo, hi, server_ok, shown):
        self.seq, self.bracket, self.lo, self.hi = seq, bracket, lo, hi
        self.server_ok, self.shown = server_ok, shown

    @property
    def kind(self):
        if not self.bracket:
            return "job"
        return "array" if self.lo is None else "sub"


def parse_ref(text, server):
    m = ID_RE.match(text)
    if not m:
        return None
    seq = int(m.group(1))
    bracket = m.group(2) is not None
    lo = int(m.group(3)) if m.group(3) else None
    hi = int(m.group(4)) if m.group(4) else None
    if bracket and lo is None and hi is not None:
        return None
    suffix = m.group(5)
    server_ok = (not suffix or suffix == server or server.startswith(suffix + ".")
                 or suffix.startswith(server + "."))
    host = server if (not suffix or server_ok) else suffix
    if not bracket:
        shown = "%d.%s" % (seq, host)
    elif lo is None:
        shown = "%d[].%s" % (seq, host)
    elif hi is None:
        shown = "%d[%d].%s" % (seq, lo, host)
    else:
        shown = "%d[%d-%d].%s" % (seq, lo, hi, host)
    return JobRef(seq, bracket, lo, hi, server_ok, shown)


def _cfg_or_default():
    d = os.environ.get("YARD_STANDIN_DIR")
    try:
        return core.load_config(d) if d else dict(DEFAULTS)
    except (OSError, ValueError):
        return dict(DEFAULTS)


def refused(cmd, json_prologue=False):
    """The server cannot be reached (UNVERIFIED wording, see README)."""
    def report(store):
        if json_prologue:
            from standin.pbs_qstat_json import render_json
            sys.stdout.write(render_json(store.cfg, int(time.time()), []))
            sys.stdout.flush()
        sys.stderr.write("Connection refused\n%s: cannot connect to server %s (errno=%d)\n"
                         % (cmd, store.cfg["server_name"], PBSE_SYSTEM))
        sys.exit(PBSE_SYSTEM % 256)
    return report
