"""What the submit commands mean for one proc: the keys condor_submit turns into the job
(htcondor/htcondor @ 7491a145, src/condor_utils/submit_utils.cpp; docs/man-pages/
condor_submit.rst): executable, arguments, environment, getenv, initialdir, output,
error, input, request_cpus/_memory/_gpus, allowed_job_duration, batch_name,
accounting_group, priority, hold, +Attr. The checks and their words come from
submit.cpp check_sub_file and submit_utils.cpp (HTCONDOR.md: what is UNVERIFIED).
"""

import fnmatch
import math
import os
import re

from standin.htcondor_common import CondorError, unsupported
from standin.htcondor_json import Expr


def _quoted_words(text):
    """The new syntax of arguments/environment (inside "..."): words split at blanks,
    '...' groups them ('' is a quote inside), "" is a double quote."""
    words, word, have, i = [], [], False, 0
    text = text.replace('""', '\x01')
    while i < len(text):
        ch = text[i]
        if ch == "'":
            have = True
            i += 1
            while i < len(text):
                if text[i] == "'":
                    if text[i + 1:i + 2] == "'":
                        word.append("'")
                        i += 2
                        continue
                    break
                word.append(text[i])
                i += 1
            i += 1
        elif ch in " \t":
            if word or have:
                words.append("".join(word))
            word, have = [], False
            i += 1
        else:
            word.append(ch)
            i += 1
    if word or have:
        words.append("".join(word))
    return [w.replace("\x01", '"') for w in words]


def parse_arguments(text):
    """arguments: new syntax `"a 'b c'"`, or the old one (blank separated)."""
    text = text.strip()
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return _quoted_words(text[1:-1])
    return text.replace('\\"', '"').split()


def parse_environment(text):
    """environment: new syntax `"A=1 B='x y'"`, or the old `A=1;B=2` -> [(name, value)]."""
    text = text.strip()
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        entries = _quoted_words(text[1:-1])
    else:
        entries = [e for e in text.split(";") if e.strip()]
    out = []
    for entry in entries:
        name, _, value = entry.partition("=")
        if name.strip():
            out.append((name.strip(), value))
    return out


def environment_text(pairs):
    """The job ad's Environment (new syntax, without the outer quotes)."""
    parts = []
    for name, value in pairs:
        if re.search(r"[\s'\"]", value) or value == "":
            value = "'" + value.replace("'", "''").replace('"', '""') + "'"
        parts.append("%s=%s" % (name, value))
    return " ".join(parts)


def memory_mb(text):
    """request_memory: a number (MB) or a number with K, M, G or T (KB, MB, ...), rounded
    up to whole MB as parse_int64_bytes does; None for anything else (an expression)."""
    m = re.match(r"^\s*(\d+)(?:\.(\d*))?\s*(?:([kKmMgGtT])[bB]?)?\s*$", text)
    if not m:
        return None
    value = int(m.group(1)) + (float("0." + m.group(2)) if m.group(2) else 0.0)
    mult = {None: 1 << 20, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[
        m.group(3).lower() if m.group(3) else None]
    return int(math.ceil(value * mult / float(1 << 20)))


def literal(text):
    """A +Attr value: an int, a real, true/false, undefined, a "string", else an Expr."""
    t = text.strip()
    if re.match(r"^[+-]?\d+$", t):
        return int(t)
    if re.match(r"^[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?$", t):
        return float(t)
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    if t.lower() == "undefined":
        return None
    if len(t) >= 2 and t[0] == '"' and t[-1] == '"' and '"' not in t[1:-1].replace('\\"', ""):
        return t[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return Expr(t)


def _bool(text):
    return (text or "").strip().lower() in ("true", "t", "yes", "y", "1")


def _int(text, default):
    text = (text or "").strip()
    return int(text) if re.match(r"^[+-]?\d+$", text) else default


def getenv_pairs(spec, environ):
    """getenv: true (everything), false (nothing) or names/patterns, comma separated."""
    if spec is None or spec.strip().lower() in ("false", "f", "no", "n", "0", ""):
        return []
    if spec.strip().lower() in ("true", "t", "yes", "y", "1"):
        return sorted(environ.items())
    pats = [p for p in re.split(r"[\s,]+", spec) if p]
    return sorted((k, v) for k, v in environ.items() if any(fnmatch.fnmatchcase(k, p)
                                                           for p in pats))


def build_proc(h, live, submit_cwd, environ):
    """One proc's settings from the hash `h` with live variables -> dict, or CondorError
    with condor_submit's words."""
    universe = (h.get(live, "universe") or "vanilla").lower()
    if universe not in ("vanilla", "5"):
        raise unsupported("condor_submit", "universe = %s" % universe)
    iwd = h.get(live, "initialdir", "initial_dir", "iwd") or ""
    iwd = os.path.normpath(os.path.join(submit_cwd, iwd))
    if not os.path.isdir(iwd):
        raise CondorError("ERROR: No such directory: %s\n" % iwd)
    exe = h.get(live, "executable")
    if not exe:
        raise CondorError("ERROR: No 'executable' parameter was provided\n")
    exe = os.path.normpath(os.path.join(iwd, exe))
    transfer = h.get(live, "transfer_executable")
    if transfer is None or _bool(transfer):
        try:
            size = os.stat(exe).st_size
        except OSError as e:
            raise CondorError("\nERROR: Can't access executable file %s: %s\n"
                              % (exe, e.strerror))
        if size == 0:
            raise CondorError("\nERROR: Executable file %s has zero length\n" % exe)

    def path(*keys):
        value = h.get(live, *keys)
        return os.path.normpath(os.path.join(iwd, value)) if value else None
    mem_text = h.get(live, "request_memory", "RequestMemory")
    mem = memory_mb(mem_text) if mem_text else None
    env = dict(getenv_pairs(h.get(live, "getenv"), environ))
    env.update(parse_environment(h.get(live, "environment", "env") or ""))
    args_text = h.get(live, "arguments", "args")
    duration = h.get(live, "allowed_job_duration", "AllowedJobDuration")
    plus = [(name, literal(h.expand(value, live))) for name, value in h.plus]
    return {
        "exe": exe, "args": parse_arguments(args_text) if args_text else [], "iwd": iwd,
        "out": path("output", "out"), "err": path("error", "err"), "in": path("input", "in"),
        "log": path("log"), "env": sorted(env.items()),
        "cpus": _int(h.get(live, "request_cpus", "RequestCpus"), 1),
        "mem": mem, "mem_text": mem_text if mem is None else None,
        "gpus": _int(h.get(live, "request_gpus", "RequestGPUs"), 0),
        "duration": _int(duration, None) if duration else None,
        "duration_text": duration if duration and _int(duration, None) is None else None,
        "batch_name": (h.get(live, "batch_name") or "").strip('"') or None,
        "acct": h.get(live, "accounting_group"),
        "acct_user": h.get(live, "accounting_group_user"),
        "prio": _int(h.get(live, "priority", "prio"), 0),
        "hold": _bool(h.get(live, "hold")),
        "plus": plus,
    }
