"""The options of flux submit and flux batch, parsed as flux-core's FluxArgumentParser
(argparse, allow_abbrev=False, posix=True: options stop at the first word that is not
one) parses them, and the values they carry: Flux Standard Durations, --env rules,
dependency URIs and the `# flux:` directives of a batch script.

Sources (flux-core v0.65.0): src/bindings/python/flux/cli/base.py (options, Xcmd,
get_filtered_environment, URIArg), flux/cli/batch.py, flux/util.py (parse_fsd),
flux/job/directives.py (RFC 36 directives), flux/job/Jobspec.py (duration checks).
"""

import math
import os
import re
import shlex
from collections import ChainMap
from string import Template
from urllib.parse import urlparse

from standin.flux_common import error, unsupported, usage_error

# (option strings, dest, kind). kind: value, append, int (batch), flag, count,
# env- / env^ (appended to `env` as a rule), refuse (the stand-in lacks it).
COMMON = [
    (("-B", "--bank"), "bank", "value"), (("-q", "--queue"), "queue", "value"),
    (("-t", "--time-limit"), "time_limit", "value"), (("--urgency",), "urgency", "value"),
    (("--job-name",), "job_name", "value"), (("-o", "--setopt"), "setopt", "append"),
    (("-S", "--setattr"), "setattr", "append"), (("--add-file",), "add_file", "refuse"),
    (("--dependency",), "dependency", "append"), (("--requires",), "requires", "append"),
    (("--begin-time",), "begin_time", "refuse"), (("--env",), "env", "append"),
    (("--env-remove",), "env", "env-"), (("--env-file",), "env", "env^"),
    (("--rlimit",), "rlimit", "append"), (("--input",), "input", "refuse"),
    (("--output",), "output", "value"), (("--error",), "error", "value"),
    (("-u", "--unbuffered"), "unbuffered", "flag"), (("-l", "--label-io"), "label_io", "flag"),
    (("--cwd",), "cwd", "value"), (("--flags",), "flags", "append"),
    (("--signal",), "signal", "value"), (("--dry-run",), "dry_run", "refuse"),
    (("--quiet",), "quiet", "flag"), (("--list-plugins",), "list_plugins", "refuse"),
    (("--help",), "help", "refuse"),
]
SUBMIT = COMMON + [
    (("--taskmap",), "taskmap", "refuse"), (("-N", "--nodes"), "nodes", "value"),
    (("-x", "--exclusive"), "exclusive", "flag"), (("-n", "--ntasks"), "ntasks", "value"),
    (("-c", "--cores-per-task"), "cores_per_task", "value"),
    (("-g", "--gpus-per-task"), "gpus_per_task", "value"), (("--cores",), "cores", "refuse"),
    (("--tasks-per-node",), "tasks_per_node", "refuse"),
    (("--tasks-per-core",), "tasks_per_core", "refuse"),
    (("--gpus-per-node",), "gpus_per_node", "value"), (("-v", "--verbose"), "verbose", "count"),
    (("--cc",), "cc", "value"), (("--bcc",), "bcc", "value"),
    (("--wait-event",), "wait", "refuse"), (("--wait",), "wait", "refuse"),
    (("--watch",), "watch", "refuse"), (("--log",), "log", "refuse"),
    (("--log-stderr",), "log_stderr", "refuse"), (("--progress",), "progress", "refuse"),
    (("--jps",), "jps", "refuse"),
]
BATCH = COMMON + [
    (("--add-brokers",), "add_brokers", "refuse"), (("--conf",), "conf", "refuse"),
    (("--broker-opts",), "broker_opts", "append"), (("--dump",), "dump", "refuse"),
    (("-n", "--nslots"), "nslots", "int"), (("-c", "--cores-per-slot"), "cores_per_slot", "int"),
    (("-g", "--gpus-per-slot"), "gpus_per_slot", "int"), (("-N", "--nodes"), "nodes", "int"),
    (("-x", "--exclusive"), "exclusive", "flag"), (("--wrap",), "wrap", "flag"),
]
USAGE = {"submit": "flux submit [OPTIONS...] COMMAND [ARGS...]",
         "batch": "flux batch [OPTIONS...] [SCRIPT] [ARGS...]"}
