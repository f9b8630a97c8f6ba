"""Torque qsub's options and #PBS directives, as src/cmds/qsub_functions.c reads them:
getopt (GNU, so options may follow the script), make_argv for directives, the option
checks that end in the usage text, -W and -W depend (src/lib/Libcmds/parse_depend.c),
-v (common_cmds.c parse_variable_list) and -t (server/array_func.c).
"""

import getopt
import re

from standin.pbs_qsub_options import parse_execution_time     # the same POSIX -a format
from standin.torque_common import PBS_MAXJOBARRAY, PBS_MAXJOBNAMELEN, QsubError, usage_error
from standin.torque_resources import parse_l

OPTSTRING = "a:A:b:c:C:d:D:e:EfF:hi:Ij:J:k:K:l:L:m:M:nN:o:p:P:q:r:S:t:T:u:v:Vw:W:Xxz"
UNSUPPORTED = "bDEfFiIJKLPTXx"
DEP_TYPES = ("after", "afterok", "afternotok", "afterany")
ARRAY_DEP_TYPES = ("afterstartarray", "afterokarray", "afternotokarray", "afteranyarray")
TORQUE_ONLY_TYPES = ("on", "synccount", "before", "beforeok", "beforenotok", "beforeany",
                     "syncwith", "beforestartarray", "beforeokarray", "beforenotokarray",
                     "beforeanyarray")


def job_name_ok(name):
    """ck_job_name.c check_job_name: at most 256 visible characters."""
    return 0 < len(name) <= PBS_MAXJOBNAMELEN and all(33 <= ord(c) < 127 for c in name)


def _priority_ok(v):
    try:
        return -1024 <= int(v) <= 1023
    except ValueError:
        return False


# Values qsub itself refuses: [message] + usage, exit 2 (process_opts).
CHECKS = {
    "a": (lambda v: parse_execution_time(v) is not None, "qsub: illegal -a value"),
    "e": (lambda v: bool(v.strip()), "qsub: illegal -e value"),
    "o": (lambda v: bool(v.strip()), "qsub: illegal -o value"),
    "j": (lambda v: v in ("oe", "eo", "n"), "qsub: illegal -j value"),
    "k": (lambda v: v in ("o", "e", "oe", "eo", "n"), "qsub: illegal -k value"),
    "m": (lambda v: v == "n" or (v != "" and all(c in "abefp" for c in v)),
          "qsub: illegal -m value"),
    "N": (job_name_ok, "qsub: illegal -N value"),
    "p": (_priority_ok, "qsub: illegal -p value"),
    "r": (lambda v: v in ("y", "n"), "qsub: illegal -r value (y/n)"),
    "S": (lambda v: bool(v.strip()), "qsub: illegal -S value"),
    "w": (lambda v: bool(v), "qsub: illegal -w value"),
}


def make_argv(line):
    """A directive's words: quotes group, a backslash escapes (make_argv)."""
    words, cur, i, started = [], [], 0, False
    line = line.strip()
    while i < len(line):
        c = line[i]
        if c in "\"'":
            end = line.find(c, i + 1)
            if end < 0:
                raise QsubError("qsub: unmatched \0\n", 1)
            cur.append(line[i + 1:end])
            i, started = end + 1, True
        elif c == "\\" and i + 1 < len(line):
            cur.append(line[i + 1])
            i, started = i + 2, True
        elif c.isspace():
            words.append("".join(cur))
            cur, started = [], False
            while i < len(line) and line[i].isspace():
                i += 1
        else:
            cur.append(c)
            i, started = i + 1, True
    if started or cur:
        words.append("".join(cur))
    return words


def parse_argv(args):
    """GNU getopt over qsub's options -> (pairs, operands)."""
    try:
        return getopt.gnu_getopt(args, OPTSTRING)
    except getopt.GetoptError as e:
        what = "option requires an argument" if "requires argument" in e.msg else "invalid option"
        raise QsubError("qsub: %s -- '%s'\n" % (what, e.opt) + usage_error("exiting").message, 2)


def parse_W(value, into):
    """-W attr=value[,attr=value...]; an item without '=' continues the value before it
    (depend=afterok:1,afterany:2)."""
    value = value.strip()
    if not value:
        raise usage_error("qsub: illegal -W value")
    last = None
    for item in value.split(","):
        name, eq, val = item.partition("=")
        if not eq:
            if last is None:
                raise usage_error("qsub: illegal -W value")
            into[last] += "," + item.strip()
            continue
        if not name.strip():
            raise usage_error("qsub: illegal -W value")
        last = name.strip()
        into[last] = val.strip()


