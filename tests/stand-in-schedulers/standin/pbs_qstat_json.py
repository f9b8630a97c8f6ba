"""qstat -f -F json: the two printers of PBS (the pre-cJSON "old" one and the cJSON one)
and their value sniffers.

Facts from src/cmds/qstat.c, src/lib/Libjson/cJSON/pbs_cjson.c and the pre-cJSON
src/lib/Libcmds/pbs_json.c (openpbs @ cd7ab5e, and before commit 74106a6).
"""

import json
import re

from standin.pbs_common import pbs_version
from standin.pbs_view import ENV, RES, S, V

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
