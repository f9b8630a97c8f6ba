"""flux submit and flux batch: build each job request as flux-core's CLI builds its
jobspec, hand it to the instance (flux_ingest), print each job's id in F58, one a line.

The order is flux's: options (argparse: usage error, exit 2), the jobspec (CLIMain:
`flux-submit: ERROR: <text>`, exit 1), the connection to the broker (the outage is
reported here), the urgency, then the instance's own checks. A job the instance refuses
gets `[Errno N] <text>` on stderr from flux submit (`cc=I: ` before it with --cc; the
other copies are still submitted, exit 1) and `flux-batch: ERROR: <text>` from batch.

Sources (flux-core v0.65.0): src/bindings/python/flux/cli/base.py (SubmitBaseCmd
init_jobspec, SubmitBulkCmd --cc/--bcc and Xcmd's `{cc}` substitution, submit_cb,
MiniCmd.submit_async), flux/cli/batch.py (script, directives, `--wrap`, the default
output `flux-{{id}}.out`, `Number of slots to allocate must be specified`),
flux/job/Jobspec.py (from_command and from_batch_command checks).
"""

import os
import sys

from standin import core
from standin.flux_common import (FluxError, client, error, parse_idset, write_err,
                                 write_out, f58)
from standin.flux_ingest import Refused, ingest
from standin.flux_submit_options import (Parser, dependency_uri, directives, environment,
                                         time_limit)

MUTABLE = ("queue", "bank", "ntasks", "nodes", "cores_per_task", "gpus_per_task",
           "gpus_per_node", "time_limit", "env", "urgency", "setopt", "setattr", "job_name",
           "output", "error", "cc", "bcc", "dependency", "cwd", "flags", "signal",
           "requires")


def run(cmd, func, argv):
    try:
        return func(argv)
    except FluxError as e:
        write_err(e.message)
        return e.status


def submit(argv):
    return run("submit", _submit, argv)


def batch(argv):
    return run("batch", _batch, argv)


def _format(value, cc):
    """Xcmd: str.format(cc=I) with mustache `{{...}}` kept."""
    keep = value.replace("{{", "=stache=").replace("}}", "=/stache=")
    return keep.format(cc=cc).replace("=stache=", "{{").replace("=/stache=", "}}")


def substitute(o, command, cc):
    """One --cc copy: `{cc}` replaced in the mutable options and the command."""
    out = dict(o)
    try:
        words = [_format(w, cc) for w in command]
    except (IndexError, KeyError):
        bad = next(w for w in command if _fails(w, cc))
        raise error("submit", "Invalid replacement string in command: '%s'" % bad)
    except ValueError as e:
        raise error("submit", str(e))
    for key in MUTABLE:
        value = o.get(key)
        try:
            if isinstance(value, str):
                out[key] = _format(value, cc)
            elif isinstance(value, list):
                out[key] = [_format(v, cc) for v in value]
        except KeyError as e:
            raise error("submit", "Replacement key %s not found in '--%s=%s'"
                        % (e, key.replace("_", "-"), value))
        except IndexError:
            raise error("submit", "Invalid replacement index in --%s=%s'"
                        % (key.replace("_", "-"), value))
        except ValueError as e:
            raise error("submit", str(e))
    return out, words


def _fails(word, cc):
    try:
        _format(word, cc)
        return False
    except (IndexError, KeyError, ValueError):
        return True


def _int(cmd, o, key):
    value = o.get(key)
    if not value:
        return None if value is None else value
    try:
        return int(value)
    except ValueError:
        raise error(cmd, "--%s: invalid int value '%s'" % (key.replace("_", "-"), value))


def counts(cmd, ntasks, cores, gpus, nodes, exclusive):
    """JobspecV1.from_command's checks."""
    if ntasks < 1:
        raise error(cmd, "task count must be a integer >= 1")
    if cores < 1:
        raise error(cmd, "cores per task must be an integer >= 1")
    if gpus is not None and gpus < 0:
        raise error(cmd, "gpus per task must be an integer >= 0")
    if nodes is not None:
        if nodes < 1:
            raise error(cmd, "node count must be an integer >= 1 (if set)")
        if nodes > ntasks:
            raise error(cmd, "node count must not be greater than task count")
    elif exclusive:
        raise error(cmd, "exclusive can only be set with a node count")


