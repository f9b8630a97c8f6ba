"""PBS Professional / OpenPBS front ends: qsub, qstat, qdel, qrls; and the PBS policy
the server applies (environment, exit statuses, comments).

Facts come from /work/shared/formats/FORMATS.md section 1 and from the OpenPBS sources
(openpbs/openpbs @ cd7ab5e: src/cmds/qstat.c, qsub.c, qdel.c, src/lib/Libjson/cJSON/
pbs_cjson.c, the pre-cJSON src/lib/Libcmds/pbs_json.c, src/server/*.c). What had to be
invented is listed in README.md under UNVERIFIED.

    python3 -m standin.pbs synth-qstat N [--printer old|cjson]
prints a `qstat -x -f -F json -t` answer for N synthetic jobs without any server.
"""

import getopt
import json
import os
import re
import shlex
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


# =============================================================== resources

MEM_UNITS = {"b": 1, "w": 8, "kb": 1 << 10, "kw": 8 << 10, "mb": 1 << 20, "mw": 8 << 20,
             "gb": 1 << 30, "gw": 8 << 30, "tb": 1 << 40, "tw": 8 << 40, "pb": 1 << 50}
SIZE_RE = re.compile(r"^(\d+)([kmgtp]?[bw])?$", re.I)
# Resources the stand-in server knows. Chunk-level ones may appear inside select.
CHUNK_RESOURCES = {"ncpus", "mem", "vmem", "mpiprocs", "ompthreads", "ngpus", "host", "vnode",
                   "arch"}
JOB_RESOURCES = {"walltime", "select", "place", "ncpus", "mem", "vmem", "cput", "ngpus",
                 "mpiprocs", "ompthreads", "nodes", "software", "file", "pcput", "pmem", "pvmem",
                 "min_walltime", "max_walltime", "preempt_targets", "nodect", "arch", "host",
                 "vnode"}
PLACE_WORDS = {"free", "pack", "scatter", "vscatter", "excl", "shared", "exclhost"}


def size_bytes(text):
    m = SIZE_RE.match(text.strip())
    if not m:
        return None
    return int(m.group(1)) * MEM_UNITS[(m.group(2) or "b").lower()]


