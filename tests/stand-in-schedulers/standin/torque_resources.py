"""Torque resources (-l): the names the server knows, sizes, times, the nodes spec, and
the Resource_List a job shows.

Facts from Torque 6.1.3.h5: src/server/resc_def_all.c (names), src/lib/Libattr/
attr_fn_time.c time_str_to_seconds and attr_fn_size.c (values), src/server/
req_quejob.c and reply_send.c reply_badattr (`Unknown resource type  Resource_List.x`,
`Illegal attribute or resource value for Resource_List.x`), src/server/svr_jobfunc.c
chk_svr_resc_limit (`cannot locate feasible nodes ...`), resmom get_num_nodes_ppn.
The stand-in has one execution host with `slots` cores and `gpus` GPUs.
"""

import re

from standin.torque_common import (PBSE_BADATVAL, PBSE_EXCQRESC, PBSE_UNKRESC, submit_error,
                                   usage_error)

# resc_def_all.c, plus the nodes family
KNOWN = set("""arch cpupercent cput file mem pmem ncpus vmem pvmem nice pcput walltime nodemask
software taskspn gpus mics procs size advres deadline depend ddisk dmem epilogue feature flags
gattr geometry gmetric gres hostlist image jgroup jobflags latency loglevel minprocspeed
minpreempttime minwclimit naccesspolicy nallocpolicy nodeset opsys os partition pref
procs_bitmap prologue qos queuejob reqattr retrycount retrycc rmtype select sid signal stagein
spriority subnode subnode_list taskdistpolicy template termsig termtime tid tpn trig trl var
vcores wcrequeue cpuclock energy_used maxmem nodes neednodes nodect host other""".split())
TIME_RESOURCES = {"walltime", "cput", "pcput", "minwclimit"}
SIZE_RESOURCES = {"mem", "pmem", "vmem", "pvmem", "file", "dmem", "ddisk", "maxmem"}
NUMBER_RESOURCES = {"ncpus", "procs", "nice", "gpus", "mics", "size"}
SIZE_RE = re.compile(r"^(\d+)([kmgtp]?)([bw]?)$", re.I)
PBS_MAX_TIME = 2 ** 31 - 1
NO_FEASIBLE_NODES = ("cannot locate feasible nodes (nodes file is empty, all systems are busy, "
                     "or no nodes have the requested feature)")
EXCEEDS_SYSTEM = ("cannot locate feasible nodes (nodes file is empty or requested nodes exceed "
                  "system)")


def split_list(text):
    """a=b,c=d (commas inside quotes kept) -> ['a=b', 'c=d']"""
    parts, cur, quote = [], [], None
    for ch in text:
        if quote:
            cur.append(ch)
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch == ",":
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def parse_l(value):
    """qsub's own check of -l (add_verify_resources): [(name, value)] in order."""
    if ",procs=" in value and "nodes=" in value:
        raise usage_error("qsub: illegal -l value")
    out = []
    for item in split_list(value):
        name, eq, val = item.partition("=")
        name, val = name.strip(), val.strip()
        if len(val) >= 2 and val[0] == val[-1] and val[0] in "'\"":
            val = val[1:-1]
        if not name or not eq or not val:
            raise usage_error("qsub: illegal -l value")
        out.append((name, val))
    return out


def time_seconds(text):
    """[[[DD:]HH:]MM:]SS[.mmm] -> seconds (rounded), or None (time_str_to_seconds)."""
    m = re.match(r"^([\d:]*)(?:\.(\d*))?$", text)
    if not m or not m.group(1) or m.group(1).count(":") > 3 or "::" in m.group(1) \
            or m.group(1).endswith(":"):
        return None
    fields = [int(f or 0) for f in m.group(1).split(":")]
    days = fields.pop(0) if len(fields) == 4 else 0
    total = 0
    for f in fields:
        total = total * 60 + f
    total += days * 86400
    if int(((m.group(2) or "") + "000")[:3]) >= 500:
        total += 1
    return total if total <= PBS_MAX_TIME else None


