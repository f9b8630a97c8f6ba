"""What every Torque command shares: settings, error numbers, job ids, usage texts, and
the words for a server out of reach.

Facts from the Torque 6.1.3.h5 sources (adaptivecomputing/torque @ 4decc716, the last
release): src/include/pbs_error_db.h (numbers and texts; a command exits with
pbs_errno, i.e. the number & 255), src/include/pbs_job.h (JOB_EXEC_*),
src/cmds/qsub_functions.c, qstat.c, qdel.c (usage texts), src/lib/Libcmds/cnt2server.c
and src/lib/Libifl/pbsD_connect.c (a server out of reach).
"""

import os
import re
import socket
import sys

from standin import core

DEFAULTS = {
    "keep_completed": 300,          # seconds a completed job stays visible (state C)
    "torque_version": "6.1.3.h5",   # qstat/qsub --version, PBS_VERSION
}

QUEUE = "batch"
VERSION_COMMIT = "4decc716daa73044648b5578ef68d89713d2f6a2"

# pbs_errno values (pbs_error_db.h, numbered from PBSE_ = 15000)
PBSE_UNKJOBID = 15001       # "Unknown Job Id Error"
PBSE_BADATVAL = 15016       # "Illegal attribute or resource value for"
PBSE_BADSTATE = 15018       # "Request invalid for state of job"
PBSE_UNKQUE = 15020         # "Unknown queue"
PBSE_UNKRESC = 15037        # "Unknown resource type "
PBSE_EXCQRESC = 15038       # "Job exceeds queue resource limits"
PBSE_BADDEPEND = 15056      # "Invalid Job Dependency"
PBSE_BAD_ARRAY_REQ = 15083  # "Bad Job Array Request"
ECONNREFUSED = 111

# Exit statuses (pbs_job.h); a signal gives 256 + signal (mom_start.c)
JOB_EXEC_FAIL1 = -1
JOB_EXEC_RETRY = -3
JOB_EXEC_OVERLIMIT_WT = -11
DEPENDENCY_DELETED_EXIT = 271   # job_func.c handle_aborted_job

PBS_MAXJOBNAMELEN = 256     # ck_job_name.c
PBS_MAXJOBARRAY = 99999     # array indices 0..PBS_MAXJOBARRAY (server_limits.h)

QSUB_USAGE = (
    "usage: qsub [-a date_time] [-A account_string] [-b secs]\n"
    "    [-c [ none | { enabled | periodic | shutdown |\n"
    "    depth=<int> | dir=<path> | interval=<minutes>}... ]\n"
    "    [-C directive_prefix] [-d path] [-D path]\n"
    "    [-e path] [-h] [-I] [-j oe|eo|n] [-k {oe}] [-K <kill delay seconds>] \n"
    "    [-l resource_list] [-m n|{abe}] [-M user_list] [-N jobname] [-o path] \n"
    "    [-p priority] [-P proxy_user [-J <jobid]] [-q queue] [-r y|n] \n"
    "    [-S path] [-t number_to_submit] [-T type]  [-u user_list] [-w] path\n"
    "    [-W additional_attributes] [-v variable_list] [-V ] [-x] [-X] [-z] [script]\n")
QSTAT_USAGE = (
    "usage: \n"
    "                          qstat [-f [-1]] [-W site_specific] [-x] [ job_identifier... "
    "| destination... ]\n"
    "                          qstat [-a|-i|-r|-e] [-u user] [-n [-1]] [-s] [-t] [-G|-M] [-R] "
    "[job_id... | destination...]\n"
    "                          qstat -Q [-f [-1]] [-W site_specific] [ destination... ]\n"
    "                          qstat -q [-G|-M] [ destination... ]\n"
    "                          qstat -B [-f [-1]] [-W site_specific] [ server_name... ]\n"
    "                          qstat -t\n")
QDEL_USAGE = ("usage: qdel [{ -a | -c | -p | -t | -W delay | -m message}] [-b retry_seconds] "
              "[<JOBID>[<JOBID>]|'all'|'ALL']...\n"
              "       -a -c, -m, -p, -t, and -W are mutually exclusive\n")


