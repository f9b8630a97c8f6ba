"""What every HTCondor command shares: settings, job ids, the schedd's address, the words
for a queue manager out of reach, and HTCondor's own small formats.

Sources (htcondor/htcondor @ 7491a145): src/condor_submit.V6/submit.cpp (connect failure),
src/condor_q.V6/queue.cpp (fetch failure), src/condor_rm.V6/rm.cpp and
src/condor_daemon_client/dc_schedd.cpp (condor_rm), src/condor_daemon_client/daemon.cpp
(`CEDAR:6001:Failed to connect to <addr>`), src/condor_utils/format_time.cpp
(format_time, format_time_short). HTCONDOR.md lists what is UNVERIFIED.
"""

import hashlib
import os
import re
import socket
import sys
import time

from standin import core

DEFAULTS = {
    "history_duration": 86400,   # seconds a cluster that left the queue stays in condor_history
    "watch_q_hint": 1,           # condor_submit's stderr hint `To monitor your job(s), run: ...`
    "memory_poll": 0.25,         # seconds between two measures of a job's memory
    "schedd_port": 9618,         # the port in the schedd's address (messages only)
}

# JobStatus (docs/codes-other-values/job-status-codes.rst)
IDLE, RUNNING, REMOVED, COMPLETED, HELD, SUSPENDED = 1, 2, 3, 4, 5, 7
ST_LETTER = {IDLE: "I", RUNNING: "R", REMOVED: "X", COMPLETED: "C", HELD: "H", SUSPENDED: "S"}

# Hold codes (src/condor_utils/condor_holdcodes.h)
HOLD_FAILED_TO_CREATE = 6
HOLD_SUBMITTED_ON_HOLD = 15
HOLD_OUT_OF_RESOURCES, SUB_MEMORY = 34, 102
HOLD_JOB_DURATION = 46


class CondorError(Exception):
    """A command's refusal: the stderr text and the exit status."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.message, self.status = message, status


def unsupported(cmd, what):
    """What the stand-in does not do (HTCONDOR.md): exit 2, never an HTCondor message."""
    return CondorError("%s: the stand-in does not support %s\n" % (cmd, what), 2)


def dash_option(arg, name, least):
    """HTCondor's is_dash_arg_prefix: `-x` or `--x`, x a prefix of name, >= least chars."""
    if not arg.startswith("-") or arg in ("-", "--"):
        return False
    rest = arg[2:] if arg.startswith("--") else arg[1:]
    return len(rest) >= least and name.startswith(rest)


def cfg_value(cfg, key):
    return cfg.get(key, DEFAULTS[key])


def user_name():
    return core.user_info(os.getuid())[0]


def fqdn():
    """The host's full name (HTCondor's get_local_fqdn); its plain name if that says
    localhost."""
    name = socket.getfqdn()
    if not name or name.startswith("localhost"):
        name = socket.gethostname()
    return name


# =============================================================== times

def format_time(secs):
    """format_time(): `%3d+%02d:%02d:%02d` (days+hh:mm:ss)."""
    secs = max(0, int(secs))
    return "%3d+%02d:%02d:%02d" % (secs // 86400, secs // 3600 % 24, secs // 60 % 60, secs % 60)


def format_time_short(secs):
    """format_time_short(): format_time without its leading blanks, zeros and '+', down
    to `mm:ss` at least (`01:00` for a minute, `1:00:00` for an hour)."""
    text = format_time(secs)
    i = 0
    while i < len(text):
        if text[i] not in " 0+":
            if text[i] == ":":
                i += 1
            break
        i += 1
    return text[i:]


def qdate(t):
    """`%2d/%-2d %02d:%02d` (month/day hour:minute, local time): the QDATE columns."""
    lt = time.localtime(int(t))
    return "%2d/%-2d %02d:%02d" % (lt.tm_mon, lt.tm_mday, lt.tm_hour, lt.tm_min)


# =============================================================== job ids

ID_RE = re.compile(r"^(\d+)(?:\.(\d+))?$")


def parse_job_id(text):
    """`C` -> (C, None), `C.P` -> (C, P), anything else -> None (an owner name)."""
    m = ID_RE.match(text)
    if not m:
        return None
    return int(m.group(1)), (int(m.group(2)) if m.group(2) is not None else None)


def display_id(job):
    """`C.P` for a proc, `C` for a cluster."""
    if job["kind"] == "sub":
        return "%d.%d" % (job["seq"], job["idx"])
    return str(job["seq"])


def in_queue(job):
    """A proc HTCondor's queue holds: materialized and not yet gone to the history."""
    return job["kind"] == "sub" and not job["dep_hold"] and job["phase"] != "done"


def find_for_ctl(cur, cfg, text):
    """standin-ctl preempt/node-fail ID: a proc `C.P` (or every proc of cluster `C`)."""
    ref = parse_job_id(text)
    if ref is None:
        return []
    rows = cur.execute("SELECT * FROM jobs WHERE seq=? AND kind='sub' AND dep_hold=0 "
                       "ORDER BY idx", (ref[0],)).fetchall()
    return [core.decode(r) for r in rows if ref[1] is None or r["idx"] == ref[1]]


# =============================================================== out of reach

def schedd_address(store):
    """The schedd's address as HTCondor prints it: a sinful string."""
    pid = core.read_pid(store.dir) or 0
    tag = hashlib.sha1(store.dir.encode()).hexdigest()[:4]
    port = int(cfg_value(store.cfg, "schedd_port"))
    return ("<127.0.0.1:%d?addrs=127.0.0.1-%d&alias=%s&noUDP&sock=schedd_%d_%s>"
            % (port, port, fqdn(), pid, tag))


def refused(cmd):
    """The schedd cannot be reached (standin-ctl outage on, or the server is not running):
    each command's words, exit 1."""
    def report(store):
        if cmd == "condor_rm":
            raise RmUnreachable()       # condor_rm says it per operand
        addr = schedd_address(store)
        cedar = "CEDAR:6001:Failed to connect to %s" % addr
        if cmd == "condor_submit":
            text = "\nERROR: Failed to connect to local queue manager\n%s\n" % cedar
        else:
            text = "\n-- Failed to fetch ads from: %s : %s\n%s\n" % (addr, fqdn(), cedar)
        sys.stdout.flush()
        sys.stderr.write(text)
        sys.exit(1)
    return report


class RmUnreachable(Exception):
    """condor_rm goes on after the connect failure to name what it could not do."""
