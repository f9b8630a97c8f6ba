"""PBS resources (-l): sizes, select chunks, Resource_List; and qsub's error values.

Facts from pbs_resources.7B and req_quejob.c / ecl_verify_values.c (openpbs @ cd7ab5e).
"""

import re

from standin import core
from standin.pbs_common import (PBSE_BADATVAL, PBSE_INVALJOBRESC, PBSE_PLACENOSELECT,
                                PBSE_UNKRESC)

MEM_UNITS = {"b": 1, "w": 8, "kb": 1 << 10, "kw": 8 << 10, "mb": 1 << 20, "mw": 8 << 20,
             "gb": 1 << 30, "gw": 8 << 30, "tb": 1 << 40, "tw": 8 << 40, "pb": 1 << 50}
SIZE_RE = re.compile(r"^(\d+)([kmgtp]?[bw])?$", re.I)
# Resources the stand-in server knows. Chunk-level ones may appear inside select.
CHUNK_RESOURCES = {"ncpus", "mem", "vmem", "mpiprocs", "ompthreads", "ngpus", "host", "vnode",
                   "arch"}
JOB_RESOURCES = {"walltime", "select", "place", "ncpus", "mem", "vmem", "cput", "ngpus",
                 "mpiprocs", "ompthreads", "nodes", "software", "file", "pcput", "pmem", "pvmem",
                 "min_walltime", "max_walltime", "preempt_targets", "nodect", "arch", "host",
                 "vnode"}
PLACE_WORDS = {"free", "pack", "scatter", "vscatter", "excl", "shared", "exclhost"}


def size_bytes(text):
    m = SIZE_RE.match(text.strip())
    if not m:
        return None
    return int(m.group(1)) * MEM_UNITS[(m.group(2) or "b").lower()]


def size_text(nbytes):
    for unit in ("tb", "gb", "mb", "kb"):
        if nbytes and nbytes % MEM_UNITS[unit] == 0:
            return "%d%s" % (nbytes // MEM_UNITS[unit], unit)
    return "%db" % nbytes


class QsubError(Exception):
    def __init__(self, message, status, usage=False):
        super().__init__(message)
        self.message, self.status, self.usage = message, status, usage


def illegal(opt):
    return QsubError("qsub: illegal -%s value\n" % opt, 2, usage=True)


def unknown_resource(name):
    return QsubError("qsub: Unknown resource Resource_List.%s\n" % name, PBSE_UNKRESC % 256)


def bad_value(name):
    return QsubError("qsub: Illegal attribute or resource value Resource_List.%s\n" % name,
                     PBSE_BADATVAL % 256)


def split_outside_quotes(text, sep):
    parts, cur, quote = [], [], None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def unquote(text):
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_l(value, gpus):
    """-l res=val[,res=val...] -> ordered dict. Raises QsubError."""
    out = {}
    for item in split_outside_quotes(value, ","):
        if not item:
            raise illegal("l")
        if "=" not in item:
            raise illegal("l")
        name, val = item.split("=", 1)
        name, val = name.strip(), unquote(val.strip())
        if not name or not val:
            raise illegal("l")
        if name not in JOB_RESOURCES or (name == "ngpus" and gpus <= 0):
            raise unknown_resource(name)
        out[name] = val
    return out


def parse_select(text, gpus):
    """select=[N:]chunk[+[N:]chunk...] -> list of (count, {res: val})."""
    chunks = []
    for part in text.split("+"):
        fields = part.split(":")
        count = 1
        if fields and fields[0].isdigit():
            count = int(fields.pop(0))
        res = {}
        for f in fields:
            if "=" not in f:
                raise illegal("l")
            k, v = f.split("=", 1)
            if k not in CHUNK_RESOURCES or (k == "ngpus" and gpus <= 0):
                raise unknown_resource(k)
            res[k] = v
        if count < 1:
            raise bad_value("select")
        chunks.append((count, res))
    if not chunks:
        raise illegal("l")
    return chunks


def build_resources(req, gpus):
    """The job's Resource_List (sorted pairs) and its engine numbers.

    With select: Resource_List.select as given, place defaults to free. Without it
    (old-style ncpus/mem or nothing): select=1[:ncpus=..][:mem=..], place=pack
    (pbs_resources.7B "Default Placement" and "Resource Specification Conversion").
    ncpus, nodect, mem, ngpus and mpiprocs are the sums over the chunks."""
    rl = {}
    walltime = None
    if "walltime" in req:
        walltime = core.parse_duration(req["walltime"])
        if walltime is None:
            raise bad_value("walltime")
        rl["walltime"] = core.hms(walltime)
    for name in ("mem", "vmem"):
        if name in req and size_bytes(req[name]) is None:
            raise bad_value(name)
    if "place" in req:
        words = [w for w in req["place"].split(":") if not w.startswith("group=")]
        if any(w not in PLACE_WORDS for w in words):
            raise bad_value("place")
    chunk_keys = ("ncpus", "mem", "vmem", "ngpus", "mpiprocs", "ompthreads")
    # req_quejob.c: host-level resources may not sit beside select/place, and place
    # needs select.
    if "select" in req or "place" in req:
        for k in req:
            if k in chunk_keys or k in ("arch", "host", "vnode"):
                raise QsubError('qsub: "-lresource=" cannot be used with "select" or "place", '
                                "resource is: %s\n" % k, PBSE_INVALJOBRESC % 256)
        if "select" not in req:
            raise QsubError('qsub: Cannot have "place" without "select"\n',
                            PBSE_PLACENOSELECT % 256)
    if "select" in req:
        chunks = parse_select(req["select"], gpus)
        rl["select"] = req["select"]
        rl["place"] = req.get("place", "free")
    else:
        items = [(k, req[k]) for k in chunk_keys if k in req]
        chunks = [(1, dict(items))]
        rl["select"] = "1" + "".join(":%s=%s" % kv for kv in items)
        rl["place"] = req.get("place", "pack")
    ncpus = ngpus = nodect = mem = 0
    mem_given = gpus_given = False
    mpiprocs = None
    for count, res in chunks:
        nodect += count
        try:
            ncpus += count * int(res.get("ncpus", "1"))
            ngpus += count * int(res.get("ngpus", "0"))
            if "mpiprocs" in res:
                mpiprocs = (mpiprocs or 0) + count * int(res["mpiprocs"])
        except ValueError:
            raise bad_value("select")
        gpus_given = gpus_given or "ngpus" in res
        if "mem" in res:
            b = size_bytes(res["mem"])
            if b is None:
                raise bad_value("mem")
            mem += count * b
            mem_given = True
    rl["ncpus"] = str(ncpus)
    rl["nodect"] = str(nodect)
    if mem_given:
        single = len(chunks) == 1 and chunks[0][0] == 1
        rl["mem"] = chunks[0][1]["mem"] if single else size_text(mem)
    if gpus_given:
        rl["ngpus"] = str(ngpus)
    if mpiprocs is not None:
        rl["mpiprocs"] = str(mpiprocs)
    for k, v in req.items():        # job-wide resources given as such (vmem, cput, ...)
        if k not in rl and k not in ("select", "place", "ncpus", "mem", "ngpus", "mpiprocs"):
            rl[k] = v
    chunk_list = [{"count": n, "ncpus": int(r.get("ncpus", "1")), "mem": r.get("mem"),
                   "ngpus": int(r.get("ngpus", "0")),
                   "mpiprocs": int(r["mpiprocs"]) if "mpiprocs" in r else None}
                  for n, r in chunks]
    return sorted(rl.items()), {"ncpus": ncpus, "ngpus": ngpus, "walltime": walltime,
                                "chunks": chunk_list}
