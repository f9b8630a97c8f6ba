"""qsub's options and #PBS directives: getopt, -W, -W depend, -a, the option checks,
directive lines, -v lists (qsub.c process_opts, qsub_sup.c).
"""

import getopt
import re
import time

from standin.pbs_common import parse_ref
from standin.pbs_resources import QsubError, illegal, parse_l, split_outside_quotes, unquote

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
