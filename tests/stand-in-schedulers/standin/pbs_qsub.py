"""PBS qsub: submit a job or a job array into the stand-in's spool.

The options and directives are parsed by pbs_qsub_options, the resources by
pbs_resources; this module builds the job's attributes and Variable_List (qsub.c
job_env_basic, set_job_env) and inserts the rows in one transaction.
"""

import os
import re
import shlex
import sys
import time

from standin import core
from standin.pbs_common import (PBS_MAXJOBNAME, PBSE_UNKJOBID, PBSE_UNKQUE, QSUB_USAGE, QUEUE,
                                _cfg_or_default, display_id, pbs_version, refused)
from standin.pbs_qsub_options import (ARRAY_RE, DEP_TYPES, OPTION_CHECKS, QSUB_OPTS,
                                      collect_opts, directive_lines, expand_varlist,
                                      getopt_posix, parse_depend, parse_execution_time)
from standin.pbs_resources import QsubError, build_resources, illegal

def qsub(argv):
    try:
        return _qsub(argv)
    except QsubError as e:
        sys.stderr.write(e.message)
        if e.usage:
            sys.stderr.write(QSUB_USAGE)
        return e.status


def _qsub(argv):
    core.require_env("qsub")
    if argv == ["--version"]:
        print("pbs_version = %s" % pbs_version(_cfg_or_default()))
        return 0
    store = core.client_store("qsub", refused("qsub"))
    cfg = store.cfg
    server, host, gpus = cfg["server_name"], cfg["host"], int(cfg.get("gpus", 0))
    pairs, rest = getopt_posix(argv, QSUB_OPTS, "qsub")
    executable = None
    consumed = len(argv) - len(rest)
    if consumed > 0 and argv[consumed - 1] == "--" and rest:
        executable = rest
    elif consumed > 0 and argv[consumed - 1] == "--":
        raise QsubError("", 2, usage=True)
    cmd = collect_opts(pairs, gpus)
    if cmd.get("I"):
        raise QsubError("qsub: the stand-in does not run interactive jobs\n", 2)

    # The script: a file, stdin, or "-- executable args".
    environ = dict(os.environ)
    script_text = None
    script_name = None
    if executable is None:
        if len(rest) > 1:
            raise QsubError("", 2, usage=True)
        if rest:
            path = rest[0]
            try:
                os.stat(path)
            except OSError as e:
                raise QsubError("qsub: script file:: %s\n" % os.strerror(e.errno), 1)
            if not os.path.isfile(path):
                raise QsubError("qsub: script not a file\n", 1)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError as e:
                raise QsubError("qsub: opening script file:: %s\n" % os.strerror(e.errno), 8)
            script_name = os.path.basename(path)
        else:
            data = sys.stdin.buffer.read()
        if b"\r\n" in data:
            raise QsubError("qsub: script contains cr, lf\n", 1)
        script_text = data.decode("utf-8", "surrogateescape")

    # Directives (command-line options win).
    merged = {"l": {}, "W": {}}
    prefix = cmd.get("C", environ.get("PBS_DPREFIX", "#PBS"))
    if script_text is not None and prefix:
        for body in directive_lines(script_text, prefix):
            try:
                tokens = shlex.split(body, comments=True)
                dpairs, drest = getopt_posix(tokens, QSUB_OPTS, "qsub")
                if drest:
                    raise illegal(tokens[0].lstrip("-")[:1] or "?")
                d = collect_opts(dpairs, gpus)
            except QsubError as e:
                if not e.usage:
                    raise           # a server-side error (unknown resource, ...)
                raise QsubError(e.message + "qsub: directive error: %s \n" % body.strip(), 1)
            except ValueError:
                raise QsubError("qsub: directive error: %s \n" % body.strip(), 1)
            for k, v in d.items():
                if k in ("l", "W"):
                    merged[k].update(v)
                else:
                    merged[k] = v
    for k, v in cmd.items():
        if k in ("l", "W"):
            merged[k].update(v)
        else:
            merged[k] = v
    o = merged

    # Validation of single options (their syntax was checked while parsing).
    queue = o.get("q", QUEUE)
    if queue.split("@")[0] not in (QUEUE, ""):
        raise QsubError("qsub: Unknown queue\n", PBSE_UNKQUE % 256)
    join = o.get("j", "n")
    rerun = o.get("r", "y")
    name = o.get("N") or (script_name if script_name else "STDIN")
    # ck_job_name.c (checked for the script's name too): letters, digits, . _ + -
    if len(name) > PBS_MAXJOBNAME:
        raise QsubError("qsub: Job name is too long \n", 2)
    if not OPTION_CHECKS["N"](name):
        raise illegal("N")
    priority = o.get("p", "0")
    array = None
    if "J" in o:
        m = ARRAY_RE.match(o["J"])
        lo, hi, step, maxrun = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1), m.group(4)
        array = (lo, hi, step, int(maxrun) if maxrun else None)
    not_before = parse_execution_time(o["a"]) if "a" in o else None
    resources, need = build_resources(o["l"], gpus)
    W = dict(o["W"])
    block = W.pop("block", "false").lower() == "true"
    deps = parse_depend(W.pop("depend"), server) if "depend" in W else []
    varlist = expand_varlist(o.get("v", ""), environ)

    # Variable_List as qsub builds it (qsub.c job_env_basic, set_job_env).
    cwd = os.getcwd()
    pwd_env = environ.get("PWD")
    if pwd_env:
        try:
            if os.path.samefile(pwd_env, "."):
                cwd = pwd_env
        except OSError:
            pass
    uid = os.getuid()
    user, home, shell, gid = core.user_info(uid)
    basic = [("PBS_O_HOME", environ.get("HOME", home))]
    if "LANG" in environ:
        basic.append(("PBS_O_LANG", environ["LANG"]))
    basic.append(("PBS_O_LOGNAME", environ.get("LOGNAME", user)))
    basic.append(("PBS_O_PATH", environ.get("PATH", "")))
    basic.append(("PBS_O_MAIL", environ.get("MAIL", "/var/mail/" + user)))
    basic.append(("PBS_O_SHELL", environ.get("SHELL", shell)))
    if "TZ" in environ:
        basic.append(("PBS_O_TZ", environ["TZ"]))
    basic.append(("PBS_O_WORKDIR", cwd))
    basic.append(("PBS_O_SYSTEM", os.uname().sysname))
    variables = basic + varlist
    if o.get("V"):
        skip = {"PBS_JOBCOOKIE", "PBS_INTERACTIVE_COOKIE"}
        variables += [(k, v) for k, v in environ.items()
                      if not k.startswith("PBS_O_") and k not in skip and "=" not in k]
    variables += [("PBS_O_QUEUE", QUEUE), ("PBS_O_HOST", host)]

    submit_args = " ".join(argv)
    now = time.time()
    with store.write() as cur:
        # Dependencies must name known jobs.
        dep_rows = []
        for d in deps:
            ref = d["ref"]
            row = None
            if ref.server_ok:
                row = cur.execute("SELECT seq, idx, kind FROM jobs WHERE seq=? AND kind=? AND "
                                  "ifnull(idx, -1)=?", (ref.seq, ref.kind,
                                                        -1 if ref.lo is None else ref.lo)).fetchone()
            if row is None:
                raise QsubError("qsub: Unknown Job Id %s\n" % ref.shown, PBSE_UNKJOBID % 256)
            dep_rows.append({"type": d["type"], "seq": row["seq"], "idx": row["idx"],
                             "kind": row["kind"],
                             "id": display_id(dict(row), server)})
        seq = core.Store.alloc_seq(cur)
        kind = "array" if array else "job"
        jid = display_id({"seq": seq, "kind": kind, "idx": None}, server)
        spool = os.path.join(store.dir, "spool", "%d.SC" % seq)
        if script_text is not None:
            with open(spool, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(script_text)
            os.chmod(spool, 0o644)

        def out_path(opt, letter):
            default = "%s.%s%d" % (name, letter, seq) + (".^array_index^" if array else "")
            given = o.get(opt)
            if not given:
                return "%s:%s" % (host, os.path.join(cwd, default))
            h, p = (given.split(":", 1) if re.match(r"^[^/:]+:", given) else (host, given))
            p = os.path.join(cwd, os.path.expanduser(p))
            if given.endswith("/") or os.path.isdir(p):
                p = os.path.join(p, default)
            return "%s:%s" % (h, os.path.normpath(p) if p != "/dev/null" else p)

        attrs = {
            "Job_Name": name,
            "Job_Owner": "%s@%s" % (user, host),
            "Account_Name": o.get("A"),
            "Checkpoint": o.get("c", "u"),
            "depend": ",".join(
                "%s:%s" % (t, ":".join("%s@%s" % (d["id"], server) for d in dep_rows
                                       if d["type"] == t))
                for t in DEP_TYPES if any(d["type"] == t for d in dep_rows)) or None,
            "Error_Path": out_path("e", "e"),
            "Execution_Time": int(not_before) if not_before else None,
            "Join_Path": join,
            "Keep_Files": o.get("k", "n"),
            "Mail_Points": o.get("m", "a"),
            "Mail_Users": o.get("M"),
            "Output_Path": out_path("o", "o"),
            "Priority": str(int(priority)),
            "Rerunable": "True" if (rerun == "y" or array) else "False",
            "Resource_List": resources,
            "Shell_Path_List": o.get("S"),
            "User_List": o.get("u"),
            "Submit_arguments": submit_args,
            "project": o.get("P", "_pbs_project_default"),
            "Submit_Host": host,
            "chunks": need["chunks"],
        }
        if array:
            lo, hi, step, maxrun = array
            attrs["array_indices_submitted"] = "%d-%d" % (lo, hi) + (":%d" % step if step > 1 else "")
            attrs["max_run_subjobs"] = str(maxrun) if maxrun else None
        attrs = {k: v for k, v in attrs.items() if v is not None}
        if deps:
            phase = "held"
        elif o.get("h"):
            phase = "held"
        elif not_before and not_before > now:
            phase = "waiting"
        else:
            phase = "queued"
        eligible = now if phase == "queued" else None
        common = dict(seq=seq, script=spool if script_text is not None else None,
                      argv=executable, submit_dir=cwd, env=variables,
                      cwd=home if os.path.isdir(home) else "/", owner=user, uid=uid, gid=os.getgid(),
                      submit_time=now, mtime=now, ncpus=need["ncpus"], ngpus=need["ngpus"],
                      walltime=need["walltime"], rerunnable=1 if attrs["Rerunable"] == "True" else 0)
        rid = core.Store.insert_job(cur, kind=kind, phase=phase, attrs=attrs,
                                    eligible_time=eligible, not_before=not_before,
                                    deps=dep_rows or None, dep_hold=1 if deps else 0,
                                    user_hold=1 if o.get("h") else 0,
                                    max_running=array[3] if array else None, **common)
        if array:
            lo, hi, step, _ = array
            for i in range(lo, hi + 1, step):
                core.Store.insert_job(cur, kind="sub", idx=i, parent=rid, phase="queued",
                                      attrs="{}", **common)
    if not o.get("z"):
        sys.stdout.write(jid + "\n")
        sys.stdout.flush()
    if block:
        return block_until_done(store, rid)
    return 0


def block_until_done(store, rid):
    """-W block=true: wait for the job, exit with its exit status (3 if it never ran)."""
    while True:
        row = store.db.execute("SELECT phase, exit_status, start_time FROM jobs WHERE rid=?",
                               (rid,)).fetchone()
        if row is None:
            return 3
        if row["phase"] == "done":
            if row["exit_status"] is None or not row["start_time"]:
                return 3
            return row["exit_status"] & 0xFF
        time.sleep(0.1)
