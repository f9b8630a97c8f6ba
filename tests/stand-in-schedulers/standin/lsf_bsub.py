"""LSF bsub: submit a job or a job array into the stand-in's spool.

`bsub [options] < script` reads the script on stdin with its #BSUB lines
(lsf_bsub_options); `bsub [options] command [args]` runs the command (joined by blanks,
run by /bin/sh). The order is bsub's: options (the command line wins over the script),
then mbatchd (an outage is reported here), then mbatchd's checks. Success prints
`Job <N> is submitted to default queue <normal>.` (`to queue <normal>.` with -q), exit 0.
A refusal prints `<reason>. Job not submitted.` on stderr, exit 255.
"""

import os
import sys
import time

from standin import core
from standin.lsf_bsub_options import (directive_words, environment, gpu_request, job_name,
                                      merge, parse, resource_requirements, run_limit, slots)
from standin.lsf_common import (QUEUE, LsfError, cfg_value, not_submitted, refused,
                                unsupported)
from standin.lsf_depend import parse as parse_depend, resolve as resolve_depend


def bsub(argv):
    try:
        return _bsub(argv)
    except LsfError as e:
        sys.stderr.write(e.message)
        return e.status


def command_text(script):
    """What bjobs shows as the command (and the name of a job without -J): the script's
    lines joined by '; '."""
    lines = [line.rstrip() for line in script.split("\n") if line.strip()]
    return "; ".join(lines)[:4094]


def _bsub(argv):
    core.require_env("bsub")
    cmd_opts, command = parse(argv, True)
    if command:
        script, script_opts = " ".join(command) + "\n", {}
    else:
        script = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
        script_opts = parse(directive_words(script), False)[0]
    o = merge(script_opts, cmd_opts)
    environ = dict(os.environ)
    cwd = os.getcwd()
    pwd = environ.get("PWD")
    if pwd and os.path.isdir(pwd) and os.path.samefile(pwd, "."):
        cwd = pwd
    tree = parse_depend(o["-w"]) if "-w" in o else None
    n = slots(o["-n"]) if "-n" in o else 1
    minutes = run_limit(o["-W"]) if "-W" in o else None
    if "-s" in o or "-L" in o:
        raise unsupported("bsub", "-s" if "-s" in o else "-L")

    if not any(line.strip() and not line.lstrip().startswith("#")
               for line in script.split("\n")):
        raise not_submitted("No command is specified in the script file")
    store = core.client_store("bsub", refused("Connection refused by server. "
                                              "Job not submitted.\n"))
    cfg = store.cfg
    queue = o.get("-q", QUEUE)
    if queue != QUEUE:
        raise LsfError("No such queue. Job not submitted.\n")
    name, indices, spec, limit = job_name(o["-J"], int(cfg_value(cfg, "max_job_array_size"))) \
        if "-J" in o else (command_text(script), None, None, None)
    resreq = resource_requirements(o.get("-R", []))
    host_slots = int(cfg.get("slots", 4))
    # span[ptile=P] with P < N asks for more than the one host: it pends for ever.
    unplaceable = bool(resreq["ptile"]) and resreq["ptile"] < n
    if n > host_slots and not unplaceable:
        raise not_submitted("Too many processors requested")
    ngpus = 0
    if "-gpu" in o:
        if int(cfg.get("gpus", 0)) <= 0:
            raise not_submitted("No resource defined")
        num, per_task = gpu_request(o["-gpu"])
        ngpus = num * n if per_task else num
    env = environment(o["-env"], environ) if "-env" in o else sorted(environ.items())
    uid, gid = os.getuid(), os.getgid()
    user = core.user_info(uid)[0]
    now = time.time()
    with store.write() as cur:
        if tree is not None:
            resolve_depend(cur, tree, user)
        seq = core.Store.alloc_seq(cur)
        spool = os.path.join(store.dir, "spool", "%d.job" % seq)
        with open(spool, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(script)
        os.chmod(spool, 0o755)
        attrs = {
            "name": name, "index_spec": spec, "last_index": indices[-1] if indices else None,
            "queue": queue, "queue_given": "-q" in o, "project": o.get("-P", "default"),
            "command": command_text(script), "from_host": cfg["host"], "slots": n,
            "out": o.get("-o"), "out_form": o.get("-o_form"), "err": o.get("-e"),
            "err_form": o.get("-e_form"), "cwd_spec": o.get("-cwd"), "mem": resreq["mem"],
            "depend": o["-w"].strip() if tree is not None else None, "depend_tree": tree,
            "unplaceable": unplaceable, "hold": bool(o.get("-H")),
            "runlimit_min": minutes, "mail_user": o.get("-u"),
        }
        attrs = {k: v for k, v in attrs.items() if v is not None}
        phase = "held" if tree is not None or o.get("-H") else "queued"
        common = dict(seq=seq, script=spool, submit_dir=cwd, env=env, cwd=cwd, owner=user,
                      uid=uid, gid=gid, submit_time=now, mtime=now,
                      ncpus=host_slots + 1 if unplaceable else (host_slots if o.get("-x") else n),
                      ngpus=ngpus,
                      walltime=minutes * 60 if minutes else None,
                      rerunnable=1 if o.get("-r_form") == "-r" else 0)
        kind = "array" if indices else "job"
        rid = core.Store.insert_job(cur, kind=kind, phase=phase, attrs=attrs,
                                    eligible_time=now if phase == "queued" else None,
                                    dep_hold=1 if tree is not None else 0,
                                    user_hold=1 if o.get("-H") else 0,
                                    max_running=limit, **common)
        for i in indices or []:
            core.Store.insert_job(cur, kind="sub", idx=i, parent=rid, phase="queued",
                                  attrs="{}", **common)
    if "-q" in o:
        sys.stdout.write("Job <%d> is submitted to queue <%s>.\n" % (seq, queue))
    else:
        sys.stdout.write("Job <%d> is submitted to default queue <%s>.\n" % (seq, queue))
    return 0
