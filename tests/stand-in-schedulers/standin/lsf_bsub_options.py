"""bsub's options: the command line, the #BSUB lines of a script read on stdin, and the
values of -J, -n, -W, -R, -gpu and -env.

#BSUB lines are read as OpenLava's cmd.sub.c (fillReq, parseLine) reads them: every line
of the script whose first non-blank character is '#' followed (blanks allowed) by `BSUB`
and, after blanks, a '-'; anywhere in the script, not only before the first command.
A line starting with '#' holding `BSUB` and ending in a backslash continues on the next
line. Words are split at blanks; single or double quotes group; a word starting with '#'
ends the line. The command line wins over the script, option by option.
"""

import re

from standin.lsf_common import LsfError, not_submitted, parse_indices, unsupported

# Options taking a value, and flags. -o/-oo, -e/-eo and -r/-rn share a slot.
VALUED = {"-J", "-n", "-R", "-W", "-q", "-P", "-o", "-oo", "-e", "-eo", "-w", "-gpu", "-u",
          "-env", "-cwd", "-M", "-G", "-sp", "-We", "-g", "-Jd", "-app", "-m", "-L", "-S",
          "-c", "-v", "-T", "-C", "-D", "-F", "-p", "-sla", "-s"}
FLAGS = {"-r", "-rn", "-H", "-x", "-B", "-N", "-ti", "-hl", "-Ne"}
SLOT = {"-oo": "-o", "-eo": "-e", "-rn": "-r"}
# bsub options the stand-in refuses (exit 2): they need what it does not have.
REFUSED = {"-K", "-I", "-Ip", "-Is", "-IS", "-ISp", "-ISs", "-IX", "-XF", "-pack", "-json",
           "-yaml", "-jsdl", "-jsdl_strict", "-f", "-i", "-is", "-E", "-Ep", "-b", "-t",
           "-data", "-datagrp", "-stage", "-clusters", "-a", "-k", "-Q", "-ar", "-env_file",
           "-eptl", "-ptl", "-Lp", "-U", "-ext", "-extsched", "-rnc", "-mig", "-outdir"}
ATTACHED = "JnRWqPoewuM"     # single-letter options whose value may be attached: -n4


def words(text):
    """Split a #BSUB line's text into words: blanks separate, quotes group, a word
    starting with '#' ends the line."""
    out, cur, quote, have = [], [], None, False
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
            else:
                cur.append(ch)
        elif ch in "'\"":
            quote, have = ch, True
        elif ch in " \t\r\n":
            if have:
                out.append("".join(cur))
            cur, have = [], False
        else:
            if not have and ch == "#":
                return out
            cur.append(ch)
            have = True
    if have:
        out.append("".join(cur))
    return out


def directive_words(script):
    """Every #BSUB line's words, in order, joined into one option list."""
    lines = script.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        while (line.startswith("#") and "BSUB" in line and line.endswith("\\")
               and i + 1 < len(lines)):
            i += 1
            line = line[:-1] + lines[i]
        i += 1
        t = line.lstrip(" \t")
        if not t.startswith("#"):
            continue
        t = t[1:].lstrip(" \t")
        if not t.startswith("BSUB"):
            continue
        t = t[4:].lstrip(" \t")
        if t.startswith("-"):
            out += words(t)
    return out


def parse(argv, stop_at_command):
    """argv -> ({option slot: value}, command words). With stop_at_command the first
    word that is no option begins the command (the command line); otherwise every word
    must be an option (#BSUB lines)."""
    opts, i = {}, 0
    while i < len(argv):
        a = argv[i]
        if not a.startswith("-") or a == "-":
            if stop_at_command:
                return opts, argv[i:]
            raise not_submitted("%s: Illegal option" % a)
        if a in REFUSED:
            raise unsupported("bsub", a)
        if a in VALUED:
            if i + 1 >= len(argv):
                raise not_submitted("%s: Option requires an argument" % a)
            value, i = argv[i + 1], i + 2
        elif a in FLAGS:
            value, i = True, i + 1
        elif len(a) > 2 and a[1] in ATTACHED:
            a, value, i = a[:2], a[2:], i + 1
        else:
            raise LsfError("bsub: illegal option -- %s\n" % a.lstrip("-"))
        slot = SLOT.get(a, a)
        if slot == "-R":
            opts.setdefault("-R", []).append(value)
            continue
        opts[slot] = value
        if slot in ("-o", "-e", "-r"):
            opts[slot + "_form"] = a
    return opts, []


def merge(script_opts, cmdline_opts):
    """The command line wins over the script, option by option (-R as a whole)."""
    out = dict(script_opts)
    for key, value in cmdline_opts.items():
        out[key] = value
        if key in ("-o", "-e", "-r") and key + "_form" not in cmdline_opts:
            out.pop(key + "_form", None)
    return out


# =============================================================== values

