"""Torque qsub: submit a job or a job array (-t) into the stand-in's spool.

The order is Torque's (qsub_functions.c main_func): the script and its #PBS directives,
then the command line (which wins), the checks qsub makes itself (usage text, exit 2),
then the connection to the server (an outage is reported here) and the server's own
checks (`qsub: submit error (...)`, exit pbs_errno & 255). Success prints
`<seq>.<server>`, or `<seq>[].<server>` for an array.
"""

import grp
import os
import re
import sys
import time

from standin import core
from standin.torque_common import (PBSE_BAD_ARRAY_REQ, PBSE_BADDEPEND, PBSE_UNKQUE, QUEUE,
                                   VERSION_COMMIT, QsubError, cfg_or_default, display_id,
                                   parse_ref, refused, submit_error, usage_error, version)
from standin.torque_qsub_options import (ARRAY_DEP_TYPES, collect, directive_lines, job_name_ok,
                                         make_argv, merge, parse_argv, parse_array_request,
                                         parse_depend, parse_execution_time, parse_variable_list)
from standin.torque_resources import resource_list


def qsub(argv):
    try:
        return _qsub(argv)
    except QsubError as e:
        sys.stderr.write(e.message)
        return e.status


def read_script(path):
    """(text, default job name) of the script, or of stdin."""
    if path in (None, "-"):
        data, name = sys.stdin.buffer.read(), "STDIN"
    else:
        try:
            os.stat(path)
        except OSError as e:
            raise QsubError("qsub: script file '%s' cannot be loaded - %s\n"
                            % (path, os.strerror(e.errno)), 1)
        if not os.path.isfile(path):
            raise QsubError("qsub: script not a file\n", 1)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            raise usage_error("qsub: opening script file:")
        name = os.path.basename(path)
        if not job_name_ok(name):
            raise usage_error("qsub: cannot form a valid job name from the script name")
    if b"\r\n" in data:
        raise QsubError("qsub:  script is written in DOS/Windows text format\n", 1)
    return data.decode("utf-8", "surrogateescape"), name


def out_path(given, default, cwd, host):
    """-o/-e as Torque stores it: host:/absolute/path (prepare_path)."""
    if not given:
        return "%s:%s" % (host, os.path.join(cwd, default))
    h, p = given.split(":", 1) if re.match(r"^[^/:]+:", given) else (host, given)
    p = os.path.normpath(os.path.join(cwd, os.path.expanduser(p))) + ("/" if given.endswith("/")
                                                                      else "")
    return "%s:%s" % (h, p)


def resolve_deps(cur, deps, server):
    """[(type, [id...])] -> (rows for the engine, the depend attribute). Every id must
    name a job the server knows: a single job (after*) or an array (*array)."""
    rows, shown = [], []
    for kind, ids in deps:
        names = []
        for ident in ids:
            count = None
            m = re.match(r"^(.*\[\])\[(\d+)\](.*)$", ident)       # 22.tom.com[][5]
            if m:
                ident, count = m.group(1) + m.group(3), int(m.group(2))
            ref = parse_ref(ident, server)
            want = "array" if kind in ARRAY_DEP_TYPES else None
            if ref is not None and want and ref.kind == "job":
                ref = parse_ref("%d[].%s" % (ref.seq, server), server) if ref.server_ok else None
            row = None
            if ref is not None and ref.server_ok and (want or ref.kind != "array") \
                    and (not want or ref.kind == "array"):
                row = cur.execute("SELECT seq, idx, kind FROM jobs WHERE seq=? AND kind=? AND "
                                  "ifnull(idx, -1)=?", (ref.seq, ref.kind, -1 if ref.idx is None
                                                        else ref.idx)).fetchone()
            if row is None:
                raise submit_error(PBSE_BADDEPEND, "Invalid Job Dependency")
            jid = display_id(dict(row), server)
            rows.append({"type": kind, "seq": row["seq"], "idx": row["idx"], "kind": row["kind"],
                         "id": jid, "count": count})
            names.append(jid if want else "%s@%s" % (jid, server))
        shown.append("%s:%s" % (kind, ":".join(names)))
    return rows, ",".join(shown)


def variable_list(o, environ, queue, workdir, host, server, user, home, shell):
    """Variable_List in qsub's order (the published samples): PBS_O_* first, the -v
    variables, PBS_O_WORKDIR/HOST/SERVER, then with -V all of qsub's environment."""
    v = [("PBS_O_QUEUE", queue), ("PBS_O_HOME", environ.get("HOME", home)),
         ("PBS_O_LOGNAME", environ.get("LOGNAME", user)), ("PBS_O_PATH", environ.get("PATH", "")),
         ("PBS_O_MAIL", environ.get("MAIL", "/var/mail/" + user)),
         ("PBS_O_SHELL", environ.get("SHELL", shell))]
    if "LANG" in environ:
        v.append(("PBS_O_LANG", environ["LANG"]))
    if "v" in o:
        v += parse_variable_list(o["v"], environ)
    v += [("PBS_O_WORKDIR", workdir), ("PBS_O_HOST", host), ("PBS_O_SERVER", server)]
    if "d" in o:
        v.append(("PBS_O_INITDIR", o["d"]))
    if o.get("V"):
        v += [(k, x) for k, x in environ.items() if not k.startswith("PBS_O_")]
    return v


