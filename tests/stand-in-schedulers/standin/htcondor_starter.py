"""The HTCondor stand-in's starter: what condor_starter does for one job, in small.

    python3 -S -E htcondor_starter.py REPORT LIMIT_MB POLL IN OUT ERR -- EXE [ARG...]

It runs in the job's process group (the server started it in a session of its own), opens
the job's input and output files (output and error truncated; an unusable path gives
/dev/null), and executes EXE with the environment in REPORT.env (a JSON list of [name,
value], removed once read: the starter's own environment is Python's). While the job
runs it measures the resident memory (RSS) of every other process of the group every
POLL seconds; above LIMIT_MB (0: no limit) it KILLs them, as the cgroup OOM killer
would. When the job has ended it writes REPORT (JSON: the job's wait status, the errno of
a failed exec, whether memory ran out) and exits 0 (no REPORT possible: it ends as the job
ended). TERM, INT, HUP and QUIT are the job's business: the starter outlives them and
reports how the job ended.
Standalone (standard library only, imports nothing of the stand-in): it starts fast.
"""

import json
import os
import select
import signal
import sys

CAUGHT = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
PAGE = os.sysconf("SC_PAGE_SIZE")


def group_rss(pgid, me):
    """Bytes resident in the processes of group pgid, this one left out."""
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if fields[2] != str(pgid) or fields[0] in ("Z", "X"):
                continue
            with open("/proc/%s/statm" % name) as f:
                total += int(f.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    return total


def kill_others(pgid, me):
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                if f.read().rsplit(")", 1)[1].split()[2] == str(pgid):
                    os.kill(int(name), signal.SIGKILL)
        except (OSError, IndexError):
            continue


def open_file(path, flags):
    try:
        return os.open(path or "/dev/null", flags, 0o644)
    except OSError:
        return os.open("/dev/null", flags)


def main(argv):
    report, limit_mb, poll, inp, out, err = argv[:6]
    command = argv[7:]
    limit = int(limit_mb) * 1024 * 1024
    for sig in CAUGHT:
        signal.signal(sig, lambda s, f: None)
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.signal(signal.SIGCHLD, lambda s, f: None)
    signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
    fds = [open_file(inp, os.O_RDONLY)]
    fds.append(open_file(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC))
    fds.append(fds[1] if err == out else open_file(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC))
    err_r, err_w = os.pipe2(os.O_CLOEXEC)
    with open(report + ".env") as f:
        env = dict(json.load(f), CONDOR_STARTER_PID=str(os.getpid()))
    os.unlink(report + ".env")
    pid = os.fork()
    if pid == 0:
        try:
            for i, fd in enumerate(fds):
                os.dup2(fd, i)
            for sig in CAUGHT + (signal.SIGCHLD,):
                signal.signal(sig, signal.SIG_DFL)
            os.execve(command[0], command, env)
        except OSError as e:
            os.write(err_w, str(e.errno).encode())
        os._exit(127)
    os.close(err_w)
    for fd in set(fds):
        os.close(fd)
    failed = os.read(err_r, 32)
    result = {"exec_errno": int(failed) if failed else None, "oom": False}
    me, pgid = os.getpid(), os.getpgrp()
    status = None
    while status is None:
        done, wstatus = os.waitpid(pid, os.WNOHANG)
        if done:
            status = wstatus
            break
        if limit > 0 and group_rss(pgid, me) > limit:
            result["oom"] = True
            kill_others(pgid, me)
            status = os.waitpid(pid, 0)[1]
            break
        select.select([wake_r], [], [], float(poll) if limit > 0 else None)
        try:
            while os.read(wake_r, 512):
                pass
        except BlockingIOError:
            pass
    result["status"] = status
    try:
        tmp = report + ".tmp"
        with open(tmp, "w") as f:
            json.dump(result, f)
        os.replace(tmp, report)
    except OSError:                 # no report: end as the job ended
        if os.WIFSIGNALED(status):
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
            os.kill(os.getpid(), os.WTERMSIG(status))
        return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
