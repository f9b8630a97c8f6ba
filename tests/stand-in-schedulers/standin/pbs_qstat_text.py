"""qstat's text outputs for PBS: `qstat -f` (prt_attr's wrapping) and the default table
(display_statjob), as src/cmds/qstat.c prints them.
"""

from standin.pbs_common import QUEUE, display_id
from standin.pbs_view import ENV, RES, state_of, used_pairs

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