def _qsub(argv):
    core.require_env("qsub")
    if argv and argv[0] in ("--version", "--about"):
        sys.stdout.write("Version: %s\nCommit: %s\n" % (version(cfg_or_default()), VERSION_COMMIT))
        return 0
    pairs, rest = parse_argv(argv)
    if len(rest) > 1:
        raise usage_error("index issues")
    script, name = read_script(rest[0] if rest else None)
    environ = dict(os.environ)
    cmdline = collect(pairs)
    prefix = cmdline.get("C", environ.get("PBS_DPREFIX", "#PBS"))
    sources = [collect(parse_argv(make_argv(body))[0]) for body in directive_lines(script, prefix)]
    o = merge(sources + [cmdline])
    name = o.get("N", name)
    deps = parse_depend(o["W"]["depend"]) if "depend" in o["W"] else []
    not_before = parse_execution_time(o["a"]) if "a" in o else None
    cwd = os.getcwd()
    pwd = environ.get("PWD")
    if pwd and os.path.isdir(pwd) and os.path.samefile(pwd, "."):
        cwd = pwd
    workdir = os.path.join(cwd, o["w"]) if "w" in o else cwd

    store = core.client_store("qsub", refused("qsub"))      # connect to the server
    cfg = store.cfg
    server, host = cfg["server_name"], cfg["host"]
    queue = o.get("q", QUEUE).split("@")[0] or QUEUE
    if queue != QUEUE:
        raise submit_error(PBSE_UNKQUE, "Unknown queue MSG=requested queue not found")
    resources, needs = resource_list(o["l"], cfg)
    array = None
    if "t" in o:
        array = parse_array_request(o["t"])
        if array is None:
            raise submit_error(PBSE_BAD_ARRAY_REQ, "Bad Job Array Request")
    uid = os.getuid()
    user, home, shell, gid = core.user_info(uid)
    try:
        group = grp.getgrgid(os.getgid()).gr_name
    except KeyError:
        group = str(os.getgid())
    variables = variable_list(o, environ, queue, workdir, host, server, user, home, shell)
    now = time.time()
    with store.write() as cur:
        dep_rows, depend = resolve_deps(cur, deps, server)
        seq = core.Store.alloc_seq(cur)
        kind = "array" if array else "job"
        spool = os.path.join(store.dir, "spool", "%d.SC" % seq)
        with open(spool, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(script)
        os.chmod(spool, 0o644)
        attrs = {
            "Job_Name": name, "Job_Owner": "%s@%s" % (user, host), "Account_Name": o.get("A"),
            "Checkpoint": o.get("c", "u"), "depend": depend or None,
            "Error_Path": out_path(o.get("e"), "%s.e%d" % (name, seq), workdir, host),
            "Execution_Time": int(not_before) if not_before else None,
            "Join_Path": o.get("j", "n"), "Keep_Files": o.get("k", "n"),
            "Mail_Points": o.get("m", "a"), "Mail_Users": o.get("M"),
            "Output_Path": out_path(o.get("o"), "%s.o%d" % (name, seq), workdir, host),
            "Priority": str(int(o.get("p", "0"))),
            "Rerunable": "False" if o.get("r") == "n" else "True",
            "Resource_List": resources, "Shell_Path_List": o.get("S"), "egroup": group,
            "submit_args": " ".join(argv), "submit_host": host, "init_work_dir": workdir,
            "job_array_request": array[2] if array else None, "ppn": needs["ppn"],
            "nodes": needs["nodes"], "node_exclusive": "True" if o.get("n") else None,
        }
        attrs = {k: v for k, v in attrs.items() if v is not None}
        if deps or o.get("h"):
            phase = "held"
        elif not_before and not_before > now:
            phase = "waiting"
        else:
            phase = "queued"
        job_cwd = os.path.join(cwd, o["d"]) if "d" in o else home
        common = dict(seq=seq, script=spool, submit_dir=workdir, env=variables,
                      cwd=job_cwd if os.path.isdir(job_cwd) else "/", owner=user, uid=uid,
                      gid=os.getgid(), submit_time=now, mtime=now,
                      ncpus=int(cfg.get("slots", 4)) if o.get("n") else needs["cores"],
                      ngpus=needs["gpus"], walltime=needs["walltime"],
                      rerunnable=0 if o.get("r") == "n" else 1)
        rid = core.Store.insert_job(cur, kind=kind, phase=phase, attrs=attrs,
                                    eligible_time=now if phase == "queued" else None,
                                    not_before=not_before, deps=dep_rows or None,
                                    dep_hold=1 if deps else 0, user_hold=1 if o.get("h") else 0,
                                    max_running=array[1] if array else None, **common)
        for i in (array[0] if array else []):
            core.Store.insert_job(cur, kind="sub", idx=i, parent=rid, phase="queued",
                                  attrs="{}", **common)
    if not o.get("z"):
        sys.stdout.write(display_id({"seq": seq, "kind": kind, "idx": None}, server) + "\n")
    return 0
