"""Processes and users: what the server, stop.sh and the jobs' bookkeeping need.

Process groups are found and signalled through /proc and killpg; the server is
recognised by its command line, so stop.sh never signals a process it did not start.
"""

import os
import pwd
import signal
import sqlite3
import time

from standin.config import DB_NAME, PID_NAME, READY_NAME


def pid_alive(pid):
    """True if the process exists and is not a zombie."""
    if not pid or pid <= 0:
        return False
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


def group_members(pgid):
    """Pids of the live (non-zombie) processes of a process group."""
    members = []
    if not pgid or pgid <= 0:
        return members
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            members.append(int(name))
    return members


def kill_group(pgid, sig):
    """Signal a process group; False if it no longer exists."""
    if not pgid or pgid <= 1:
        return False
    try:
        os.killpg(pgid, sig)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def is_our_server(pid, state_dir):
    if not pid_alive(pid):
        return False
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return False
    return b"standin.server" in argv and os.fsencode(os.path.abspath(state_dir)) in argv


def read_pid(state_dir, name=PID_NAME):
    try:
        with open(os.path.join(state_dir, name)) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def server_running(state_dir):
    pid = read_pid(state_dir, READY_NAME)
    return pid is not None and pid_alive(pid)


def stop_instance(state_dir, deadline=20.0):
    """Stop what start.sh started: the server by pid, then any recorded job group."""
    state_dir = os.path.abspath(state_dir)
    if not os.path.isdir(state_dir):
        return
    pid = read_pid(state_dir)
    if pid and is_our_server(pid, state_dir):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        end = time.monotonic() + deadline
        while pid_alive(pid) and time.monotonic() < end:
            time.sleep(0.05)
        if pid_alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            end = time.monotonic() + 5.0
            while pid_alive(pid) and time.monotonic() < end:
                time.sleep(0.05)
    if os.path.exists(os.path.join(state_dir, DB_NAME)):
        try:
            db = sqlite3.connect(os.path.join(state_dir, DB_NAME), timeout=10.0)
            db.execute("PRAGMA busy_timeout=10000")
            pgids = [r[0] for r in db.execute(
                "SELECT DISTINCT pgid FROM jobs WHERE pgid IS NOT NULL")]
            db.close()
        except sqlite3.Error:
            pgids = []
        for pgid in pgids:
            if group_members(pgid):
                kill_group(pgid, signal.SIGKILL)
        end = time.monotonic() + 5.0
        while any(group_members(p) for p in pgids) and time.monotonic() < end:
            time.sleep(0.05)
    for name in (READY_NAME, PID_NAME):
        try:
            os.unlink(os.path.join(state_dir, name))
        except OSError:
            pass


# ---------------------------------------------------------------- users

def user_info(uid):
    """(name, home, shell, gid) of a uid."""
    try:
        pw = pwd.getpwuid(uid)
        return pw.pw_name, pw.pw_dir, pw.pw_shell or "/bin/sh", pw.pw_gid
    except KeyError:
        return str(uid), "/", "/bin/sh", os.getgid()


def group_list(name, gid):
    try:
        return os.getgrouplist(name, gid)
    except (KeyError, OSError):
        return [gid]