TAKES_VALUE = ("value", "append", "int", "env-", "env^")
NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$")


class Parser:
    def __init__(self, cmd):
        self.cmd, self.prog, self.usage = cmd, "flux " + cmd, USAGE[cmd]
        self.table = {}
        for strings, dest, kind in (SUBMIT if cmd == "submit" else BATCH):
            for s in strings:
                self.table[s] = (strings, dest, kind)

    def fail(self, text):
        return usage_error(self.prog, self.usage, text)

    def split(self, argv):
        """_split_posix: (option words, the command and its arguments)."""
        i = 0
        while i < len(argv):
            a = argv[i]
            if a == "--" or not a.startswith("-") or len(a) == 1 or NEGATIVE.match(a):
                return argv[:i], argv[i:]
            i += 1
            long_opt = a.startswith("--")
            if (long_opt and "=" in a) or (not long_opt and len(a) > 2):
                continue
            entry = self.table.get(a)
            if entry is not None and entry[2] in TAKES_VALUE:
                i += 1
        return argv, []

    def parse(self, words, opts=None):
        """argparse over option words -> {dest: value}; lists for appended options."""
        opts = {} if opts is None else opts
        unknown, i = [], 0
        while i < len(words):
            a, i = words[i], i + 1
            explicit = None
            if a.startswith("--") and "=" in a:
                a, explicit = a.split("=", 1)
            elif not a.startswith("--") and len(a) > 2:
                if "=" in a and a.split("=", 1)[0] in self.table:
                    a, explicit = a.split("=", 1)
                elif a[:2] in self.table:
                    entry = self.table[a[:2]]
                    if entry[2] in TAKES_VALUE:
                        a, explicit = a[:2], a[2:]
                    else:                       # clustered flags: -xv
                        self.store(entry, True, opts)
                        words = words[:i] + ["-" + a[2:]] + words[i:]
                        continue
            entry = self.table.get(a)
            if entry is None:
                unknown.append(words[i - 1])
                continue
            if entry[2] in TAKES_VALUE and explicit is None:
                if i >= len(words) or (words[i].startswith("-") and len(words[i]) > 1
                                       and not NEGATIVE.match(words[i])):
                    raise self.fail("argument %s: expected one argument" % "/".join(entry[0]))
                explicit, i = words[i], i + 1
            elif entry[2] not in TAKES_VALUE and explicit is not None:
                raise self.fail("argument %s: ignored explicit argument '%s'"
                                % ("/".join(entry[0]), explicit))
            self.store(entry, explicit, opts)
        if unknown:
            raise self.fail("unrecognized arguments: %s" % " ".join(unknown))
        return opts

    def store(self, entry, value, opts):
        strings, dest, kind = entry
        if kind == "refuse":
            raise unsupported("flux %s %s" % (self.cmd, strings[-1]))
        if kind == "append":
            opts.setdefault(dest, []).append(value)
        elif kind in ("env-", "env^"):
            opts.setdefault("env", []).append(kind[-1] + value)
        elif kind == "int":
            if not re.match(r"^\s*[-+]?\d+\s*$", value):
                raise self.fail("argument %s: invalid int value: '%s'" % ("/".join(strings), value))
            opts[dest] = int(value)
        elif kind == "count":
            opts[dest] = opts.get(dest, 0) + 1
        elif kind == "flag":
            opts[dest] = True
        else:
            opts[dest] = value


# =============================================================== values

def parse_fsd(text):
    """util.parse_fsd: N[s|m|h|d|ms] -> seconds; ValueError if malformed."""
    if text in ("inf", "infinity", "INF", "INFINITY"):
        return float("inf")
    m = re.match(r"(.*?)(s|m|h|d|ms)$", text)
    try:
        value = float(m.group(1) if m else text)
    except ValueError:
        raise ValueError("invalid Flux standard duration")
    unit = m.group(2) if m else "s"
    seconds = value * {"s": 1, "m": 60, "h": 3600, "d": 86400, "ms": 0.001}[unit]
    if seconds < 0 or math.isnan(seconds) or math.isinf(seconds):
        raise ValueError("invalid Flux standard duration")
    return seconds