def size_text(nbytes):
    for unit in ("tb", "gb", "mb", "kb"):
        if nbytes and nbytes % MEM_UNITS[unit] == 0:
            return "%d%s" % (nbytes // MEM_UNITS[unit], unit)
    return "%db" % nbytes


class QsubError(Exception):
    def __init__(self, message, status, usage=False):
        super().__init__(message)
        self.message, self.status, self.usage = message, status, usage


def illegal(opt):
    return QsubError("qsub: illegal -%s value\n" % opt, 2, usage=True)


def unknown_resource(name):
    return QsubError("qsub: Unknown resource Resource_List.%s\n" % name, PBSE_UNKRESC % 256)


def bad_value(name):
    return QsubError("qsub: Illegal attribute or resource value Resource_List.%s\n" % name,
                     PBSE_BADATVAL % 256)


def split_outside_quotes(text, sep):
    parts, cur, quote = [], [], None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def unquote(text):
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_l(value, gpus):
    """-l res=val[,res=val...] -> ordered dict. Raises QsubError."""
    out = {}
    for item in split_outside_quotes(value, ","):
        if not item:
            raise illegal("l")
        if "=" not in item:
            raise illegal("l")
        name, val = item.split("=", 1)
        name, val = name.strip(), unquote(val.strip())
        if not name or not val:
            raise illegal("l")
        if name not in JOB_RESOURCES or (name == "ngpus" and gpus <= 0):
            raise unknown_resource(name)
        out[name] = val
    return out


def parse_select(text, gpus):
    """select=[N:]chunk[+[N:]chunk...] -> list of (count, {res: val})."""
    chunks = []
    for part in text.split("+"):
        fields = part.split(":")
        count = 1
        if fields and fields[0].isdigit():
            count = int(fields.pop(0))
        res = {}
        for f in fields:
            if "=" not in f:
                raise illegal("l")
            k, v = f.split("=", 1)
            if k not in CHUNK_RESOURCES or (k == "ngpus" and gpus <= 0):
                raise unknown_resource(k)
            res[k] = v
        if count < 1:
            raise bad_value("select")
        chunks.append((count, res))
    if not chunks:
        raise illegal("l")
    return chunks


def build_resources(req, gpus):
    """The job's Resource_List (sorted pairs) and its engine numbers.

    With select: Resource_List.select as given, place defaults to free. Without it
    (old-style ncpus/mem or nothing): select=1[:ncpus=..][:mem=..], place=pack
    (pbs_resources.7B "Default Placement" and "Resource Specification Conversion").
    ncpus, nodect, mem, ngpus and mpiprocs are the sums over the chunks."""
    rl = {}
    walltime = None
    if "walltime" in req:
        walltime = core.parse_duration(req["walltime"])
        if walltime is None:
            raise bad_value("walltime")
        rl["walltime"] = core.hms(walltime)
    for name in ("mem", "vmem"):
        if name in req and size_bytes(req[name]) is None:
            raise bad_value(name)
    if "place" in req:
        words = [w for w in req["place"].split(":") if not w.startswith("group=")]
        if any(w not in PLACE_WORDS for w in words):
            raise bad_value("place")
    chunk_keys = ("ncpus", "mem", "vmem", "ngpus", "mpiprocs", "ompthreads")
    # req_quejob.c: host-level resources may not sit beside select/place, and place
    # needs select.
    if "select" in req or "place" in req:
        for k in req:
            if k in chunk_keys or k in ("arch", "host", "vnode"):
                raise QsubError('qsub: "-lresource=" cannot be used with "select" or "place", '
                                "resource is: %s\n" % k, PBSE_INVALJOBRESC % 256)
        if "select" not in req:
            raise QsubError('qsub: Cannot have "place" without "select"\n',
                            PBSE_PLACENOSELECT % 256)
    if "select" in req:
        chunks = parse_select(req["select"], gpus)
        rl["select"] = req["select"]
        rl["place"] = req.get("place", "free")
    else:
        items = [(k, req[k]) for k in chunk_keys if k in req]
        chunks = [(1, dict(items))]
        rl["select"] = "1" + "".join(":%s=%s" % kv for kv in items)
        rl["place"] = req.get("place", "pack")
    ncpus = ngpus = nodect = mem = 0
    mem_given = gpus_given = False
    mpiprocs = None
    for count, res in chunks:
        nodect += count
        try:
            ncpus += count * int(res.get("ncpus", "1"))
            ngpus += count * int(res.get("ngpus", "0"))
            if "mpiprocs" in res:
                mpiprocs = (mpiprocs or 0) + count * int(res["mpiprocs"])
        except ValueError:
            raise bad_value("select")
        gpus_given = gpus_given or "ngpus" in res
        if "mem" in res:
            b = size_bytes(res["mem"])
            if b is None:
                raise bad_value("mem")
            mem += count * b
            mem_given = True
    rl["ncpus"] = str(ncpus)
    rl["nodect"] = str(nodect)
    if mem_given:
        single = len(chunks) == 1 and chunks[0][0] == 1
        rl["mem"] = chunks[0][1]["mem"] if single else size_text(mem)
    if gpus_given:
        rl["ngpus"] = str(ngpus)
    if mpiprocs is not None:
        rl["mpiprocs"] = str(mpiprocs)
    for k, v in req.items():        # job-wide resources given as such (vmem, cput, ...)
        if k not in rl and k not in ("select", "place", "ncpus", "mem", "ngpus", "mpiprocs"):
            rl[k] = v
    chunk_list = [{"count": n, "ncpus": int(r.get("ncpus", "1")), "mem": r.get("mem"),
                   "ngpus": int(r.get("ngpus", "0")),
                   "mpiprocs": int(r["mpiprocs"]) if "mpiprocs" in r else None}
                  for n, r in chunks]
    return sorted(rl.items()), {"ncpus": ncpus, "ngpus": ngpus, "walltime": walltime,
                                "chunks": chunk_list}


# =============================================================== qsub

QSUB_OPTS = "a:A:c:C:e:fGhIj:J:k:l:m:M:N:o:p:P:q:r:R:S:u:v:VW:Xz"
DEP_TYPES = ("after", "afterok", "afternotok", "afterany")
ARRAY_RE = re.compile(r"^(\d+)-(\d+)(?::(\d+))?(?:%(\d+))?$")


def getopt_posix(args, optstring, cmd):
    try:
        return getopt.getopt(args, optstring)
    except getopt.GetoptError as e:
        if "requires argument" in e.msg:
            raise QsubError("%s: option requires an argument -- '%s'\n" % (cmd, e.opt), 2, True)
        raise QsubError("%s: invalid option -- '%s'\n" % (cmd, e.opt), 2, True)


def parse_W(value, into):
    """-W attr=value[,attr=value...]; an item without '=' continues the value before it
    (depend=afterok:1,afterany:2)."""
    last = None
    for item in split_outside_quotes(value, ","):
        if "=" not in item:
            if last is None:
                raise illegal("W")
            into[last] += "," + item.strip()
            continue
        name, val = item.split("=", 1)
        last = name.strip()
        into[last] = unquote(val.strip())


def parse_depend(text, server):
    """depend=type:id[:id...][,type:id...] -> list of dicts."""
    deps = []
    for group in text.split(","):
        fields = group.split(":")
        if len(fields) < 2 or fields[0] not in DEP_TYPES:
            if fields and fields[0] in ("before", "beforeok", "beforenotok", "beforeany", "on",
                                        "runone"):
                raise QsubError("qsub: the stand-in does not support dependency type %s\n"
                                % fields[0], 2)
            raise illegal("W")
        for ident in fields[1:]:
            ref = parse_ref(ident, server)
            if ref is None or (ref.bracket and ref.hi is not None):
                raise illegal("W")
            deps.append({"type": fields[0], "ref": ref})
    return deps


def parse_execution_time(text):
    """[[[[CC]YY]MM]DD]hhmm[.SS] -> epoch."""
    m = re.match(r"^(\d{4,12})(?:\.(\d\d))?$", text)
    if not m or len(m.group(1)) % 2:
        return None
    digits, sec = m.group(1), int(m.group(2) or 0)
    now = time.localtime()
    fields = [digits[i:i + 2] for i in range(0, len(digits), 2)]
    mi, hh = int(fields[-1]), int(fields[-2])
    dd = int(fields[-3]) if len(fields) >= 3 else now.tm_mday
    mo = int(fields[-4]) if len(fields) >= 4 else now.tm_mon
    if len(fields) >= 6:
        yy = int(fields[-6] + fields[-5])
    elif len(fields) == 5:
        yy = 2000 + int(fields[-5])
    else:
        yy = now.tm_year
    try:
        t = time.mktime((yy, mo, dd, hh, mi, sec, 0, 0, -1))
    except (OverflowError, ValueError):
        return None
    if len(fields) == 2 and t < time.time():
        t += 86400
    return t


def _array_ok(v):
    m = ARRAY_RE.match(v)
    return bool(m) and int(m.group(1)) <= int(m.group(2)) and int(m.group(3) or 1) >= 1 \
        and (m.group(4) is None or int(m.group(4)) >= 1)


def _priority_ok(v):
    try:
        return -1024 <= int(v) <= 1023
    except ValueError:
        return False


# Values qsub itself rejects (qsub.c process_opts): "qsub: illegal -X value".
OPTION_CHECKS = {
    "j": lambda v: v in ("oe", "eo", "n"),
    "r": lambda v: v in ("y", "n"),
    "p": _priority_ok,
    "J": _array_ok,
    "N": lambda v: bool(re.match(r"^[A-Za-z0-9._+-]+$", v)),
    "a": lambda v: parse_execution_time(v) is not None,
}


def collect_opts(pairs, gpus):
    """getopt pairs -> {opt: value} with -l and -W merged per name."""
    out = {"l": {}, "W": {}}
    for opt, val in pairs:
        o = opt[1:]
        if o == "l":
            out["l"].update(parse_l(val, gpus))
        elif o == "W":
            parse_W(val, out["W"])
        elif o in ("h", "V", "z", "f", "I", "X", "G"):
            out[o] = True
        else:
            if o in OPTION_CHECKS and not OPTION_CHECKS[o](val):
                raise illegal(o)
            out[o] = val
    return out


def directive_lines(text, prefix):
    """Option strings of the #PBS directives (before the first executable line)."""
    lines = text.split("\n")
    result = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if prefix and stripped.startswith(prefix):
            body = stripped[len(prefix):]
            while body.rstrip().endswith("\\") and i + 1 < len(lines):
                body = body.rstrip()[:-1] + lines[i + 1]
                i += 1
            result.append(body)
        elif stripped == "" or stripped.startswith("#"):
            pass
        else:
            break
        i += 1
    return result


def expand_varlist(text, environ):
    """-v list -> [(name, value)]; a name alone takes qsub's value."""
    pairs = []
    for item in split_outside_quotes(text, ","):
        item = item.strip()
        if not item:
            continue
        if "=" in item:
            name, value = item.split("=", 1)
            pairs.append((name, unquote(value)))
        else:
            if item.startswith("PBS_O_"):
                continue
            if item not in environ:
                raise QsubError("qsub: cannot send environment with the job\n", 3)
            pairs.append((item, environ[item]))
    return pairs


def qsub(argv):
    try:
        return _qsub(argv)
    except QsubError as e:
        sys.stderr.write(e.message)
        if e.usage:
            sys.stderr.write(QSUB_USAGE)
        return e.status


def _qsub(argv):
    core.require_env("qsub")
    if argv == ["--version"]:
        print("pbs_version = %s" % pbs_version(_cfg_or_default()))
        return 0
    store = core.client_store("qsub", refused("qsub"))
    cfg = store.cfg
    server, host, gpus = cfg["server_name"], cfg["host"], int(cfg.get("gpus", 0))
    pairs, rest = getopt_posix(argv, QSUB_OPTS, "qsub")
    executable = None
    consumed = len(argv) - len(rest)
    if consumed > 0 and argv[consumed - 1] == "--" and rest:
        executable = rest
    elif consumed > 0 and argv[consumed - 1] == "--":
        raise QsubError("", 2, usage=True)
    cmd = collect_opts(pairs, gpus)
    if cmd.get("I"):
        raise QsubError("qsub: the stand-in does not run interactive jobs\n", 2)

    # The script: a file, stdin, or "-- executable args".
    environ = dict(os.environ)
    script_text = None
    script_name = None
    if executable is None:
        if len(rest) > 1:
            raise QsubError("", 2, usage=True)
        if rest:
            path = rest[0]
            try:
                os.stat(path)
            except OSError as e:
                raise QsubError("qsub: script file:: %s\n" % os.strerror(e.errno), 1)
            if not os.path.isfile(path):
                raise QsubError("qsub: script not a file\n", 1)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError as e:
                raise QsubError("qsub: opening script file:: %s\n" % os.strerror(e.errno), 8)
            script_name = os.path.basename(path)
        else:
            data = sys.stdin.buffer.read()
        if b"\r\n" in data:
            raise QsubError("qsub: script contains cr, lf\n", 1)
        script_text = data.decode("utf-8", "surrogateescape")

    # Directives (command-line options win).
    merged = {"l": {}, "W": {}}
    prefix = cmd.get("C", environ.get("PBS_DPREFIX", "#PBS"))
    if script_text is not None and prefix:
        for body in directive_lines(script_text, prefix):
            try:
                tokens = shlex.split(body, comments=True)
                dpairs, drest = getopt_posix(tokens, QSUB_OPTS, "qsub")
                if drest:
                    raise illegal(tokens[0].lstrip("-")[:1] or "?")
                d = collect_opts(dpairs, gpus)
            except QsubError as e:
                if not e.usage:
                    raise           # a server-side error (unknown resource, ...)
                raise QsubError(e.message + "qsub: directive error: %s \n" % body.strip(), 1)
            except ValueError:
                raise QsubError("qsub: directive error: %s \n" % body.strip(), 1)
            for k, v in d.items():
                if k in ("l", "W"):
                    merged[k].update(v)
                else:
                    merged[k] = v
    for k, v in cmd.items():
        if k in ("l", "W"):
            merged[k].update(v)
        else:
            merged[k] = v
    o = merged

    # Validation of single options (their syntax was checked while parsing).
    queue = o.get("q", QUEUE)
    if queue.split("@")[0] not in (QUEUE, ""):
        raise QsubError("qsub: Unknown queue\n", PBSE_UNKQUE % 256)
    join = o.get("j", "n")
    rerun = o.get("r", "y")
    name = o.get("N") or (script_name if script_name else "STDIN")
    # ck_job_name.c (checked for the script's name too): letters, digits, . _ + -
    if len(name) > PBS_MAXJOBNAME:
        raise QsubError("qsub: Job name is too long \n", 2)
    if not OPTION_CHECKS["N"](name):
        raise illegal("N")
    priority = o.get("p", "0")
    array = None
    if "J" in o:
        m = ARRAY_RE.match(o["J"])
        lo, hi, step, maxrun = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1), m.group(4)
        array = (lo, hi, step, int(maxrun) if maxrun else None)
    not_before = parse_execution_time(o["a"]) if "a" in o else None
    resources, need = build_resources(o["l"], gpus)
    W = dict(o["W"])
    block = W.pop("block", "false").lower() == "true"
    deps = parse_depend(W.pop("depend"), server) if "depend" in W else []
    varlist = expand_varlist(o.get("v", ""), environ)

    # Variable_List as qsub builds it (qsub.c job_env_basic, set_job_env).
    cwd = os.getcwd()
    pwd_env = environ.get("PWD")
    if pwd_env:
        try:
            if os.path.samefile(pwd_env, "."):
                cwd = pwd_env
        except OSError:
            pass
    uid = os.getuid()
    user, home, shell, gid = core.user_info(uid)
    basic = [("PBS_O_HOME", environ.get("HOME", home))]
    if "LANG" in environ:
        basic.append(("PBS_O_LANG", environ["LANG"]))
    basic.append(("PBS_O_LOGNAME", environ.get("LOGNAME", user)))
    basic.append(("PBS_O_PATH", environ.get("PATH", "")))
    basic.append(("PBS_O_MAIL", environ.get("MAIL", "/var/mail/" + user)))
    basic.append(("PBS_O_SHELL", environ.get("SHELL", shell)))
    if "TZ" in environ:
        basic.append(("PBS_O_TZ", environ["TZ"]))
    basic.append(("PBS_O_WORKDIR", cwd))
    basic.append(("PBS_O_SYSTEM", os.uname().sysname))
    variables = basic + varlist
    if o.get("V"):
        skip = {"PBS_JOBCOOKIE", "PBS_INTERACTIVE_COOKIE"}
        variables += [(k, v) for k, v in environ.items()
                      if not k.startswith("PBS_O_") and k not in skip and "=" not in k]
    variables += [("PBS_O_QUEUE", QUEUE), ("PBS_O_HOST", host)]

    submit_args = " ".join(argv)
    now = time.time()
    with store.write() as cur:
        # Dependencies must name known jobs.
        dep_rows = []
        for d in deps:
            ref = d["ref"]
            row = None
            if ref.server_ok:
                row = cur.execute("SELECT seq, idx, kind FROM jobs WHERE seq=? AND kind=? AND "
                                  "ifnull(idx, -1)=?", (ref.seq, ref.kind,
                                                        -1 if ref.lo is None else ref.lo)).fetchone()
            if row is None:
                raise QsubError("qsub: Unknown Job Id %s\n" % ref.shown, PBSE_UNKJOBID % 256)
            dep_rows.append({"type": d["type"], "seq": row["seq"], "idx": row["idx"],
                             "kind": row["kind"],
                             "id": display_id(dict(row), server)})
        seq = core.Store.alloc_seq(cur)
        kind = "array" if array else "job"
        jid = display_id({"seq": seq, "kind": kind, "idx": None}, server)
        spool = os.path.join(store.dir, "spool", "%d.SC" % seq)
        if script_text is not None:
            with open(spool, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(script_text)
            os.chmod(spool, 0o644)

        def out_path(opt, letter):
            default = "%s.%s%d" % (name, letter, seq) + (".^array_index^" if array else "")
            given = o.get(opt)
            if not given:
                return "%s:%s" % (host, os.path.join(cwd, default))
            h, p = (given.split(":", 1) if re.match(r"^[^/:]+:", given) else (host, given))
            p = os.path.join(cwd, os.path.expanduser(p))
            if given.endswith("/") or os.path.isdir(p):
                p = os.path.join(p, default)
            return "%s:%s" % (h, os.path.normpath(p) if p != "/dev/null" else p)

        attrs = {
            "Job_Name": name,
            "Job_Owner": "%s@%s" % (user, host),
            "Account_Name": o.get("A"),
            "Checkpoint": o.get("c", "u"),
            "depend": ",".join(
                "%s:%s" % (t, ":".join("%s@%s" % (d["id"], server) for d in dep_rows
                                       if d["type"] == t))
                for t in DEP_TYPES if any(d["type"] == t for d in dep_rows)) or None,
            "Error_Path": out_path("e", "e"),
            "Execution_Time": int(not_before) if not_before else None,
            "Join_Path": join,
            "Keep_Files": o.get("k", "n"),
            "Mail_Points": o.get("m", "a"),
            "Mail_Users": o.get("M"),
            "Output_Path": out_path("o", "o"),
            "Priority": str(int(priority)),
            "Rerunable": "True" if (rerun == "y" or array) else "False",
            "Resource_List": resources,
            "Shell_Path_List": o.get("S"),
            "User_List": o.get("u"),
            "Submit_arguments": submit_args,
            "project": o.get("P", "_pbs_project_default"),
            "Submit_Host": host,
            "chunks": need["chunks"],
        }
        if array:
            lo, hi, step, maxrun = array
            attrs["array_indices_submitted"] = "%d-%d" % (lo, hi) + (":%d" % step if step > 1 else "")
            attrs["max_run_subjobs"] = str(maxrun) if maxrun else None
        attrs = {k: v for k, v in attrs.items() if v is not None}
        if deps:
            phase = "held"
        elif o.get("h"):
            phase = "held"
        elif not_before and not_before > now:
            phase = "waiting"
        else:
            phase = "queued"
        eligible = now if phase == "queued" else None
        common = dict(seq=seq, script=spool if script_text is not None else None,
                      argv=executable, submit_dir=cwd, env=variables,
                      cwd=home if os.path.isdir(home) else "/", owner=user, uid=uid, gid=os.getgid(),
                      submit_time=now, mtime=now, ncpus=need["ncpus"], ngpus=need["ngpus"],
                      walltime=need["walltime"], rerunnable=1 if attrs["Rerunable"] == "True" else 0)
        rid = core.Store.insert_job(cur, kind=kind, phase=phase, attrs=attrs,
                                    eligible_time=eligible, not_before=not_before,
                                    deps=dep_rows or None, dep_hold=1 if deps else 0,
                                    user_hold=1 if o.get("h") else 0,
                                    max_running=array[3] if array else None, **common)
        if array:
            lo, hi, step, _ = array
            for i in range(lo, hi + 1, step):
                core.Store.insert_job(cur, kind="sub", idx=i, parent=rid, phase="queued",
                                      attrs="{}", **common)
    if not o.get("z"):
        sys.stdout.write(jid + "\n")
        sys.stdout.flush()
    if block:
        return block_until_done(store, rid)
    return 0


def block_until_done(store, rid):
    """-W block=true: wait for the job, exit with its exit status (3 if it never ran)."""
    while True:
        row = store.db.execute("SELECT phase, exit_status, start_time FROM jobs WHERE rid=?",
                               (rid,)).fetchone()
        if row is None:
            return 3
        if row["phase"] == "done":
            if row["exit_status"] is None or not row["start_time"]:
                return 3
            return row["exit_status"] & 0xFF
        time.sleep(0.1)


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
            sys.stdout.write(render_json(store.cfg, int(time.time()), []))
            sys.stdout.flush()
        sys.stderr.write("Connection refused\n%s: cannot connect to server %s (errno=%d)\n"
                         % (cmd, store.cfg["server_name"], PBSE_SYSTEM))
        sys.exit(PBSE_SYSTEM % 256)
    return report


# =============================================================== job attributes

def state_of(job, parent=None):
    """(job_state letter, substate)."""
    kind, phase = job["kind"], job["phase"]
    if phase == "done":
        letter = "X" if kind == "sub" else "F"
        return letter, HOW_SUBSTATE.get(job["how"] or "ok", SUB_FINISHED)
    if phase == "held":
        return "H", SUB_DEPNHOLD if job["dep_hold"] else SUB_HELD
    if phase == "waiting":
        return "W", SUB_WAITING
    if phase == "queued":
        return "Q", SUB_QUEUED
    if phase == "running":
        return ("B", SUB_BEGUN) if kind == "array" else ("R", SUB_RUNNING)
    if phase == "exiting":
        return "E", SUB_EXITING
    return "Q", SUB_QUEUED


def range_text(indices, step):
    """1,2,3,5 -> '1-3,5' (with :step when the array has one)."""
    if not indices:
        return "-"
    parts = []
    start = prev = indices[0]
    for i in indices[1:] + [None]:
        if i is not None and i == prev + step:
            prev = i
            continue
        if start == prev:
            parts.append(str(start))
        else:
            parts.append("%d-%d" % (start, prev) + (":%d" % step if step > 1 else ""))
        if i is not None:
            start = prev = i
    return ",".join(parts)


def exec_vnode(chunks, host):
    out = []
    for ch in chunks:
        for _ in range(ch["count"]):
            s = "(%s:ncpus=%d" % (host, ch["ncpus"])
            if ch.get("mem"):
                s += ":mem=%dkb" % (size_bytes(ch["mem"]) // 1024)
            if ch.get("ngpus"):
                s += ":ngpus=%d" % ch["ngpus"]
            out.append(s + ")")
    return "+".join(out)


def exec_host(chunks, host):
    out = []
    n = 0
    for ch in chunks:
        for _ in range(ch["count"]):
            out.append("%s/%d" % (host, n) + ("*%d" % ch["ncpus"] if ch["ncpus"] > 1 else ""))
            n += 1
    return "+".join(out)


def used_pairs(job, now):
    if job["phase"] == "running" or not job.get("usage"):
        wall = now - job["start_time"] if job.get("start_time") else 0
        return [("cpupercent", "0"), ("cput", "00:00:00"), ("mem", "0kb"),
                ("ncpus", str(job["ncpus"])), ("vmem", "0kb"), ("walltime", core.hms(wall))]
    u = job["usage"]
    wall = u.get("walltime", 0)
    cput = u.get("cput", 0)
    pct = int(round(100.0 * cput / wall)) if wall > 0 else 0
    return [("cpupercent", str(pct)), ("cput", core.hms(cput)), ("mem", "%dkb" % u.get("mem_kb", 0)),
            ("ncpus", str(u.get("ncpus", job["ncpus"]))), ("vmem", "%dkb" % u.get("mem_kb", 0)),
            ("walltime", core.hms(wall))]


S, V, RES, ENV = "s", "v", "res", "env"   # forced string, sniffed value, nested, Variable_List


def job_view(job, parent, subs, cfg, now):
    """(full id, [(name, value, kind)]) of one job, in qstat's attribute order."""
    server, host = cfg["server_name"], cfg["host"]
    base = parent if job["kind"] == "sub" else job
    a = base["attrs"]
    letter, substate = state_of(job)
    ran = bool(job.get("start_time")) and job["kind"] != "array"
    ended = job["phase"] in ("exiting", "done")
    ct = core.ctime_str
    out = [("Job_Name", a["Job_Name"], S), ("Job_Owner", a["Job_Owner"], V)]
    if ran:
        out.append(("resources_used", used_pairs(job, now), RES))
    out += [("job_state", letter, V), ("queue", QUEUE, V), ("server", server, V)]
    if "Account_Name" in a:
        out.append(("Account_Name", a["Account_Name"], S))
    out += [("Checkpoint", a["Checkpoint"], V), ("ctime", ct(base["submit_time"]), V)]
    if "depend" in a:
        out.append(("depend", a["depend"], V))
    out.append(("Error_Path", a["Error_Path"], V))
    if ran and job.get("exec_host"):
        out.append(("exec_host", exec_host(a["chunks"], job["exec_host"]), V))
        out.append(("exec_vnode", exec_vnode(a["chunks"], job["exec_host"]), V))
    if "Execution_Time" in a:
        out.append(("Execution_Time", ct(a["Execution_Time"]), V))
    holds = ("u" if base["user_hold"] else "") + ("s" if base["dep_hold"] else "")
    out += [("Hold_Types", holds or "n", V), ("Join_Path", a["Join_Path"], V),
            ("Keep_Files", a["Keep_Files"], V), ("Mail_Points", a["Mail_Points"], V)]
    if "Mail_Users" in a:
        out.append(("Mail_Users", a["Mail_Users"], V))
    out += [("mtime", ct(job["mtime"] or base["submit_time"]), V),
            ("Output_Path", a["Output_Path"], V), ("Priority", a["Priority"], V),
            ("qtime", ct(base["submit_time"]), V), ("Rerunable", a["Rerunable"], V),
            ("Resource_List", a["Resource_List"], RES)]
    if job.get("start_time"):
        out.append(("stime", ct(job["start_time"]), V))
    if job["phase"] == "done" and job.get("end_time") and job.get("start_time"):
        out.append(("obittime", ct(job["end_time"]), V))
    session = job.get("pgid") if job["phase"] == "running" else (job.get("usage") or {}).get("session")
    if ran and session:
        out.append(("session_id", str(session), V))
    if "Shell_Path_List" in a:
        out.append(("Shell_Path_List", a["Shell_Path_List"], V))
    if ran:
        out.append(("jobdir", core.user_info(base["uid"])[1], V))
    out.append(("substate", str(substate), V))
    if "User_List" in a:
        out.append(("User_List", a["User_List"], V))
    out.append(("Variable_List", base["env"] or [], ENV))
    comment = job_comment(job, substate)
    if comment:
        out.append(("comment", comment, V))
    if job.get("eligible_time") or base.get("eligible_time"):
        out.append(("etime", ct(job.get("eligible_time") or base["eligible_time"]), V))
    out.append(("run_count", str(job["run_count"]), V))
    if ended and ran:
        out.append(("Stageout_status", "1", V))
    if job.get("exit_status") is not None and (job["kind"] == "array" or job["run_count"] > 0):
        out.append(("Exit_status", str(job["exit_status"]), V))
    out.append(("Submit_arguments", a["Submit_arguments"], V))
    if job["kind"] == "array":
        counts = {"Queued": 0, "Running": 0, "Exiting": 0, "Expired": 0}
        remaining = []
        for s in subs:
            if s["phase"] == "queued":
                counts["Queued"] += 1
                remaining.append(s["idx"])
            elif s["phase"] == "running":
                counts["Running"] += 1
            elif s["phase"] == "exiting":
                counts["Exiting"] += 1
            elif s["phase"] == "done":
                counts["Expired"] += 1
        step = 1
        m = re.search(r":(\d+)$", a["array_indices_submitted"])
        if m:
            step = int(m.group(1))
        out += [("array", "True", V),
                ("array_state_count", " ".join("%s:%d" % kv for kv in counts.items()), V),
                ("array_indices_submitted", a["array_indices_submitted"], V),
                ("array_indices_remaining", range_text(sorted(remaining), step), V)]
    elif job["kind"] == "sub":
        out += [("array_id", display_id(parent, server), V), ("array_index", str(job["idx"]), V)]
    if job["phase"] == "done" and job.get("history_time") and (parent is None
                                                               or parent["phase"] == "done"):
        out.append(("history_timestamp", str(int(job["history_time"])), V))
    out += [("project", a["project"], S), ("Submit_Host", a["Submit_Host"], V)]
    if job["kind"] == "array" and "max_run_subjobs" in a:
        out.append(("max_run_subjobs", a["max_run_subjobs"], V))
    return display_id(job, server), out


def job_comment(job, substate):
    if job["kind"] == "sub" and job["phase"] == "done":
        return "Subjob %s" % SUBSTATE_WORD.get(substate, "finished")
    return job.get("comment")


# =============================================================== JSON printers

def old_is_number(v):
    """The pre-cJSON sniffer (Libcmds/pbs_json.c is_valid_json_number), restricted to
    strings that are valid JSON numbers (the real one also let '+5' or 'inf' through)."""
    if not re.match(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?$", v):
        return False
    val = float(v)
    n = len(v)
    small = -1 < val < 1 and ((val == 0 and n == 1) or (val == 0 and n == 2 and v[0] == "-")
                              or (val >= 0 and n > 2 and v[0] != "-" and v[1] == ".")
                              or (val <= 0 and n > 3 and v[0] == "-" and v[2] == "."))
    big = (val >= 1 and v[0] != "0") or (val <= -1 and n > 1 and v[1] != "0")
    return small or big


_ESC = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESC = re.compile(r'["\\\x00-\x1f]')


def json_str(s):
    """A JSON string as cJSON's print_string_ptr writes it."""
    if not _NEEDS_ESC.search(s):
        return '"' + s + '"'
    return '"' + _NEEDS_ESC.sub(lambda m: _ESC.get(m.group(0)) or "\\u%04x" % ord(m.group(0)), s) + '"'


def old_value(v, kind):
    if isinstance(v, int):
        return str(v)
    if kind == S or v.strip() == "":
        return json_str(v)
    return v if old_is_number(v) else json_str(v)


INT_MAX, INT_MIN = 2 ** 31 - 1, -2 ** 31
_WS = "".join(chr(c) for c in range(33))
_NUMBER_CHARS = set("0123456789+-eE.")
_STRTOD = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
NOT_JSON = object()


def cjson_number(d):
    if d != d or d in (float("inf"), float("-inf")):
        return "null"
    vi = INT_MAX if d >= INT_MAX else INT_MIN if d <= INT_MIN else int(d)
    if d == vi:
        return "%d" % vi
    s = "%1.15g" % d
    if float(s) != d:
        s = "%1.17g" % d
    return s


def cjson_parse(text):
    """What cJSON_ParseWithOpts(text, NULL, 1) makes of an attribute value: a Python
    value, or NOT_JSON (then qstat prints the text as a string)."""
    try:
        value, i = _cj_value(text, _cj_skip(text, 0))
    except (ValueError, IndexError):
        return NOT_JSON
    if _cj_skip(text, i) != len(text):
        return NOT_JSON
    return value


def _cj_skip(s, i):
    while i < len(s) and s[i] in _WS:
        i += 1
    return i


def _cj_value(s, i):
    if i >= len(s):
        raise ValueError
    c = s[i]
    for word, value in (("null", None), ("false", False), ("true", True)):
        if s.startswith(word, i):
            return value, i + len(word)
    if c == '"':
        value, end = json.decoder.scanstring(s, i + 1, False)
        return value, end
    if c == "-" or c.isdigit():
        j = i
        while j < len(s) and s[j] in _NUMBER_CHARS:
            j += 1
        m = _STRTOD.match(s, i, j)
        if not m:
            raise ValueError
        return float(m.group(0)), m.end()
    if c == "[":
        items = []
        i = _cj_skip(s, i + 1)
        if s[i] == "]":
            return items, i + 1
        while True:
            v, i = _cj_value(s, _cj_skip(s, i))
            items.append(v)
            i = _cj_skip(s, i)
            if s[i] == ",":
                i += 1
                continue
            if s[i] == "]":
                return items, i + 1
            raise ValueError
    if c == "{":
        items = []
        i = _cj_skip(s, i + 1)
        if s[i] == "}":
            return dict(items), i + 1
        while True:
            i = _cj_skip(s, i)
            if s[i] != '"':
                raise ValueError
            k, i = json.decoder.scanstring(s, i + 1, False)
            i = _cj_skip(s, i)
            if s[i] != ":":
                raise ValueError
            v, i = _cj_value(s, _cj_skip(s, i + 1))
            items.append((k, v))
            i = _cj_skip(s, i)
            if s[i] == ",":
                i += 1
                continue
            if s[i] == "}":
                return dict(items), i + 1
            raise ValueError
    raise ValueError


def _cj_any(v, depth):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return cjson_number(float(v))
    if isinstance(v, str):
        return json_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_cj_any(x, depth + 1) for x in v) + "]"
    return _cj_obj([(k, x, "py") for k, x in v.items()], depth + 1)


def cjson_value(v, kind, depth):
    if isinstance(v, int):
        return cjson_number(float(v))
    if kind == S:
        return json_str(v)
    if kind == "py":
        return _cj_any(v, depth)
    parsed = cjson_parse(v)
    if parsed is NOT_JSON:
        return json_str(v)
    return _cj_any(parsed, depth)


def _cj_obj(entries, depth):
    out = ["{\n"]
    last = len(entries) - 1
    for n, (key, v, kind) in enumerate(entries):
        out.append("\t" * depth)
        out.append(json_str(key))
        out.append(":\t")
        if kind in (RES, ENV):
            out.append(_cj_obj([(k, x, V) for k, x in v], depth + 1))
        else:
            out.append(cjson_value(v, kind, depth))
        if n != last:
            out.append(",")
        out.append("\n")
    out.append("\t" * (depth - 1) + "}")
    return "".join(out)


def render_json(cfg, timestamp, jobs):
    """The whole `qstat -f -F json` answer; no "Jobs" key when `jobs` is empty."""
    root = [("timestamp", int(timestamp), V), ("pbs_version", pbs_version(cfg), S),
            ("pbs_server", cfg["server_name"], S)]
    if jobs:
        root.append(("Jobs", [(jid, attrs) for jid, attrs in jobs], "jobs"))
    if cfg.get("printer") == "cjson":
        return _render_root_cjson(root)
    return _render_root_old(root)


def _render_root_old(root):
    out = ["{"]
    first = True

    def line(text):
        nonlocal first
        out.append(("\n" if first else ",\n") + text)
        first = False

    def attrs_block(attrs, indent):
        pad = " " * indent
        parts = []
        for n, (key, v, kind) in enumerate(attrs):
            sep = "\n" if n == 0 else ",\n"
            if kind in (RES, ENV):
                inner = ",\n".join("%s%s:%s" % (" " * (indent + 4), json_str(k), old_value(x, V))
                                   for k, x in v)
                inner = "\n" + inner if inner else ""
                parts.append("%s%s%s:{%s\n%s}" % (sep, pad, json_str(key), inner, pad))
            else:
                parts.append("%s%s%s:%s" % (sep, pad, json_str(key), old_value(v, kind)))
        return "".join(parts)

    for key, v, kind in root:
        if kind == "jobs":
            jobs_text = []
            for n, (jid, attrs) in enumerate(v):
                jobs_text.append(("\n" if n == 0 else ",\n") + "        %s:{" % json_str(jid)
                                 + attrs_block(attrs, 12) + "\n        }")
            line('    "Jobs":{' + "".join(jobs_text) + "\n    }")
        else:
            line("    %s:%s" % (json_str(key), old_value(v, kind)))
    out.append("\n}\n")
    return "".join(out)


def _render_root_cjson(root):
    out = ["{\n"]
    last = len(root) - 1
    for n, (key, v, kind) in enumerate(root):
        out.append("\t" + json_str(key) + ":\t")
        if kind == "jobs":
            jobs = ["{\n"]
            for m, (jid, attrs) in enumerate(v):
                jobs.append("\t\t" + json_str(jid) + ":\t" + _cj_obj(attrs, 3))
                jobs.append(",\n" if m != len(v) - 1 else "\n")
            jobs.append("\t}")
            out.append("".join(jobs))
        else:
            out.append(cjson_value(v, kind, 1))
        out.append(",\n" if n != last else "\n")
    out.append("}\n")
    return "".join(out)


# =============================================================== text printers

CHAR_LINE_LIMIT = 78


def prt_attr(name, value, one_line):
    """One attribute of `qstat -f` (qstat.c prt_attr, default format)."""
    if one_line:
        return "    %s = %s" % (name, value.replace("\n", "\\n"))
    out = ["    %s = " % name]
    start = len(name) + 7
    tokens = [t for t in value.split(",") if t]
    first = True
    for n, tok in enumerate(tokens):
        if len(tok) + start < CHAR_LINE_LIMIT:
            out.append(tok)
            start += len(tok)
        else:
            if not first:
                out.append("\n\t")
                start = 9
            for ch in tok:
                out.append(ch)
                start += 1
                if start > CHAR_LINE_LIMIT:
                    start = 8
                    out.append("\n\t")
        if n != len(tokens) - 1:
            first = False
            out.append(",")
    return "".join(out)


def render_text(jobs, one_line):
    out = []
    for jid, attrs in jobs:
        lines = ["Job Id: %s" % jid]
        for name, v, kind in attrs:
            if kind == RES:
                lines += [prt_attr("%s.%s" % (name, k), x, one_line) for k, x in v]
            elif kind == ENV:
                text = ",".join("%s=%s" % (k, x.replace(",", "\\,")) for k, x in v)
                lines.append(prt_attr(name, text, one_line))
            else:
                lines.append(prt_attr(name, v, one_line))
        out.append("\n".join(lines) + "\n\n")
    return "".join(out)


def _trunc(text, width, mark, at_or_above=False):
    if (len(text) >= width if at_or_above else len(text) > width):
        if mark:
            return text[:width - 1] + mark
        return text[:width]
    return text


def render_table(rows, cfg, wide):
    """The default `qstat` table (qstat.c display_statjob, not full)."""
    mark = cfg.get("table_trunc_mark", "*")
    if wide:
        fmt = "%-30s %-15s %-15s  %8s %1s %-15s\n"
        head = ("Job id                         Name            User             Time Use S Queue\n"
                "-----------------------------  --------------- ---------------  -------- - "
                "---------------\n")
        wid, wname, wuser, wq = 30, 15, 15, 15
    else:
        fmt = "%-17s %-16s %-16s  %8s %1s %-16s\n"
        head = ("Job id            Name             User              Time Use S Queue\n"
                "----------------  ---------------- ----------------  -------- - -----\n")
        wid, wname, wuser, wq = 17, 16, 16, 16
    out = [head] if rows else []
    for jid, name, owner, timeu, state, queue in rows:
        short = jid
        parts = jid.split(".")
        if len(parts) > 2:
            short = parts[0] + "." + parts[1]
        short = _trunc(short, wid, mark)
        name = _trunc(name, wname, mark, at_or_above=bool(mark))
        user = _trunc(owner.split("@")[0], wuser, mark)
        timeu = _trunc(timeu, 8, mark)
        out.append(fmt % (short, name, user, timeu, state[:1], _trunc(queue, wq, mark)))
    return "".join(out)


def table_row(job, parent, cfg, now):
    base = parent if job["kind"] == "sub" else job
    letter, _ = state_of(job)
    timeu = "0"
    if job.get("start_time") and job["kind"] != "array":
        timeu = dict(used_pairs(job, now))["cput"]
    return (display_id(job, cfg["server_name"]), base["attrs"]["Job_Name"],
            base["attrs"]["Job_Owner"], timeu, letter, QUEUE)


# =============================================================== qstat

class Jobs:
    """All jobs of an instance, loaded in one read."""

    def __init__(self, rows):
        self.top = []
        self.by_key = {}
        self.subs = {}
        self.by_rid = {}
        for row in rows:
            job = core.decode(row)
            self.by_rid[job["rid"]] = job
            self.by_key[(job["seq"], job["kind"], job["idx"])] = job
            if job["kind"] == "sub":
                self.subs.setdefault(job["parent"], []).append(job)
            else:
                self.top.append(job)

    def parent(self, job):
        return self.by_rid.get(job["parent"]) if job["kind"] == "sub" else None

    def history(self, job):
        top = self.parent(job) if job["kind"] == "sub" else job
        return top is not None and top["phase"] == "done"


def load_jobs(store, seqs=None):
    """All jobs, or only those with the given sequence numbers (a job id poll)."""
    with store.read() as cur:
        if seqs is None:
            rows = cur.execute("SELECT * FROM jobs ORDER BY seq, ifnull(idx, -1)").fetchall()
        else:
            rows = []
            seqs = sorted(set(seqs))
            for i in range(0, len(seqs), 500):
                part = seqs[i:i + 500]
                rows += cur.execute("SELECT * FROM jobs WHERE seq IN (%s) ORDER BY seq, "
                                    "ifnull(idx, -1)" % ",".join("?" * len(part)),
                                    part).fetchall()
    return Jobs(rows)


def qstat(argv):
    core.require_env("qstat")
    try:
        pairs, operands = getopt.gnu_getopt(argv, "ainpqrstwxu:fGHJMQEBW:T1F:D:")
    except getopt.GetoptError as e:
        if "requires argument" in e.msg:
            sys.stderr.write("qstat: option requires an argument -- '%s'\n" % e.opt)
        else:
            sys.stderr.write("qstat: invalid option -- '%s'\n" % e.opt)
        sys.stderr.write(QSTAT_USAGE)
        return 2
    flags = {}
    for opt, val in pairs:
        flags[opt[1:]] = val if val else True
    errflg = False
    fmt = "default"
    if "F" in flags:
        fmt = str(flags["F"]).lower()
        if fmt not in ("default", "dsv", "json"):
            errflg = True
    alt = [c for c in "ainrsHTGMu" if c in flags]
    conflict = False
    if fmt != "default" and (not flags.get("f") or alt):
        conflict = True
    if flags.get("f") and alt:
        conflict = True
    if "1" in flags and not ("n" in flags or "s" in flags):
        conflict = True
    if "w" in flags and fmt != "default":
        sys.stderr.write("qstat: option w cannot be used with -F\n")
        errflg = True
    if conflict:
        sys.stderr.write("qstat: conflicting options.\n")
        errflg = True
    if errflg:
        sys.stderr.write(QSTAT_USAGE)
        return 2
    unsupported = [c for c in "QBqainrsTGM1pD" if c in flags] + (["F dsv"] if fmt == "dsv" else [])
    if unsupported:
        sys.stderr.write("qstat: the stand-in does not support -%s\n" % unsupported[0])
        return 2
    as_json = fmt == "json"
    full = bool(flags.get("f"))
    history = "x" in flags or "H" in flags
    subjobs = "t" in flags
    store = core.client_store("qstat", refused("qstat", json_prologue=as_json))
    cfg = store.cfg
    server = cfg["server_name"]
    now = time.time()
    refs = [parse_ref(op, server) for op in operands]
    if operands and all(refs):
        jobs = load_jobs(store, [r.seq for r in refs])
    else:
        jobs = load_jobs(store)
    selected = []
    status = 0
    errors = []

    def want(job):
        if "H" in flags and not jobs.history(job):
            return False
        if "u" in flags:
            base = jobs.parent(job) if job["kind"] == "sub" else job
            if base["owner"] not in str(flags["u"]).split(","):
                return False
        if "J" in flags and job["kind"] == "job":
            return False
        return True

    def add(job):
        selected.append(job)
        if job["kind"] == "array" and subjobs:
            selected.extend(jobs.subs.get(job["rid"], []))

    if not operands:
        for job in jobs.top:
            if (history or job["phase"] != "done") and want(job):
                add(job)
    for op, ref in zip(operands, refs):
        if ref is None:
            dest = op.split("@")[0]
            if dest in ("", QUEUE):
                for job in jobs.top:
                    if (history or job["phase"] != "done") and want(job):
                        add(job)
                continue
            errors.append("qstat: Unknown queue destination %s\n" % op)
            status = PBSE_UNKQUE
            continue
        if ref.bracket and ref.hi is not None:
            found = [jobs.by_key.get((ref.seq, "sub", i)) for i in range(ref.lo, ref.hi + 1)]
            found = [j for j in found if j is not None] if ref.server_ok else []
        else:
            j = jobs.by_key.get((ref.seq, ref.kind, ref.lo)) if ref.server_ok else None
            found = [j] if j is not None else []
        if not found:
            errors.append("qstat: Unknown Job Id %s\n" % ref.shown)
            status = PBSE_UNKJOBID
            continue
        if not history and jobs.history(found[0]):
            errors.append("qstat: %s Job has finished, use -x or -H to obtain historical job "
                          "information\n" % ref.shown)
            status = PBSE_HISTJOBID
            continue
        for job in found:
            if want(job):
                add(job)

    if as_json or full:
        views = [job_view(job, jobs.parent(job), jobs.subs.get(job["rid"], []), cfg, now)
                 for job in selected]
        text = render_json(cfg, now, views) if as_json else render_text(views, "w" in flags)
    else:
        text = render_table([table_row(j, jobs.parent(j), cfg, now) for j in selected], cfg,
                            "w" in flags)
    sys.stdout.write(text)
    sys.stdout.flush()
    sys.stderr.write("".join(errors))
    return status % 256


# =============================================================== qdel, qrls

def find(cur, ref):
    if not ref.server_ok:
        return []
    if ref.bracket and ref.hi is not None:
        rows = cur.execute("SELECT * FROM jobs WHERE seq=? AND kind='sub' AND idx BETWEEN ? AND ? "
                           "ORDER BY idx", (ref.seq, ref.lo, ref.hi)).fetchall()
    else:
        rows = cur.execute("SELECT * FROM jobs WHERE seq=? AND kind=? AND ifnull(idx, -1)=?",
                           (ref.seq, ref.kind, -1 if ref.lo is None else ref.lo)).fetchall()
    return [core.decode(r) for r in rows]


def is_history(cur, job):
    if job["kind"] == "sub":
        row = cur.execute("SELECT phase FROM jobs WHERE rid=?", (job["parent"],)).fetchone()
        return row is not None and row["phase"] == "done"
    return job["phase"] == "done"


def delete_job(cur, job, now):
    """qdel of one job or subjob (inside the caller's transaction)."""
    if job["phase"] in ("queued", "held", "waiting"):
        comment = job.get("comment")
        if comment and "terminated" not in comment:
            comment += " and terminated"
        core.Store.update_job(cur, job["rid"], phase="done", how="deleted", end_time=now,
                              history_time=now, mtime=now, comment=comment, dep_hold=0)
    elif job["phase"] == "running" and not job.get("request"):
        core.Store.update_job(cur, job["rid"], request="delete", mtime=now)


def qdel(argv):
    core.require_env("qdel")
    try:
        pairs, operands = getopt.gnu_getopt(argv, "W:x")
    except getopt.GetoptError:
        sys.stderr.write(QDEL_USAGE)
        return 2
    flags = dict((o[1:], v) for o, v in pairs)
    if not operands:
        sys.stderr.write(QDEL_USAGE)
        return 2
    store = core.client_store("qdel", refused("qdel"))
    server = store.cfg["server_name"]
    now = time.time()
    status = 0
    errors = []
    from standin.server import purge_jobs
    with store.write() as cur:
        for op in operands:
            ref = parse_ref(op, server)
            if ref is None:
                errors.append("qdel: illegally formed job identifier: %s\n" % op)
                status = 1
                continue
            found = find(cur, ref)
            if not found:
                errors.append("qdel: Unknown Job Id %s\n" % ref.shown)
                status = PBSE_UNKJOBID
                continue
            if is_history(cur, found[0]):
                if "x" in flags and found[0]["kind"] != "sub":
                    purge_jobs(cur, [found[0]["rid"]])      # -x: its history goes too
                    continue
                errors.append("qdel: Job has finished %s\n" % ref.shown)
                status = PBSE_HISTJOBID
                continue
            if len(found) == 1 and found[0]["kind"] == "sub" and found[0]["phase"] == "done":
                errors.append("qdel: Request invalid for state of job %s\n" % ref.shown)
                status = PBSE_BADSTATE
                continue
            for job in found:
                if job["kind"] != "array":
                    delete_job(cur, job, now)
                    continue
                subs = [core.decode(r) for r in cur.execute(
                    "SELECT * FROM jobs WHERE parent=? AND phase!='done'", (job["rid"],))]
                for sub in subs:
                    delete_job(cur, sub, now)
                if job["phase"] != "running":
                    # Never began: the whole array goes now. Once begun, the server
                    # finishes the parent when its last running subjob has gone.
                    delete_job(cur, job, now)
    sys.stderr.write("".join(errors))
    return status % 256


def qrls(argv):
    core.require_env("qrls")
    try:
        pairs, operands = getopt.gnu_getopt(argv, "h:")
    except getopt.GetoptError:
        sys.stderr.write("usage: qrls [-h hold_list] job_identifier...\n")
        return 2
    if not operands:
        sys.stderr.write("usage: qrls [-h hold_list] job_identifier...\n")
        return 2
    store = core.client_store("qrls", refused("qrls"))
    server = store.cfg["server_name"]
    now = time.time()
    status = 0
    errors = []
    with store.write() as cur:
        for op in operands:
            ref = parse_ref(op, server)
            found = find(cur, ref) if ref else []
            if not found:
                errors.append("qrls: Unknown Job Id %s\n" % (ref.shown if ref else op))
                status = PBSE_UNKJOBID
                continue
            for job in found:
                if not job["user_hold"]:
                    continue
                fields = dict(user_hold=0, mtime=now)
                if job["phase"] == "held" and not job["dep_hold"]:
                    if job.get("not_before") and job["not_before"] > now:
                        fields["phase"] = "waiting"
                    else:
                        fields.update(phase="queued", eligible_time=now)
                core.Store.update_job(cur, job["rid"], **fields)
    sys.stderr.write("".join(errors))
    return status % 256


# =============================================================== standin-ctl support

def find_for_ctl(cur, cfg, text):
    ref = parse_ref(text, cfg["server_name"])
    if ref is None:
        return []
    return find(cur, ref)


# =============================================================== server policy

class Policy:
    """What the server does the PBS way."""

    START_FAILED_EXIT = JOB_EXEC_FAIL1
    PATH = "/usr/local/bin:/usr/bin:/bin"

    def __init__(self, cfg, state_dir):
        self.cfg = cfg
        self.dir = state_dir
        self.server = cfg["server_name"]
        self.host = cfg["host"]

    def display_id(self, job):
        return display_id(job, self.server)

    # ---------------------------------------------------------- running a job

    def _aux(self, job):
        return (os.path.join(self.dir, "aux", self.display_id(job)),
                os.path.join(self.dir, "tmp", "pbs." + self.display_id(job)))

    def _paths(self, job, attrs):
        def strip(path):
            p = path.split(":", 1)[1] if re.match(r"^[^/:]+:", path) else path
            if job["kind"] == "sub":
                p = p.replace("^array_index^", str(job["idx"]))
            return p
        return strip(attrs["Output_Path"]), strip(attrs["Error_Path"])

    def launch(self, job, parent, now):
        base = parent if job["kind"] == "sub" else job
        a = base["attrs"]
        uid, gid = base["uid"], base["gid"]
        user, home, shell, _ = core.user_info(uid)
        nodefile, tmpdir = self._aux(job)
        lines = []
        for ch in a["chunks"]:
            per = ch["mpiprocs"] if ch.get("mpiprocs") is not None else ch["ncpus"]
            lines += [self.host] * (ch["count"] * max(per, 1))
        with open(nodefile, "w") as f:
            f.write("".join(l + "\n" for l in lines))
        os.chmod(nodefile, 0o644)
        os.makedirs(tmpdir, exist_ok=True)
        if os.geteuid() == 0:
            os.chown(tmpdir, uid, gid)
        os.chmod(tmpdir, 0o700)
        jid = self.display_id(job)
        env = {"PATH": self.PATH}
        env.update((k, v) for k, v in base["env"] or [])
        first_ncpus = a["chunks"][0]["ncpus"] if a["chunks"] else 1
        env.update({
            "HOME": home, "USER": user, "LOGNAME": user, "SHELL": shell,
            "PBS_JOBID": jid, "PBS_JOBNAME": a["Job_Name"], "PBS_QUEUE": QUEUE,
            "PBS_NODEFILE": nodefile, "PBS_ENVIRONMENT": "PBS_BATCH", "PBS_JOBDIR": home,
            "PBS_TASKNUM": "1", "PBS_NODENUM": "0", "PBS_MOMPORT": "15003",
            "NCPUS": str(first_ncpus), "OMP_NUM_THREADS": str(first_ncpus), "TMPDIR": tmpdir,
        })
        if job["kind"] == "sub":
            env["PBS_ARRAY_INDEX"] = str(job["idx"])
            env["PBS_ARRAY_ID"] = self.display_id(parent)
        out, err = self._paths(job, a)
        join = a["Join_Path"]
        # Opened by the job's own shell (as the job's user); an unwritable path
        # gives /dev/null instead of failing the job.
        out_fd = 'if : 2>/dev/null >>"$1"; then exec 1>"$1"; else exec 1>/dev/null; fi'
        err_fd = 'if : 2>/dev/null >>"$2"; then exec 2>"$2"; else exec 2>/dev/null; fi'
        if join == "oe" or (join == "n" and out == err):
            redirect = out_fd + "; exec 2>&1"
        elif join == "eo":
            redirect = err_fd + "; exec 1>&2"
        else:
            redirect = out_fd + "; " + err_fd
        run_shell = (a.get("Shell_Path_List") or "/bin/bash").split(",")[0].split("@")[0]
        if job.get("argv"):
            command = list(job["argv"])
        else:
            command = [run_shell, job["script"]]
        argv = ["/bin/bash", "-c", redirect + '; shift 2; exec "$@"', "pbs_job", out, err] + command
        cwd = base["cwd"] if base.get("cwd") and os.path.isdir(base["cwd"]) else "/"
        return {"argv": argv, "env": env, "cwd": cwd, "uid": uid, "gid": gid,
                "groups": core.group_list(user, gid)}

    def cleanup_run(self, job):
        nodefile, tmpdir = self._aux(job)
        try:
            os.unlink(nodefile)
        except OSError:
            pass
        if os.path.isdir(tmpdir):
            import shutil
            shutil.rmtree(tmpdir, ignore_errors=True)

    def walltime_notice(self, job, used):
        """MoM's line in the job's stderr (mom_main.c)."""
        run = (job.get("attrs") or {}).get("_run")
        if not run:
            return
        try:
            out, err, join = run
            target = out if join == "oe" else err
            if target != "/dev/null" and os.path.exists(target):
                with open(target, "a") as f:
                    f.write("=>> PBS: job killed: walltime %d exceeded limit %d\n"
                            % (int(used), int(job["walltime"])))
        except (OSError, KeyError):
            pass

    # ---------------------------------------------------------- outcomes

    def outcome(self, job, raw):
        """(phase, how, Exit_status) when a job's shell is gone (raw: its exit value with
        256 + signal for a signal, None if unknown)."""
        reason = job.get("kill_reason")
        if reason == "preempt":
            return "queued", None, job.get("exit_status")
        if reason == "nodefail":
            if job["rerunnable"]:
                return "queued", None, JOB_EXEC_RERUN_MS_FAIL
            return "done", "nodefail", JOB_EXEC_RERUN_MS_FAIL
        if raw is None:
            raw = JOB_EXEC_FAIL1
        if reason == "walltime":
            if self.cfg.get("walltime_exit", "modern") == "modern":
                return "done", "walltime", JOB_EXEC_KILL_WALLTIME
            return "done", ("failed" if raw != 0 else "ok"), raw
        if reason == "delete":
            return "done", "terminated", raw
        return "done", ("ok" if raw == 0 else "failed"), raw

    def start_fields(self, job, parent, now):
        base = parent if job["kind"] == "sub" else job
        a = base["attrs"]
        vnode = exec_vnode(a["chunks"], self.host)
        comment = "Job run at %s on %s" % (time.strftime("%a %b %d at %H:%M", time.localtime(now)),
                                           vnode)
        out, err = self._paths(job, a)
        attrs = dict(job["attrs"] or {})
        attrs["_run"] = [out, err, a["Join_Path"]]      # for the walltime notice
        return {"exec_host": self.host, "comment": comment, "attrs": attrs}

    def end_fields(self, job, how, exit_status, now):
        comment = job.get("comment") or ""
        if job["kind"] == "sub":
            return {"comment": comment}
        if how == "ok":
            comment += " and finished"
        elif how == "walltime":
            comment += " and exceeded resource walltime"
        elif how == "terminated":
            if "terminated" not in comment:
                comment += " and terminated"
        else:
            comment += " and failed"
        return {"comment": comment.strip()}

    def requeue_fields(self, job, now):
        return {"comment": None}

    def not_run_comment(self, need_cpus, need_gpus, free_cpus, free_gpus, slots, gpus):
        if need_cpus > free_cpus:
            return ("Not Running: Insufficient amount of resource: ncpus (R: %d A: %d T: %d)"
                    % (need_cpus, max(free_cpus, 0), slots))
        return ("Not Running: Insufficient amount of resource: ngpus (R: %d A: %d T: %d)"
                % (need_gpus, max(free_gpus, 0), gpus))

    def dependency_delete_fields(self, job, cause, now):
        return {"comment": "Job deleted as result of dependency on job %s" % cause}

    def array_begin_fields(self, parent, now):
        return {"comment": "Job Array Began at %s" % time.strftime("%a %b %d at %H:%M",
                                                                   time.localtime(now))}

    def array_outcome(self, subs):
        """HEAD array_func.c: the parent's Exit_status follows the last subjob to end
        (>0 -> 1, <0 -> 2, 0 -> 0); its substate is that of the first failed or
        terminated subjob, else finished."""
        how = "ok"
        for s in subs:
            sub = HOW_SUBSTATE.get(s["how"] or "ok")
            if sub in (SUB_FAILED, SUB_TERMINATED):
                how = s["how"]
                break
        with_exit = [s for s in subs if s["exit_status"] is not None]
        exit_status = None
        if with_exit:
            last = max(with_exit, key=lambda s: (s["end_time"] or 0, s["idx"]))
            e = last["exit_status"]
            exit_status = 1 if e > 0 else (2 if e < 0 else 0)
        return how, exit_status

    def array_end_fields(self, parent, how, now):
        comment = parent.get("comment")
        if not comment:
            return {}
        word = SUBSTATE_WORD[HOW_SUBSTATE.get(how or "ok", SUB_FINISHED)]
        return {"comment": "%s and %s" % (comment, word)}


# =============================================================== synthetic jobs

def synthetic_rows(n, cfg, start_seq=1, now=None):
    """N decoded job rows (finished, running and queued) as the server keeps them."""
    now = now or time.time()
    host = cfg["host"]
    rows = []
    variables = [("PBS_O_HOME", "/home/user"), ("PBS_O_LANG", "C.UTF-8"),
                 ("PBS_O_LOGNAME", "user"), ("PBS_O_PATH", "/usr/local/bin:/usr/bin:/bin"),
                 ("PBS_O_MAIL", "/var/mail/user"), ("PBS_O_SHELL", "/bin/bash"),
                 ("PBS_O_WORKDIR", "/home/user/work"), ("PBS_O_SYSTEM", "Linux"),
                 ("PBS_O_QUEUE", QUEUE), ("PBS_O_HOST", host)]
    for i in range(n):
        seq = start_seq + i
        kind = i % 3
        name = "job%d" % seq
        attrs = {
            "Job_Name": name, "Job_Owner": "user@" + host, "Checkpoint": "u",
            "Error_Path": "%s:/home/user/work/%s.e%d" % (host, name, seq), "Join_Path": "n",
            "Keep_Files": "n", "Mail_Points": "a",
            "Output_Path": "%s:/home/user/work/%s.o%d" % (host, name, seq), "Priority": "0",
            "Rerunable": "True",
            "Resource_List": [("ncpus", "1"), ("nodect", "1"), ("place", "pack"), ("select", "1"),
                              ("walltime", "01:00:00")],
            "Submit_arguments": "job.sh",
            "project": "_pbs_project_default", "Submit_Host": host,
            "chunks": [{"count": 1, "ncpus": 1, "mem": None, "ngpus": 0, "mpiprocs": None}],
        }
        row = dict(rid=i + 1, seq=seq, idx=None, kind="job", parent=None, attrs=attrs,
                   script=None, argv=None, submit_dir="/home/user/work", cwd="/home/user",
                   env=variables, owner="user", uid=0,
                   gid=0, submit_time=now - 600, eligible_time=now - 600, not_before=None,
                   start_time=None, end_time=None, mtime=now - 300, exit_status=None, pgid=None,
                   deps=None, dep_hold=0, user_hold=0, run_count=0, comment=None, ncpus=1,
                   ngpus=0, walltime=3600, max_running=None, rerunnable=1, request=None,
                   kill_reason=None, kill_sent=None, killed_hard=0, exec_host=None, usage=None,
                   history_time=None, dep_cause=None, how=None)
        stamp = time.strftime("%a %b %d at %H:%M", time.localtime(now - 500))
        if kind == 0:
            row.update(phase="done", how="ok" if i % 2 == 0 else "failed",
                       exit_status=0 if i % 2 == 0 else 3, start_time=now - 500, end_time=now - 300,
                       history_time=now - 300, run_count=1, exec_host=host,
                       usage={"walltime": 200, "cput": 150, "mem_kb": 3548, "ncpus": 1},
                       comment="Job run at %s on (%s:ncpus=1) and %s"
                       % (stamp, host, "finished" if i % 2 == 0 else "failed"))
        elif kind == 1:
            row.update(phase="running", start_time=now - 500, run_count=1, exec_host=host,
                       pgid=10000 + i, comment="Job run at %s on (%s:ncpus=1)" % (stamp, host))
        else:
            row.update(phase="queued")
        rows.append(row)
    return rows


def synth_qstat(argv):
    printer = "old"
    if "--printer" in argv:
        printer = argv[argv.index("--printer") + 1]
    n = int([a for a in argv if a.isdigit()][0]) if any(a.isdigit() for a in argv) else 1000
    cfg = dict(core.DEFAULTS)
    cfg.update(DEFAULTS)
    cfg.update(server_name="synth", host="synth", printer=printer)
    now = time.time()
    rows = synthetic_rows(n, cfg, now=now)
    views = [job_view(r, None, [], cfg, now) for r in rows]
    sys.stdout.write(render_json(cfg, now, views))
    return 0


def main(argv):
    if argv and argv[0] == "synth-qstat":
        return synth_qstat(argv[1:])
    commands = {"qsub": qsub, "qstat": qstat, "qdel": qdel, "qrls": qrls}
    if argv and argv[0] in commands:
        return commands[argv[0]](argv[1:])
    sys.stderr.write("usage: python3 -m standin.pbs synth-qstat N [--printer old|cjson]\n"
                     "       python3 -m standin.pbs qsub|qstat|qdel|qrls ARGS...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
