"""Job ClassAds as condor_q and condor_history print them: -json, -jsonl, -long, -af.

An ad is a list of (name, value) pairs; a value is a Python str, int, float, bool, None
(undefined) or an Expr (an expression that is no literal). The layouts follow HTCondor's
CondorClassAdListWriter (src/condor_utils/compat_classad.cpp) and ClassAdJsonUnParser
(src/classad/jsonSink.cpp), htcondor/htcondor @ 7491a145:
  * -json: `[\\n`, then each ad followed by `\\n`, `,\\n` between ads, `]\\n` at the end,
    and NOTHING AT ALL when no ad is printed; an ad is `{`, `\\n  "Name": value` joined by
    `,`, `\\n}`; strings escape `"` `\\` and control characters (`\\u00XX`), not `/`;
    an expression is `"\\/Expr(text)\\/"`; undefined is `null`.
  * -jsonl: one ad a line, `{"Name": value,"Name": value}`.
  * attributes sorted by name, case-insensitively (classad::References), unless the
    caller keeps its own order (`-long:nosort`); -attributes keeps only those named
    (any case; printed with the ad's spelling).
"""

import re


class Expr(str):
    """A ClassAd expression that is no literal (printed as text, `\\/Expr(...)\\/` in JSON)."""


def _escape(text):
    out = []
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in "\b\f\n\r\t":
            out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif 0 < ord(ch) < 32:
            out.append("\\u00%02X" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def real_text(value):
    """A real as the unparsers write it: `%.16G`, `.0` added when it looks like an int."""
    if value == 0.0:
        return "%.1f" % value
    text = "%.16G" % value
    if not re.search(r"[.Ee]", text):
        text += ".0"
    return text


def json_value(value):
    if isinstance(value, Expr):
        return '"\\/Expr(%s)\\/"' % _escape(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return real_text(value)
    return '"%s"' % _escape(str(value))


def old_value(value):
    """A value in the old ClassAd syntax (-long, -af:V)."""
    if isinstance(value, Expr):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "undefined"
    if isinstance(value, float):
        return real_text(value)
    if isinstance(value, int):
        return str(value)
    return '"%s"' % str(value).replace("\\", "\\\\").replace('"', '\\"')


def select(ad, attributes=None, keep_order=False):
    """The pairs to print: only `attributes` (case-insensitive) when given, sorted by name
    case-insensitively unless keep_order."""
    if attributes is not None:
        wanted = {a.lower() for a in attributes}
        ad = [(k, v) for k, v in ad if k.lower() in wanted]
    if keep_order:
        return list(ad)
    return sorted(ad, key=lambda kv: kv[0].lower())


def json_ad(pairs, oneline=False):
    """One ad, as ClassAdJsonUnParser writes it."""
    if oneline:
        return "{" + ",".join('"%s": %s' % (_escape(k), json_value(v)) for k, v in pairs) + "}"
    return ("{" + ",".join('\n  "%s": %s' % (_escape(k), json_value(v)) for k, v in pairs)
            + "\n}")


def json_list(ads):
    """`-json`: ads (lists of pairs, already selected) -> the whole output; "" for none."""
    if not ads:
        return ""
    return "[\n" + ",\n".join(json_ad(pairs) + "\n" for pairs in ads) + "]\n"


def jsonl_list(ads):
    """`-jsonl` (condor_history): one ad a line."""
    return "".join(json_ad(pairs, oneline=True) + "\n" for pairs in ads)


def long_list(ads):
    """`-long`: `Name = value` lines, a blank line after each ad."""
    out = []
    for pairs in ads:
        if pairs:
            out.append("".join("%s = %s\n" % (k, old_value(v)) for k, v in pairs) + "\n")
    return "".join(out)


def af_list(ads, names, opts=""):
    """`-af[:jtV,] A B ...`: the values of each ad on a line, blank separated (`t`: a tab),
    `undefined` for missing ones, strings bare (`V`: quoted); `j`: the job id first."""
    sep = "\t" if "t" in opts else " "
    if "," in opts:
        sep = "," + sep
    lines = []
    for pairs in ads:
        by_name = {k.lower(): v for k, v in pairs}
        values = []
        for name in names:
            value = by_name.get(name.lower())
            if isinstance(value, str) and not isinstance(value, Expr) and "V" not in opts:
                values.append(value)
            else:
                values.append(old_value(value))
        if "j" in opts:
            values.insert(0, "%s.%s" % (by_name.get("clusterid"), by_name.get("procid")))
        lines.append(sep.join(values) + "\n")
    return "".join(lines)


AF_OPTS = set("jtV,")


def parse_af(arg):
    """`-af`, `-af:jt`, `-autoformat:j` -> the options, or None if not an -af option."""
    m = re.match(r"^-(?:af|autoformat)(?::(.*))?$", arg)
    if not m:
        return None
    return m.group(1) or ""
