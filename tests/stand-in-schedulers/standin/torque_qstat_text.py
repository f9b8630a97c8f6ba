"""qstat's text outputs for Torque (src/cmds/qstat.c): `qstat -f [-1]` (display_full_job,
prt_attr) and the default table (display_statjob, display_job_summary).

prt_attr folds a value at commas when the next piece would reach column 77
(`linesize`) and cuts a piece longer than that after column 77; continuation lines
start with a TAB. `-1` sets linesize to 65536. Times are printed with ctime(), whose
newline ends the line.
"""

import time

from standin.torque_view import RES, STR, TIME

LINESIZE = 77
MAXLINESIZE = 65536
TIME_ATTRS = ("ctime", "etime", "mtime", "qtime", "start_time", "comp_time",
              "checkpoint_time", "Execution_Time")


def prt_attr(name, resource, value, linesize=LINESIZE):
    """One attribute, as qstat.c prt_attr prints it (without a final newline)."""
    out = ["    %s" % name]
    start = len(name) + 7
    if resource is not None:
        start += len(resource) + 1
        out.append(".%s" % resource)
    out.append(" = ")
    tokens = [t for t in value.split(",") if t]
    first = True
    for n, tok in enumerate(tokens):
        if len(tok) + start < linesize:
            out.append(tok)
            start += len(tok)
        else:
            if not first:
                out.append("\n\t")
                start = 9
            for ch in tok:
                out.append(ch)
                start += 1
                if start > linesize:
                    start = 8
                    out.append("\n\t")
        if n != len(tokens) - 1:
            first = False
            out.append(",")
    return "".join(out)


def render_full(jobs, one_line=False):
    """`qstat -f`: "Job Id: <id>", the attributes, an empty line."""
    size = MAXLINESIZE if one_line else LINESIZE
    out = []
    for jid, attrs in jobs:
        out.append("Job Id: %s\n" % jid)
        for name, value, kind in attrs:
            if kind == RES:
                for res, v in value:
                    if name == "Walltime" and v.startswith("-"):
                        res = "Exceeded"
                    out.append(prt_attr(name, res, v, size) + "\n")
            elif kind == TIME:
                out.append(prt_attr(name, None, time.ctime(int(value)) + "\n", size))
            else:
                out.append(prt_attr(name, None, value, size) + "\n")
        out.append("\n")
    return "".join(out)


HEADER = ("Job ID                    Name             User            Time Use S Queue\n"
          "------------------------- ---------------- --------------- -------- - -----\n")
ROW = "%-26s %-16s %-15s %8s %1s %-15s\n"


def summary_row(jid, attrs):
    """display_job_summary(): the id cut to 29 characters when longer than 23, a long
    name shown as "..." and its tail, the owner without @host, cput, state, queue."""
    if len(jid) > 23:
        jid = jid[:29]
    values = {name: value for name, value, kind in attrs if kind == STR}
    name = values.get("Job_Name", "")
    if len(name) > 16:
        cut = len(name) - 16 + 3
        slash = name.find("/", cut)
        name = ("..." + name[slash if slash >= 0 else cut:])[:16]
    owner = values.get("Job_Owner", "").split("@")[0][:15]
    cput = "0"
    for n, value, kind in attrs:
        if n == "resources_used":
            cput = dict(value).get("cput", "0")[:8]
    return ROW % (jid, name, owner, cput, values.get("job_state", "")[:1],
                  values.get("queue", "").split("@")[0][:15])