def request(cmd, o, command, environ, script=None):
    """A job request from the options (after `{cc}`), or FluxError."""
    req = {"batch": cmd == "batch", "command": command, "script": script, "cc": None}
    if cmd == "submit":
        ntasks, nodes = _int(cmd, o, "ntasks"), _int(cmd, o, "nodes")
        cpt, gpt = _int(cmd, o, "cores_per_task"), _int(cmd, o, "gpus_per_task")
        gpn, exclusive = _int(cmd, o, "gpus_per_node"), bool(o.get("exclusive"))
        if gpn and not nodes:
            raise error(cmd, "--gpus-per-node requires --nodes")
        if gpn is not None:
            if ntasks is not None or cpt is not None or gpt:
                raise error(cmd, "Per-resource options can't be used with per-task "
                                 "options. (See --help for details)")
            if not nodes or nodes < 1:
                raise error(cmd, "node count must be an integer >= 1 (if set)")
            ntasks, cpt, gpt, exclusive = nodes, 1, None, True
            ngpus = gpn * nodes
        else:
            if not ntasks and nodes:
                ntasks, exclusive = nodes, True
            ntasks, cpt = ntasks or 1, cpt or 1
            counts(cmd, ntasks, cpt, gpt, nodes, exclusive)
            ngpus = ntasks * (gpt or 0)
        req.update(ntasks=ntasks, ncpus=ntasks * cpt, ngpus=ngpus, nodes=nodes,
                   exclusive=exclusive, name=o.get("job_name") or os.path.basename(command[0]))
    else:
        nslots, nodes, exclusive = o.get("nslots"), o.get("nodes"), bool(o.get("exclusive"))
        if not nslots:
            if not nodes:
                raise error(cmd, "Number of slots to allocate must be specified")
            nslots, exclusive = nodes, True
        if not req["script"].startswith("#!"):
            raise error(cmd, "%s does not appear to start with '#!'" % o["job_name"])
        cps, gps = o.get("cores_per_slot", 1), o.get("gpus_per_slot")
        counts(cmd, nslots, cps, gps, nodes, exclusive)
        req.update(ntasks=nslots, ncpus=nslots * cps, ngpus=nslots * (gps or 0), nodes=nodes,
                   exclusive=exclusive, name=o["job_name"])
    req["duration"] = time_limit(cmd, o["time_limit"]) if o.get("time_limit") else 0.0
    req.update(queue=o.get("queue"), bank=o.get("bank"), cwd=o.get("cwd") or os.getcwd(),
               output=o.get("output"), error=o.get("error"))
    req["env"] = environment(cmd, o.get("env"), environ)
    req["dependencies"] = [dependency_uri(cmd, d) for d in o.get("dependency") or []]
    for flags in o.get("flags") or []:
        for flag in flags.split(","):
            if flag not in ("debug", "waitable", "novalidate"):
                raise error(cmd, "--flags: Unknown flag " + flag)
    return req


def urgency(cmd, text):
    value = {"default": "16", "hold": "0", "expedite": "31"}.get(text, text)
    try:
        return int(value)
    except ValueError:
        raise error(cmd, "invalid literal for int() with base 10: '%s'" % value)


def enter(store, req):
    with store.write() as cur:
        return ingest(cur, store, req)


def _submit(argv):
    core.require_env("flux")
    parser = Parser("submit")
    words, command = parser.split(argv)
    o = parser.parse(words)
    o.setdefault("urgency", "16")
    if not command:
        raise error("submit", "job command and arguments are missing")
    if o.get("cc") and o.get("bcc"):
        raise error("submit", "specify only one of --cc or --bcc")
    copies = [None]
    if o.get("cc") or o.get("bcc"):
        copies = parse_idset(o.get("cc") or o.get("bcc"))
        if copies is None:
            raise error("submit", "IDset(): Invalid argument: %s" % (o.get("cc") or o.get("bcc")))
    reqs = []
    for cc in copies:
        co, words_cc = substitute(o, command, cc) if cc is not None else (o, list(command))
        if words_cc and words_cc[0] == "--":
            words_cc = words_cc[1:]
        if not words_cc:
            raise error("submit", "command array cannot have length of zero")
        req = request("submit", co, words_cc, os.environ)
        if cc is not None and o.get("cc"):
            req["env"]["FLUX_JOB_CC"] = str(cc)
        req["cc"] = cc
        reqs.append((cc, co, req))
    store = client("submit")
    out, failed = [], False
    for cc, co, req in reqs:
        req["urgency"] = urgency("submit", co["urgency"])
        try:
            fluid = enter(store, req)
        except Refused as e:
            write_out("".join(out))
            out = []
            write_err("%s[Errno %d] %s\n" % ("cc=%d: " % cc if cc is not None else "",
                                              e.errnum, e.text))
            failed = True
            continue
        if not co.get("quiet"):
            out.append(f58(fluid) + "\n")
    write_out("".join(out))
    return 1 if failed else 0


def read_script(o, script_args, wrap):
    """process_script: (script text, its name as the job name sees it)."""
    if script_args and script_args[0] == "--":
        script_args.pop(0)
    if script_args and wrap:
        return " ".join(script_args) + "\n", script_args[0]
    name = script_args[0] if script_args else "stdin"
    try:
        if script_args:
            with open(script_args[0], "rb") as f:
                data = f.read()
        else:
            data = sys.stdin.buffer.read()
        return data.decode("utf-8"), name
    except OSError as e:
        raise error("batch", "%s: '%s'" % (e.strerror, e.filename))
    except UnicodeError:
        raise error("batch", "%s does not appear to be a script, or failed to encode as "
                    "utf-8" % name)


def _batch(argv):
    core.require_env("flux")
    parser = Parser("batch")
    words, script_args = parser.split(argv)
    o = parser.parse(words)
    script, name = read_script(o, script_args, bool(o.get("wrap")))
    if not o.get("wrap"):
        try:
            found = directives(name, script)
        except ValueError as e:
            raise error("batch", str(e))
        o = {}
        for lineno, dwords in found:
            try:
                parser.parse(dwords, o)
            except FluxError as e:
                if e.status != 2:
                    raise
                raise FluxError(e.message + "flux-batch: ERROR: argument parsing failed at "
                                "%s line %d\n" % (name, lineno), 2)
        parser.parse(words, o)
    o.setdefault("urgency", "16")
    if o.get("wrap"):
        script = "#!/bin/sh\n" + script
    o["job_name"] = o.get("job_name") or (script_args[0] if script_args else "batch")
    o["output"] = o.get("output") or "flux-{{id}}.out"
    req = request("batch", o, list(script_args[1:]), os.environ, script)
    store = client("batch")
    req["urgency"] = urgency("batch", o["urgency"])
    try:
        fluid = enter(store, req)
    except Refused as e:
        raise error("batch", e.text)
    if not o.get("quiet"):
        write_out(f58(fluid) + "\n")
    return 0
