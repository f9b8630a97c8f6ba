"""qstat -x: Torque's XML (src/cmds/qstat.c display_statjob, create_full_job_xml; MXML.c).

`<?xml version="1.0"?>` on a line, then the whole <Data> element on ONE line (values
may hold raw newlines, e.g. a -V bash function). Element values are escaped as
MXMLSetVal does (& < > " '); other characters, control characters included, are
written as they are. Times are epoch seconds. A resource attribute is an element
holding one element per resource; consecutive resource attributes share the element
of the first (qstat.c keeps RE1 until a plain attribute comes), which never happens
with the server's attribute order. exec_port is never shown.
"""

from standin.torque_view import RES, TIME

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def escape(text):
    return "".join(_ESCAPES.get(c, c) for c in text)


def render_data(jobs):
    """[(job id, [(name, value, kind)])] -> the one-line <Data> element."""
    out = ["<Data>"]
    for jid, attrs in jobs:
        out.append("<Job><Job_Id>%s</Job_Id>" % escape(jid))
        group = None
        for name, value, kind in attrs:
            if name == "exec_port":
                continue
            if kind == RES:
                if group is None:
                    group = name
                    out.append("<%s>" % name)
                out.extend("<%s>%s</%s>" % (r, escape(v), r) for r, v in value)
                continue
            if group is not None:
                out.append("</%s>" % group)
                group = None
            text = str(int(value)) if kind == TIME else value
            out.append("<%s>%s</%s>" % (name, escape(text), name))
        if group is not None:
            out.append("</%s>" % group)
        out.append("</Job>")
    out.append("</Data>")
    return "".join(out)


def render_document(jobs):
    """One `qstat -x` document: the XML declaration line and the <Data> line."""
    return '<?xml version="1.0"?>\n' + render_data(jobs) + "\n"