JOB_NAME_RE = re.compile(r"^([^\[\]]*)(?:\[([^\]]*)\](?:%(\d+))?)?$")


def job_name(text, max_size):
    """-J NAME or -J "NAME[1-10:2,15]%MAX" -> (name, indices or None, index text, max)."""
    m = JOB_NAME_RE.match(text)
    if not m or len(text) > 4094:
        raise not_submitted("Bad job name")
    name, spec, limit = m.group(1), m.group(2), m.group(3)
    if spec is None:
        return name, None, None, None
    indices = parse_indices(spec)
    if indices is None:
        raise not_submitted("Job array index error")
    if len(indices) > max_size:
        raise not_submitted("Job array index too large")
    if limit is not None and int(limit) < 1:
        raise not_submitted("Job array index error")
    return name, indices, spec, int(limit) if limit else None


def slots(text):
    """-n N or -n MIN,MAX -> the slots asked for (MIN)."""
    first = text.split(",")[0].strip()
    if not re.match(r"^-?\d+$", first):
        raise not_submitted("Bad argument for option -n")
    if int(first) < 1:
        raise not_submitted("The number of processors must be a positive integer")
    return int(first)


def run_limit(text):
    """-W [hour:]minute[/host] -> minutes."""
    value = text.split("/", 1)[0]
    m = re.match(r"^(?:(\d+):)?(\d+)$", value)
    if not m:
        raise not_submitted("%s: Bad RUNLIMIT specification" % text)
    minutes = int(m.group(1) or 0) * 60 + int(m.group(2))
    if minutes <= 0:
        raise not_submitted("%s: RUNLIMIT value should be a positive integer" % text)
    return minutes


SECTION_RE = re.compile(r"\s*(select|order|rusage|span|same|cu|affinity)\s*\[([^\]]*)\]\s*")
UNITS = {"": 1024 ** 2, "K": 1024, "KB": 1024, "M": 1024 ** 2, "MB": 1024 ** 2,
         "G": 1024 ** 3, "GB": 1024 ** 3, "T": 1024 ** 4, "TB": 1024 ** 4}


def resource_requirements(texts):
    """-R strings -> {"mem": bytes or None, "span_hosts": 1 or None, "ptile": N or None}.
    A bare string is a select section. Sizes without a unit are MB."""
    out = {"mem": None, "span_hosts": None, "ptile": None}
    for text in texts:
        pos, seen = 0, set()
        if text.strip() and "[" not in text:
            continue                            # `-R "mem>100"`: a select string
        while pos < len(text.rstrip()):
            m = SECTION_RE.match(text, pos)
            if not m:
                raise not_submitted("Bad resource requirement syntax")
            section, body = m.group(1), m.group(2)
            if section in seen:
                raise not_submitted('Error near "%s" : duplicate section' % section)
            seen.add(section)
            pos = m.end()
            if section == "rusage":
                for item in body.split(":"):
                    key, _, value = item.partition("=")
                    if key.strip() != "mem":
                        continue
                    mm = re.match(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?B?)\s*(?:/\s*task)?\s*$",
                                  value, re.I)
                    if not mm:
                        raise not_submitted("Error in rusage section")
                    out["mem"] = int(float(mm.group(1)) * UNITS[mm.group(2).upper()])
            elif section == "span":
                mm = re.match(r"^\s*(hosts|ptile)\s*=\s*(\d+)\s*$", body)
                if not mm or int(mm.group(2)) < 1:
                    raise not_submitted("Error in span section")
                out["span_hosts" if mm.group(1) == "hosts" else "ptile"] = int(mm.group(2))
    return out


def gpu_request(text):
    """-gpu "num=G[/task|host][:mode=...]" or "-" -> (G, per_task)."""
    if text.strip() == "-":
        return 1, False
    num, per_task = 1, False
    for item in text.split(":"):
        key, _, value = item.strip().partition("=")
        if key == "num":
            mm = re.match(r"^(\d+)(?:/(task|host))?$", value.strip())
            if not mm or int(mm.group(1)) < 1:
                raise not_submitted("Error in gpu requirement")
            num, per_task = int(mm.group(1)), mm.group(2) == "task"
        elif key not in ("mode", "mps", "j_exclusive", "aff", "block", "gpack", "gvendor",
                         "gmodel", "gtile", "gmem", "glink", "mig"):
            raise not_submitted("Error in gpu requirement")
    return num, per_task


def environment(text, environ):
    """-env "all" | "none" | "all, A=1" | "A, B=2" -> [(name, value)] the job gets."""
    items = [i.strip() for i in text.split(",") if i.strip()]
    if not items:
        raise not_submitted("Bad argument for option -env")
    base = {} if items[0] == "none" or items[0] != "all" else dict(environ)
    for item in items:
        if item in ("all", "none"):
            continue
        name, eq, value = item.partition("=")
        if eq:
            base[name.strip()] = value
        elif name in environ:
            base[name] = environ[name]
    return sorted(base.items())