def parse_depend(text):
    """depend=type:id[:id...][,type:id...] -> [(type, [id, ...])] (parse_depend_list)."""
    out = []
    for group in text.split(","):
        fields = group.split(":")
        kind = fields[0]
        if (kind not in DEP_TYPES + ARRAY_DEP_TYPES + TORQUE_ONLY_TYPES or len(fields) < 2
                or not all(fields[1:])):
            raise usage_error("qsub: illegal -W dependency value: '%s'" % text)
        if kind in TORQUE_ONLY_TYPES:
            raise QsubError("qsub: the stand-in does not support dependency type %s\n" % kind, 2)
        out.append((kind, fields[1:]))
    return out


def collect(pairs):
    """getopt pairs of one source (a directive or the command line) -> options dict;
    -l accumulates [(name, value)], -W is per attribute, everything else the last wins."""
    out = {"l": [], "W": {}}
    for opt, val in pairs:
        o = opt[1:]
        if o in UNSUPPORTED:
            raise QsubError("qsub: the stand-in does not support -%s\n" % o, 2)
        if o == "l":
            out["l"] += parse_l(val)
        elif o == "W":
            parse_W(val, out["W"])
        elif o in ("h", "n", "V", "z"):
            out[o] = True
        else:
            if o in CHECKS and not CHECKS[o][0](val):
                raise usage_error(CHECKS[o][1])
            out[o] = val
    return out


def merge(sources):
    """Directives first, the command line last: later sources win (-l per resource,
    -W per attribute)."""
    merged = {"l": [], "W": {}}
    for src in sources:
        for k, v in src.items():
            if k == "l":
                merged["l"] += v
            elif k == "W":
                merged["W"].update(v)
            else:
                merged[k] = v
    return merged


def is_executable(line):
    """qsub_functions.c isexecutable(): a line that ends the directives."""
    if line.startswith(":") or line.startswith("#!"):
        return False
    s = line.lstrip()
    return bool(s) and not s.startswith("#")


def directive_lines(text, prefix):
    """The option strings of the prefix directives before the first executable line;
    a trailing backslash continues a directive."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if prefix and line.lstrip().startswith(prefix):
            body = line.lstrip()[len(prefix):]
            while body.endswith("\\") and i + 1 < len(lines):
                i += 1
                body = body[:-1] + lines[i]
            out.append(body)
        elif is_executable(line):
            break
        i += 1
    return out


def parse_variable_list(text, environ):
    """-v a=1,b,c= -> [(name, value)]; a name alone takes qsub's value (escaped later),
    or "" if unset. As in common_cmds.c, an unset name at the very end is sent as the
    literal "name=" (a Torque bug, kept)."""
    pairs, s = [], text
    while s is not None:
        m = re.search(r"[=,]", s)
        if m and m.start() == 0:
            raise QsubError("invalid -v syntax\n", 3)
        if m is None or m.group(0) == "," or s[m.end():m.end() + 1] in (",", ""):
            name = s[:m.start()] if m else s
            rest = s[m.end():] if m else None
            if rest is not None and m.group(0) == "=":
                rest = rest[1:] if rest.startswith(",") else rest
            if name in environ:
                pairs.append((name, environ[name]))
            else:
                pairs.append(("name" if rest is None else name, ""))
            s = rest if rest else None
        else:
            item, comma, rest = s.partition(",")
            name, _, value = item.partition("=")
            pairs.append((name, value))
            s = rest if comma else None
    return pairs


def parse_array_request(text):
    """-t 1-3,6,9%2 -> (sorted indices, slot limit or None, request as shown: "1-3,6,9"),
    or None if malformed (array_func.c set_slot_limit, parse_array_request)."""
    request, _, limit = text.partition("%")
    limit = limit.lstrip("%")
    if limit and not limit.isdigit():
        return None
    indices = set()
    for token in request.split(","):
        m = re.match(r"^(\d+)(?:-(\d+))?$", token)
        if not m:
            return None
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if hi < lo or hi > PBS_MAXJOBARRAY:
            return None
        indices.update(range(lo, hi + 1))
    return sorted(indices), (int(limit) if limit else None), request