def hms(seconds):
    seconds = int(seconds)
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    return "%s%02d:%02d:%02d" % (sign, seconds // 3600, seconds // 60 % 60, seconds % 60)


def size_text(text):
    """4gb, 4GB, 4G -> 4gb; 1024M -> 1024mb; 100 -> 100b; None if malformed."""
    m = SIZE_RE.match(text)
    if not m:
        return None
    return "%d%s%s" % (int(m.group(1)), m.group(2).lower(), (m.group(3) or "b").lower())


def parse_nodes(spec, host):
    """nodes=N[:ppn=M][:gpus=G][:feature][+...] -> [(count, ppn, gpus, [features])], or
    None if malformed. A host name (ours) may stand for a count of 1."""
    out = []
    for part in spec.split("+"):
        fields = part.split(":")
        head = fields.pop(0)
        if head.isdigit():
            count, features = int(head), []
        elif re.match(r"^[A-Za-z][\w.-]*$", head):
            count, features = 1, ([] if head == host else [head])
        else:
            return None
        ppn, gpus = 1, 0
        for f in fields:
            key, eq, val = f.partition("=")
            if key in ("ppn", "gpus") and eq:
                if not val.isdigit():
                    return None
                if key == "ppn":
                    ppn = int(val)
                else:
                    gpus = int(val)
            elif re.match(r"^[A-Za-z][\w.-]*$", f):
                features.append(f)
            else:
                return None
        if count < 1 or ppn < 1:
            return None
        out.append((count, ppn, gpus, features))
    return out


def bad_value(name):
    return submit_error(PBSE_BADATVAL, "Illegal attribute or resource value for "
                        "Resource_List.%s" % name)


def resource_list(req, cfg):
    """The server's view of -l: (Resource_List [(name, value)], needs). req is
    [(name, value)] with later entries overriding earlier ones of the same name.
    needs: cores, gpus, nodes, ppn, walltime (seconds or None)."""
    slots, gpus_have = int(cfg.get("slots", 4)), int(cfg.get("gpus", 0))
    values = {}
    for name, val in req:
        if name not in KNOWN or name in ("neednodes", "nodect"):
            raise submit_error(PBSE_UNKRESC, "Unknown resource type  Resource_List.%s" % name)
        if name in TIME_RESOURCES:
            secs = time_seconds(val)
            if secs is None:
                raise bad_value(name)
            val = hms(secs)
        elif name in SIZE_RESOURCES:
            val = size_text(val)
            if val is None:
                raise bad_value(name)
        elif name in NUMBER_RESOURCES and not re.match(r"^-?\d+$", val):
            raise bad_value(name)
        values[name] = val
    needs = {"cores": 1, "gpus": 0, "nodes": 1, "ppn": 1,
             "walltime": time_seconds(values["walltime"]) if "walltime" in values else None}
    if "nodes" in values:
        chunks = parse_nodes(values["nodes"], cfg.get("host", ""))
        if chunks is None:
            raise bad_value("nodes")
        nodes = sum(c for c, _, _, _ in chunks)
        if (nodes > 1 or any(p > slots or g > gpus_have or f for _, p, g, f in chunks)):
            raise submit_error(PBSE_EXCQRESC, "Job exceeds queue resource limits MSG=%s"
                               % NO_FEASIBLE_NODES)
        needs.update(nodes=nodes, ppn=chunks[0][1], cores=sum(c * p for c, p, _, _ in chunks),
                     gpus=sum(c * g for c, _, g, _ in chunks))
    else:
        for name in ("procs", "ncpus"):
            if name in values:
                needs["cores"] = needs["ppn"] = max(1, int(values[name]))
                break
    if "gpus" in values:
        needs["gpus"] = max(needs["gpus"], int(values["gpus"]))
    if needs["cores"] > slots or needs["gpus"] > gpus_have:
        raise submit_error(PBSE_EXCQRESC, "Job exceeds queue resource limits MSG=%s"
                           % (EXCEEDS_SYSTEM if "nodes" not in values else NO_FEASIBLE_NODES))
    order = [name for name, _ in req]
    pairs = [(n, values[n]) for i, n in enumerate(order) if n not in order[:i]]
    if "nodes" not in values:
        pairs.append(("nodes", "1"))            # the queue's resources_default (as samples)
    pairs.append(("nodect", str(needs["nodes"])))
    return pairs, needs
