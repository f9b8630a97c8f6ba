"""`flux jobs -o FORMAT`: Python format strings over a job's fields, with flux-core's
additions (src/bindings/python/flux/util.py UtilFormatter, UtilDatetime, OutputFormat):

  conversions  !d datetime (`{t_inactive!d:%b%d %R::>12}`), !D ISO 8601 (`""` for 0),
               !F Flux Standard Duration (fsd: `6.593s`, `1.5m`), !H H:MM:SS
  spec suffix  `h`: `-` for an empty value (``, 0s, 0.0, 0:00:00, the epoch),
               `+`: a truncated value ends in `+`
  prefixes     `?:{field}` drops the column when it is empty for every job,
               `+:{field}` widens it to the longest value (and its heading)
  header       the headings (flux/job/info.py; flux queue list passes its own),
               aligned and as wide as the fields.
"""

import re
import string
import time
from datetime import datetime, timedelta

HEADINGS = {
    "id": "JOBID", "id.dec": "JOBID", "id.hex": "JOBID", "id.f58": "JOBID",
    "id.f58plain": "JOBID", "id.kvs": "JOBID", "id.dothex": "JOBID", "jobid": "JOBID",
    "userid": "UID", "username": "USER", "urgency": "URG", "priority": "PRI",
    "state": "STATE", "state_single": "S", "name": "NAME", "cwd": "CWD", "queue": "QUEUE",
    "project": "PROJECT", "bank": "BANK", "ntasks": "NTASKS", "ncores": "NCORES",
    "duration": "DURATION", "nnodes": "NNODES", "expiration": "EXPIRATION",
    "t_remaining": "T_REMAINING", "ranks": "RANKS", "nodelist": "NODELIST",
    "success": "SUCCESS", "result": "RESULT", "result_abbrev": "RS", "t_submit": "T_SUBMIT",
    "t_depend": "T_DEPEND", "t_priority": "T_PRIORITY", "t_sched": "T_SCHED",
    "t_run": "T_RUN", "t_cleanup": "T_CLEANUP", "t_inactive": "T_INACTIVE",
    "runtime": "RUNTIME", "status": "STATUS", "status_abbrev": "ST", "waitstatus": "WSTATUS",
    "returncode": "RC", "exception.occurred": "EXCEPTION-OCCURRED",
    "exception.severity": "EXCEPTION-SEVERITY", "exception.type": "EXCEPTION-TYPE",
    "exception.note": "EXCEPTION-NOTE", "annotations": "ANNOTATIONS",
    "dependencies": "DEPENDENCIES", "contextual_info": "INFO", "contextual_time": "TIME",
    "inactive_reason": "INACTIVE-REASON",
}
SENTINELS = ("?+:", "?:", "+:")
SPEC_RE = re.compile(r"^(?:(.)?([<>=^]))?([+\- ]?)(#?)(0?)(\d*)([,_]?)(?:\.(\d+))?(.?)$")


def fsd(secs):
    """flux.util.fsd."""
    if secs == float("inf"):
        return "inf"
    if secs < 1.0e-3:
        return "0s"
    if secs < 10.0:
        return "%.03fs" % secs
    if secs < 60.0:
        return "%.4gs" % secs
    for limit, div, unit in ((3600.0, 60.0, "m"), (86400.0, 3600.0, "h")):
        if secs < limit:
            return "%.4g%s" % (secs / div, unit)
    return "%.4gd" % (secs / 86400.0)


def empty_outputs():
    return ("", "0s", "0.0", "0:00:00", "1970-01-01T00:00:00",
            datetime.fromtimestamp(0.0).strftime("%FT%T"))


class Stamp:
    """A UtilDatetime: `strftime::spec`, empty at the epoch."""

    def __init__(self, t):
        self.t = t or 0.0

    def __format__(self, fmt):
        timefmt, _, spec = fmt.partition("::")
        result = time.strftime(timefmt or "%FT%T", time.localtime(self.t)) if self.t else ""
        if spec.endswith("h"):
            result, spec = result or "-", spec[:-1] + "s"
        return format(result, spec)


class Formatter(string.Formatter):
    def get_field(self, field_name, args, kwargs):
        obj = args[0]
        for part in field_name.split("."):
            obj = obj.get(part, "") if isinstance(obj, dict) else getattr(obj, part)
        return obj, field_name

    def convert_field(self, value, conv):
        if conv == "d":
            return Stamp(value if value != "" else 0.0)
        if conv == "D":
            return datetime.fromtimestamp(value).strftime("%FT%T") if value else ""
        if conv == "F":
            return fsd(value) if value != "" else ""
        if conv == "H":
            if value == "":
                return ""
            return str(timedelta(seconds=round(1 if 0 < value < 1 else value)))
        return super().convert_field(value, conv)

    def format_field(self, value, spec):
        truncate = spec.endswith("+")
        spec = spec[:-1] if truncate else spec
        if spec.endswith("h") and not isinstance(value, Stamp):
            value = "-" if str(value) in empty_outputs() else str(value)
            spec = spec[:-1] + "s"
        out = super().format_field(value, spec)
        if truncate and len(out) < len(str(value)):
            out = out[:-1] + "+"
        return out


class HeaderFormatter(string.Formatter):
    def get_field(self, field_name, args, kwargs):
        return kwargs.get(field_name, field_name.upper()), field_name


def _tuple(text, field, spec, conv):
    if field is None:
        return text
    return "%s{%s%s%s}" % (text, field, "!" + conv if conv else "", ":" + spec if spec else "")


class OutputFormat:
    def __init__(self, fmt, headings=None):
        self.headings = HEADINGS if headings is None else headings
        self.entries = [list(e) for e in string.Formatter().parse(fmt)]
        for text, field, spec, conv in self.entries:
            if field is not None and field not in self.headings:
                raise ValueError("Unknown format field: " + field)

    def filtered(self, items, no_header):
        """The format after `?:` and `+:` are applied to these items."""
        fmt = Formatter()
        entries, keep = [], []
        for text, field, spec, conv in self.entries:
            mark = next((s for s in SENTINELS if text and text.endswith(s)), None)
            if mark and field is not None:
                m = SPEC_RE.match(spec or "")
                width = int(m.group(6)) if m and m.group(6) else 0
                values = [fmt.format(_tuple("", field, "", conv), item) for item in items]
                widths = [0 if v in empty_outputs() else len(v) for v in values]
                if "?" in mark and not any(widths):
                    continue
                if "+" in mark:
                    if not no_header:
                        width = max(width, len(self.headings.get(field, "")))
                    width = max([width] + widths)
                    if m:
                        g = list(m.groups())
                        g[5] = str(width)
                        spec = "".join((g[0] or "", g[1] or "", g[2], g[3], g[4], g[5], g[6],
                                        "." + g[7] if g[7] else "", g[8]))
                text = text[:-len(mark)]
            entries.append((text, field, spec, conv))
        return entries

    def lines(self, items, no_header=False):
        entries = self.filtered(items, no_header)
        fmt = "".join(_tuple(*e) for e in entries)
        out = []
        if not no_header:
            header = []
            for text, field, spec, conv in entries:
                m = SPEC_RE.match(spec or "")
                hspec = "%s%s" % (m.group(2) or "", m.group(6)) if m else ""
                header.append(_tuple(text, field, hspec, None))
            out.append(HeaderFormatter().format("".join(header), **self.headings))
        formatter = Formatter()
        for item in items:
            line = formatter.format(fmt, item)
            if line and not line.isspace():
                out.append(line)
        return out