class QsubError(Exception):
    """qsub's answer to a bad request: the stderr text and the exit status."""

    def __init__(self, message, status):
        super().__init__(message)
        self.message, self.status = message, status


def usage_error(message):
    """print_qsub_usage_exit(): "[message]", an empty line, the usage; exit 2."""
    return QsubError("[%s]\n\n%s\n" % (message, QSUB_USAGE), 2)


def submit_error(errno, text):
    """The server refused the job: qsub prints its reply and exits with pbs_errno."""
    return QsubError("qsub: submit error (%s)\n" % text, errno % 256)


def version(cfg):
    return str(cfg.get("torque_version") or DEFAULTS["torque_version"])


def cfg_or_default():
    d = os.environ.get("YARD_STANDIN_DIR")
    try:
        return core.load_config(d) if d else dict(DEFAULTS)
    except (OSError, ValueError):
        return dict(DEFAULTS)


# =============================================================== job ids

def display_id(job, server):
    if job["kind"] == "array":
        return "%d[].%s" % (job["seq"], server)
    if job["kind"] == "sub":
        return "%d[%d].%s" % (job["seq"], job["idx"], server)
    return "%d.%s" % (job["seq"], server)


# 123, 123.srv, 123[], 123[].srv, 123.srv[] (qsub.1 writes 21.tom.com[]), 123[4], 123[4].srv
ID_RE = re.compile(r"^(\d+)(?:\[(\d*)\])?(?:\.([^\[\]@\s]+))?(?:\[(\d*)\])?(?:@\S*)?$")


class JobRef:
    """A job id operand. kind: job, array (N[]) or sub (N[i]); shown: the full id."""

    def __init__(self, seq, kind, idx, server_ok, shown):
        self.seq, self.kind, self.idx = seq, kind, idx
        self.server_ok, self.shown = server_ok, shown


def parse_ref(text, server):
    m = ID_RE.match(text.strip())
    if not m or (m.group(2) is not None and m.group(4) is not None):
        return None
    seq = int(m.group(1))
    bracket = m.group(2) if m.group(2) is not None else m.group(4)
    suffix = m.group(3)
    server_ok = (not suffix or suffix == server or server.startswith(suffix + ".")
                 or suffix.startswith(server + "."))
    host = server if (not suffix or server_ok) else suffix
    if bracket is None:
        return JobRef(seq, "job", None, server_ok, "%d.%s" % (seq, host))
    if bracket == "":
        return JobRef(seq, "array", None, server_ok, "%d[].%s" % (seq, host))
    return JobRef(seq, "sub", int(bracket), server_ok, "%d[%s].%s" % (seq, bracket, host))


def find(cur, ref):
    """The job rows a JobRef names (none if it names another server)."""
    if ref is None or not ref.server_ok:
        return []
    rows = cur.execute("SELECT * FROM jobs WHERE seq=? AND kind=? AND ifnull(idx, -1)=?",
                       (ref.seq, ref.kind, -1 if ref.idx is None else ref.idx)).fetchall()
    return [core.decode(r) for r in rows]


def find_for_ctl(cur, cfg, text):
    """standin-ctl preempt/node-fail ID."""
    return find(cur, parse_ref(text, cfg["server_name"]))


# =============================================================== out of reach

def server_address(server):
    try:
        return socket.gethostbyname(server)
    except OSError:
        return "127.0.0.1"


def refused(cmd):
    """The server cannot be reached: pbs_connect's, cnt2server's and the command's lines
    for ECONNREFUSED (UNVERIFIED as a whole: see README); exit status 111."""
    def report(store):
        server = store.cfg["server_name"]
        sys.stderr.write("Unable to communicate with %s(%s)\n"
                         "Cannot connect to specified server host '%s'.\n"
                         "%s: cannot connect to server %s (errno=%d) %s\n"
                         % (server, server_address(server), server, cmd, server, ECONNREFUSED,
                            os.strerror(ECONNREFUSED)))
        sys.exit(ECONNREFUSED)
    return report
