"""What every LSF command shares: settings, job ids and index lists, bsub's refusal, times,
the JSON printer of `bjobs -json`, and the words for mbatchd out of reach.

Messages come from LSF's own error table and commands as OpenLava keeps them (LSF 4's
open descendant; zjma/openlava @ 69fa3e0: lsbatch/lib/lsb.err.c lsb_errmsg[],
lsb.reason.c pending reasons, lsbatch/cmd/cmd.sub.c, cmd.sig.c, cmd.err.c, bjobs.c,
lsbatch/lib/lsb.comm.c) and from the IBM Spectrum LSF 10.1 documentation; LSF.md lists
what is UNVERIFIED.
"""

import os
import re
import sys
import time

from standin import core

DEFAULTS = {
    "clean_period": 3600,        # CLEAN_PERIOD (lsb.params): finished jobs stay in bjobs -a
    "runlimit_grace": 600.0,     # seconds from the run limit's SIGUSR2 to bkill's signals
    "bjobs_unknown": "record",   # an unknown id in bjobs -json: record (ERROR record, exit 0)
                                 # or stderr ("Job <N> is not found", exit 255)
    "hung_time": 5.0,            # seconds a job of a failed node shows UNKWN before EXIT
    "max_job_array_size": 1000,  # MAX_JOB_ARRAY_SIZE (lsb.params)
    "cluster_name": "cluster1",  # LSB_EXEC_CLUSTER
}

QUEUE = "normal"
NOT_SUBMITTED = ". Job not submitted.\n"

# Pending reasons (lsb.reason.c) as bjobs -o pend_reason shows them, ';' ended.
PEND_NEW = "New job is waiting for scheduling;"
PEND_DEPEND = "Job dependency condition not satisfied;"
PEND_DEP_NEVER = "Dependency condition invalid or never satisfied;"
PEND_USER_STOP = "The job was suspended by the user while pending;"
PEND_ARRAY_LIMIT = "The job array has reached its job slot limit;"
PEND_SLOTS = "Not enough job slot(s): 1 host;"
PEND_RESOURCES = "Job's resource requirements not satisfied: 1 host;"
PEND_SPAN = "Not enough processors to meet the job's spanning requirement: 1 host;"
PEND_REQUEUED = "Requeued job is waiting for rescheduling;"

# Termination reasons (bacct/bhist/bjobs keywords) as -o exit_reason shows them.
TERM_OWNER = "TERM_OWNER: job killed by owner"
TERM_RUNLIMIT = "TERM_RUNLIMIT: job killed after reaching LSF run time limit"
TERM_HUNG = "TERM_REMOVE_HUNG_JOB: job removed from the LSF system"


class LsfError(Exception):
    """A command's refusal: the stderr text and the exit status (255: LSF's -1)."""

    def __init__(self, message, status=255):
        super().__init__(message)
        self.message, self.status = message, status


def not_submitted(text):
    """bsub's refusal: `<text>. Job not submitted.` (cmd.sub.c do_sub), exit 255."""
    return LsfError(text + NOT_SUBMITTED)


def unsupported(cmd, what):
    """What the stand-in does not do (LSF.md): exit 2, never an LSF message."""
    return LsfError("%s: the stand-in does not support %s\n" % (cmd, what), 2)


def cfg_value(cfg, key):
    return cfg.get(key, DEFAULTS[key])


# =============================================================== index lists

INDEX_RE = re.compile(r"^(\d+)(?:-(\d+)(?::(\d+))?)?$")


def parse_indices(text):
    """LSF's index list `1-10:2,15` -> sorted indices, or None if malformed (0, a range
    going down or a step of 0 included)."""
    out = set()
    for part in text.split(","):
        m = INDEX_RE.match(part.strip())
        if not m:
            return None
        start = int(m.group(1))
        end = int(m.group(2)) if m.group(2) else start
        step = int(m.group(3)) if m.group(3) else 1
        if start < 1 or end < start or step < 1:
            return None
        out.update(range(start, end + 1, step))
    return sorted(out)


ID_RE = re.compile(r"^\s*(\d+)(?:\[([^\]]*)\])?\s*$")


def parse_id(text):
    """`123`, `123[4]`, `123[1-3,5]` -> (seq, indices or None), or None if malformed."""
    m = ID_RE.match(text)
    if not m or int(m.group(1)) <= 0:
        return None
    if m.group(2) is None:
        return int(m.group(1)), None
    indices = parse_indices(m.group(2))
    return (int(m.group(1)), indices) if indices else None


def display_id(job):
    """Job <N>, an element Job <N[i]> (lsb_jobid2str)."""
    if job["kind"] == "sub":
        return "%d[%d]" % (job["seq"], job["idx"])
    return str(job["seq"])


def find(cur, seq, indices=None):
    """(top row, [element rows]) of job `seq` (its elements in `indices`, all of them
    when None), or (None, []) if LSF does not know it."""
    top = cur.execute("SELECT * FROM jobs WHERE seq=? AND kind IN ('job', 'array')",
                      (seq,)).fetchone()
    if top is None:
        return None, []
    top = core.decode(top)
    if top["kind"] != "array":
        return (top, []) if indices is None else (None, [])
    subs = [core.decode(r) for r in cur.execute(
        "SELECT * FROM jobs WHERE parent=? ORDER BY idx", (top["rid"],))]
    if indices is not None:
        wanted = set(indices)
        subs = [s for s in subs if s["idx"] in wanted]
        if not subs:
            return None, []
    return top, subs


def find_for_ctl(cur, cfg, text):
    """standin-ctl preempt/node-fail ID: a job or an element `N[i]`."""
    ref = parse_id(text)
    if ref is None:
        return []
    top, subs = find(cur, ref[0], ref[1])
    if top is None:
        return []
    return subs if top["kind"] == "array" else [top]


# =============================================================== times and JSON

def lsf_time(t):
    """`Jan  7 09:59` (local time, no year: the published samples)."""
    lt = time.localtime(int(t))
    return "%s %2d %02d:%02d" % (time.strftime("%b", lt), lt.tm_mday, lt.tm_hour, lt.tm_min)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n",
            "\r": "\\r", "\t": "\\t"}


def json_string(value):
    """A JSON string as bjobs writes it: '/' escaped as '\\/' (a published sample)."""
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch < " ":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def json_document(records):
    """`bjobs -o ... -json`: records are lists of (KEY, value) pairs, every value a string;
    laid out as the published samples (two-space steps, no blank after ':')."""
    parts = ['{\n  "COMMAND":"bjobs",\n  "JOBS":%d,\n  "RECORDS":[\n' % len(records)]
    shown = []
    for record in records:
        fields = ",\n".join('      "%s":%s' % (k, json_string(v)) for k, v in record)
        shown.append("    {\n" + fields + "\n    }")
    parts.append(",\n".join(shown))
    parts.append("\n  ]\n}\n")
    return "".join(parts)


# =============================================================== out of reach

OUTAGE_TRIES = 2
STILL_TRYING = "batch system daemon not responding ... still trying\n"


def refused(final):
    """mbatchd cannot be reached (outage, or the server is not running): lsb.comm.c's
    retry line, then the command's last words (`final`); exit 255."""
    def report(store):
        sys.stderr.write(STILL_TRYING * OUTAGE_TRIES + final)
        sys.exit(255)
    return report


def user_name():
    return core.user_info(os.getuid())[0]
