"""The Flux stand-in's job shell: `python3 -B -I flux_shell.py SPEC-JSON`, started by the
server (flux_policy) in the job's own process group, as the job's user. It stands alone
(no standin imports), as flux-shell(1) does for its job:

  * opens the job's output: stdout to SPEC["out"], stderr to SPEC["err"] (the same file
    once when they are the same path), truncated, 0644;
  * changes to the job's working directory;
  * starts SPEC["ntasks"] tasks of SPEC["argv"] (a flux batch job: one, its script),
    stdin /dev/null, each with FLUX_TASK_RANK and FLUX_TASK_LOCAL_ID (not for batch,
    whose initial program sees neither);
  * waits for them and exits with the highest task exit code, 128 + N for a task killed
    by signal N (flux-shell task.c);
  * a task that cannot start (command not found: 127, not executable: 126) makes an
    `exec` exception, written as JSON to SPEC["report"] for the server, the other tasks
    are killed.

Signals sent to the job's process group (cancel: SIGTERM, time limit: SIGALRM) reach
the tasks directly; the shell itself ignores them. SIGWINCH is the server's way to say
"the kill timeout has passed": the shell SIGKILLs every other process of its group, as
job-exec's kill timer has the shell do, and then exits 137 like a flux-shell whose
tasks were killed.
"""

import json
import os
import signal
import subprocess
import sys

CATCH = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM, signal.SIGUSR1,
         signal.SIGUSR2, signal.SIGQUIT, signal.SIGPIPE)


def kill_others(signum=None, frame=None):
    me, group = os.getpid(), os.getpgrp()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if len(fields) > 2 and fields[2] == str(group):
            try:
                os.kill(int(name), signal.SIGKILL)
            except OSError:
                pass


def open_output(path, fallback):
    try:
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    except OSError:
        return fallback


def report(spec, note):
    try:
        with open(spec["report"], "w") as f:
            json.dump({"exception": {"type": "exec", "severity": 0, "note": note}}, f)
    except OSError:
        pass


def main():
    spec = json.loads(sys.argv[1])
    for sig in CATCH:
        signal.signal(sig, lambda s, f: None)      # handlers: reset to default in tasks
    signal.signal(signal.SIGWINCH, kill_others)
    devnull = os.open(os.devnull, os.O_RDWR)
    out = open_output(spec["out"], devnull)
    err = out if spec["err"] == spec["out"] else open_output(spec["err"], devnull)
    try:
        os.makedirs(spec["jobtmp"], exist_ok=True)
        os.chmod(spec["jobtmp"], 0o700)
    except OSError:
        pass
    try:
        os.chdir(spec["cwd"])
    except OSError as e:
        os.write(err, ("flux-shell[0]: FATAL: Could not change dir to %s: %s\n"
                       % (spec["cwd"], e.strerror)).encode())
        report(spec, "shell: Could not change dir to %s: %s" % (spec["cwd"], e.strerror))
        return 1
    tasks, failed = [], None
    for rank in range(spec["ntasks"]):
        env = dict(os.environ)
        if not spec["batch"]:
            env.update(FLUX_TASK_RANK=str(rank), FLUX_TASK_LOCAL_ID=str(rank))
        try:
            tasks.append(subprocess.Popen(spec["argv"], stdin=devnull, stdout=out,
                                          stderr=err, env=env, close_fds=True))
        except OSError as e:
            code = 127 if isinstance(e, FileNotFoundError) else 126
            note = "task %d (host %s): start failed: %s: %s" % (rank, spec["host"],
                                                               spec["argv"][0], e.strerror)
            os.write(err, ("flux-shell[0]: FATAL: %s\n" % note).encode())
            failed = (code, note)
            break
    if failed:
        report(spec, failed[1])
        for t in tasks:
            try:
                t.kill()
            except OSError:
                pass
    codes = [failed[0]] if failed else []
    for t in tasks:
        rc = t.wait()
        codes.append(128 - rc if rc < 0 else rc)
    return max(codes) if codes else 0


if __name__ == "__main__":
    sys.exit(main())