def time_limit(cmd, text):
    """-t MIN|FSD: a bare number is minutes (init_jobspec), else an FSD (the Jobspec
    duration setter and its checks). 0: no limit."""
    try:
        seconds = float(text) * 60
    except ValueError:
        try:
            seconds = parse_fsd(text)
        except ValueError as e:
            raise error(cmd, str(e))
    if seconds < 0:
        raise error(cmd, "duration must not be negative")
    if math.isnan(seconds) or math.isinf(seconds):
        raise error(cmd, "duration must be a normal, finite value")
    return seconds


def _filter(env, pattern, keep_matching=False):
    """filter_dict: a shell glob, or a regex between slashes."""
    import fnmatch
    regex = re.compile(pattern[1:].rstrip("/") if pattern.startswith("/")
                       else fnmatch.translate(pattern))
    return {k: v for k, v in env.items() if bool(regex.match(k)) == keep_matching}


def environment(cmd, rules, environ):
    """get_filtered_environment: `-PATTERN` removes, `^FILE` reads rules, `VAR=VALUE`
    sets ($VAR from the environment being built, then the process's), `PATTERN` pulls
    matching variables not yet set."""
    env = dict(environ)
    for rule in rules or []:
        if rule.startswith("-"):
            env = _filter(env, rule[1:])
        elif rule.startswith("^"):
            try:
                with open(os.path.expanduser(rule[1:])) as f:
                    lines = [line.strip() for line in f]
            except OSError as e:
                raise error(cmd, "%s: '%s'" % (e.strerror, e.filename))
            env = environment(cmd, lines, env)
        elif "=" in rule:
            var, value = rule.split("=", 1)
            try:
                env[var] = Template(value).substitute(ChainMap(env, environ))
            except KeyError as e:
                raise error(cmd, "--env: Variable %s not found in %s" % (e, rule))
            except ValueError:
                raise error(cmd, "--env: Unable to substitute %s" % rule)
        elif rule:
            for key, value in _filter(environ, rule, keep_matching=True).items():
                env.setdefault(key, value)
    return env


def dependency_uri(cmd, uri):
    """URIArg: `scheme:value[?k=v]` -> (scheme, value)."""
    text = uri if ":" in uri else uri + ":"
    parsed = urlparse(text.replace(":", ":FXX", 1))
    if not parsed.scheme or not parsed.path:
        raise error(cmd, 'Invalid dependency URI "%s"' % text)
    return parsed.scheme, parsed.path.replace("FXX", "", 1)


# =============================================================== directives

DIRECTIVE_RE = re.compile(r"^([^\w]*)((?:flux|FLUX):)(.*)$")


def directives(name, script):
    """RFC 36 `# flux:` lines -> [(line number, option words)]. One sentinel for the
    whole file, directives in one block; shell quoting and comments as shlex reads them.
    (Triple-quoted multi-line values are not supported by the stand-in.)"""
    out, sentinel, prefix, disabled, last = [], None, None, False, 0
    for lineno, line in enumerate(script.split("\n"), 1):
        m = DIRECTIVE_RE.match(line)
        if not m:
            if sentinel and not disabled and line.strip() \
                    and not line.startswith(prefix.rstrip()):
                disabled, last = True, lineno - 1
            continue
        if disabled:
            raise ValueError("%s: line %d: orphan '%s' detected: directives disabled after "
                             "line %d" % (name, lineno, m.group(2), last))
        if sentinel is None:
            sentinel, prefix = m.group(1) + m.group(2), m.group(1)
        elif m.group(1) + m.group(2) != sentinel:
            raise ValueError("%s: line %d: sentinel changed from '%s' to '%s'"
                             % (name, lineno, sentinel, m.group(1) + m.group(2)))
        if '"""' in m.group(3) or "'''" in m.group(3):
            raise unsupported("triple-quoted directives")
        lexer = shlex.shlex(m.group(3), posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        lexer.escapedquotes = "\"'"
        try:
            words = list(lexer)
        except ValueError as e:
            raise ValueError("%s: line %d: %s: %s" % (name, lineno, m.group(3), e))
        if words and not words[0].startswith("-"):
            raise ValueError("%s: line %d: Unknown directive: %s" % (name, lineno, m.group(3)))
        if words:
            out.append((lineno, words))
    return out
