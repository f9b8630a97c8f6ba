"""Job model and spool shared by every stand-in scheduler.

One instance = one state directory holding config.json, the SQLite database
(standin.db, WAL mode, busy_timeout 10 s), the spool copies of the job scripts, the
per-job node files and TMPDIRs, server.pid, server.log and the `ready` marker the
server writes once it runs.

The client commands (qsub, qstat, ...) and the server share the database. Every
client write is one `BEGIN IMMEDIATE` transaction, so a client that dies in the
middle of one leaves nothing behind (SQLite rolls it back) and the server goes on.

A job row: seq (and idx, parent for array subjobs), kind (job / array / sub),
phase and how, attrs (the scheduler's own attributes, JSON), script (the spool copy) or
argv, cwd (where the job runs), env (its environment: a JSON list of [name, value]),
submit_dir, owner/uid/gid, submit/start/end/mtime times, exit_status, pgid, deps (JSON),
user_hold and dep_hold, run_count, comment, ncpus/ngpus/walltime/max_running, and the
server's bookkeeping (request, kill_reason, kill_sent, usage, history_time).

The engine-level job columns are scheduler-neutral: `phase` is one of
queued / held / waiting / running / exiting / done, and `how` says how a done job
ended (ok, failed, terminated, walltime, deleted, depdeleted, nodefail). Everything
a scheduler shows beyond that lives in the JSON column `attrs` and is rendered by the
scheduler's module (standin/pbs.py for PBS).
"""

import contextlib
import json
import os
import pwd
import signal
import socket
import sqlite3
import sys
import time

DB_NAME = "standin.db"
CONFIG_NAME = "config.json"
PID_NAME = "server.pid"
READY_NAME = "ready"
LOG_NAME = "server.log"

PHASES = ("queued", "held", "waiting", "running", "exiting", "done")

# Settings every stand-in understands; a scheduler module adds its own (pbs.DEFAULTS).
DEFAULTS = {
    "server_name": None,          # None: the short host name
    "slots": 4,                   # CPUs the one execution host has
    "gpus": 0,                    # GPUs it has (0: the scheduler knows no GPU resource)
    "kill_grace": 2.0,            # seconds between SIGTERM and SIGKILL
    "job_history_duration": 3600, # seconds a finished job stays visible
    "tick": 0.1,                  # server period, seconds
    "exiting_delay": 0.0,         # seconds a job spends in the exiting phase (E) before done
    "requeue_delay": 0.0,         # seconds a requeued job waits before it may run again
    "first_seq": 1,               # first job sequence number
    "shared": 0,                  # 1: state dir and database writable by every user
}

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS jobs(
  rid INTEGER PRIMARY KEY AUTOINCREMENT,
  seq INTEGER NOT NULL,
  idx INTEGER,
  kind TEXT NOT NULL,
  parent INTEGER,
  phase TEXT NOT NULL,
  how TEXT,
  attrs TEXT NOT NULL DEFAULT '{}',
  script TEXT,
  argv TEXT,
  cwd TEXT,
  env TEXT,
  submit_dir TEXT,
  owner TEXT,
  uid INTEGER,
  gid INTEGER,
  submit_time REAL,
  eligible_time REAL,
  not_before REAL,
  start_time REAL,
  end_time REAL,
  mtime REAL,
  exit_status INTEGER,
  pgid INTEGER,
  deps TEXT,
  dep_hold INTEGER NOT NULL DEFAULT 0,
  user_hold INTEGER NOT NULL DEFAULT 0,
  run_count INTEGER NOT NULL DEFAULT 0,
  comment TEXT,
  ncpus INTEGER NOT NULL DEFAULT 1,
  ngpus INTEGER NOT NULL DEFAULT 0,
  walltime INTEGER,
  max_running INTEGER,
  rerunnable INTEGER NOT NULL DEFAULT 1,
  request TEXT,
  kill_reason TEXT,
  kill_sent REAL,
  killed_hard INTEGER NOT NULL DEFAULT 0,
  exec_host TEXT,
  usage TEXT,
  history_time REAL,
  dep_cause TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_id ON jobs(seq, ifnull(idx, -1), kind);
CREATE INDEX IF NOT EXISTS jobs_phase ON jobs(phase);
CREATE INDEX IF NOT EXISTS jobs_parent ON jobs(parent);
"""

JSON_COLUMNS = ("attrs", "argv", "env", "deps", "usage")


class StandinError(Exception):
    """An error a client command reports: message for stderr and exit status."""

    def __init__(self, message, status):
        super().__init__(message)
        self.message = message
        self.status = status


# ---------------------------------------------------------------- configuration

def short_hostname():
    return socket.gethostname().split(".")[0]


def scheduler_defaults(scheduler):
    module = __import__("standin." + scheduler, fromlist=["DEFAULTS"])
    return dict(getattr(module, "DEFAULTS", {}))


def coerce(value, like):
    """A key=value string from start.sh, typed like the default it overrides."""
    if isinstance(like, bool):
        return value.lower() in ("1", "true", "yes", "on")
    if isinstance(like, int):
        try:
            return int(value)
        except ValueError:
            return float(value)
    if isinstance(like, float):
        return float(value)
    if like is None:
        for cast in (int, float):
            try:
                return cast(value)
            except ValueError:
                pass
    return value


def init_instance(state_dir, scheduler, overrides):
    """Create the state dir, config.json and the database. Returns the config."""
    state_dir = os.path.abspath(state_dir)
    os.makedirs(state_dir, exist_ok=True)
    cfg = dict(DEFAULTS)
    cfg.update(scheduler_defaults(scheduler))
    cfg["scheduler"] = scheduler
    for item in overrides:
        if "=" not in item:
            raise StandinError("bad setting (want key=value): %s" % item, 2)
        key, value = item.split("=", 1)
        if key not in cfg:
            raise StandinError("unknown setting: %s (known: %s)" % (key, ", ".join(sorted(cfg))), 2)
        cfg[key] = coerce(value, cfg[key])
    if not cfg.get("server_name"):
        cfg["server_name"] = short_hostname()
    cfg["host"] = short_hostname()
    for sub in ("spool", "aux", "tmp"):
        os.makedirs(os.path.join(state_dir, sub), exist_ok=True)
    if cfg.get("shared"):
        for d in (state_dir, os.path.join(state_dir, "spool"), os.path.join(state_dir, "aux"),
                  os.path.join(state_dir, "tmp")):
            os.chmod(d, 0o1777)
    tmp = os.path.join(state_dir, CONFIG_NAME + ".tmp")
    with open(tmp, "w") as f:
        json.dump(cfg, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, os.path.join(state_dir, CONFIG_NAME))
    store = Store(state_dir, create=True)
    store.close()
    return cfg


def load_config(state_dir):
    with open(os.path.join(state_dir, CONFIG_NAME)) as f:
        return json.load(f)


# ---------------------------------------------------------------- the database

class Store:
    """The instance's database and configuration."""

    def __init__(self, state_dir, create=False):
        self.dir = os.path.abspath(state_dir)
        self.cfg = load_config(self.dir)
        self.path = os.path.join(self.dir, DB_NAME)
        if not create and not os.path.exists(self.path):
            raise StandinError("no stand-in database in %s" % self.dir, 1)
        old_umask = os.umask(0) if self.cfg.get("shared") else None
        try:
            self.db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None,
                                      check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA busy_timeout=10000")
            if create:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.executescript(SCHEMA)
                with self.write() as cur:
                    cur.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('next_seq', ?)",
                                (str(int(self.cfg.get("first_seq", 1))),))
                    cur.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('outage', 'off')")
            self.db.execute("PRAGMA synchronous=NORMAL")
            if self.cfg.get("shared"):
                # SQLite creates its files 0644 whatever the umask.
                self.db.execute("SELECT count(*) FROM meta").fetchone()   # -wal, -shm exist
                for suffix in ("", "-wal", "-shm"):
                    try:
                        os.chmod(self.path + suffix, 0o666)
                    except OSError:
                        pass
        finally:
            if old_umask is not None:
                os.umask(old_umask)

    def close(self):
        self.db.close()

    @contextlib.contextmanager
    def write(self):
        """One write transaction (BEGIN IMMEDIATE ... COMMIT, ROLLBACK on error)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @contextlib.contextmanager
    def read(self):
        """One consistent read (a deferred transaction, never upgraded)."""
        self.db.execute("BEGIN")
        try:
            yield self.db
        finally:
            self.db.execute("ROLLBACK")

    def meta(self, key, default=None, cur=None):
        row = (cur or self.db).execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else default

    @staticmethod
    def set_meta(cur, key, value):
        cur.execute("INSERT INTO meta(key, value) VALUES(?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, str(value)))

    @staticmethod
    def alloc_seq(cur):
        """The next job sequence number (call inside a write transaction)."""
        seq = int(cur.execute("SELECT value FROM meta WHERE key='next_seq'").fetchone()[0])
        cur.execute("UPDATE meta SET value=? WHERE key='next_seq'", (str(seq + 1),))
        return seq

    @staticmethod
    def insert_job(cur, **cols):
        for key in JSON_COLUMNS:
            if key in cols and cols[key] is not None and not isinstance(cols[key], str):
                cols[key] = json.dumps(cols[key])
        names = ", ".join(cols)
        marks = ", ".join("?" for _ in cols)
        cur.execute("INSERT INTO jobs(%s) VALUES(%s)" % (names, marks), tuple(cols.values()))
        return cur.execute("SELECT last_insert_rowid()").fetchone()[0]

    @staticmethod
    def update_job(cur, rid, **cols):
        for key in JSON_COLUMNS:
            if key in cols and cols[key] is not None and not isinstance(cols[key], str):
                cols[key] = json.dumps(cols[key])
        sets = ", ".join("%s=?" % k for k in cols)
        cur.execute("UPDATE jobs SET %s WHERE rid=?" % sets, tuple(cols.values()) + (rid,))


def decode(row):
    """A job row as a dict, its JSON columns decoded."""
    job = dict(row)
    for key in JSON_COLUMNS:
        value = job.get(key)
        if isinstance(value, str):
            job[key] = json.loads(value)
    return job


# ---------------------------------------------------------------- processes

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


# ---------------------------------------------------------------- users, times

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


def ctime_str(t):
    """C ctime() without the newline: 'Wed Jun 24 15:33:18 2020' (local time)."""
    return time.ctime(int(t))


def hms(seconds):
    seconds = max(0, int(seconds))
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def parse_duration(text):
    """[[HH:]MM:]SS[.fraction] -> whole seconds, or None if malformed."""
    text = text.strip()
    if not text:
        return None
    parts = text.split(":")
    if len(parts) > 3:
        return None
    total = 0.0
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if not part:
            return None
        if last:
            try:
                value = float(part)
            except ValueError:
                return None
            if not part.replace(".", "", 1).isdigit():
                return None
        else:
            if not part.isdigit():
                return None
            value = int(part)
        total = total * 60 + value
    return int(total)


# ---------------------------------------------------------------- clients

def require_env(cmd):
    """Exit 1 with the stand-in's message when YARD_STANDIN_DIR is not set."""
    if not os.environ.get("YARD_STANDIN_DIR"):
        sys.stderr.write("%s: YARD_STANDIN_DIR is not set (no stand-in scheduler)\n" % cmd)
        sys.exit(1)


def client_store(cmd, connection_refused):
    """Open the instance named by YARD_STANDIN_DIR for a client command.

    `connection_refused(store)` is the scheduler's way to report that the server
    cannot be reached (outage on, or the server is not running); it must exit.
    With `outage on --hang` the command waits until the outage is switched off.
    """
    require_env(cmd)
    state_dir = os.environ["YARD_STANDIN_DIR"]
    try:
        store = Store(state_dir)
    except (OSError, StandinError, sqlite3.Error, ValueError) as e:
        sys.stderr.write("%s: stand-in instance %s unusable: %s\n" % (cmd, state_dir, e))
        sys.exit(1)
    while True:
        outage = store.meta("outage", "off")
        if outage == "hang" and server_running(store.dir):
            time.sleep(0.1)      # poll the condition: blocks as a hung server would
            continue
        if outage in ("on", "hang") or not server_running(store.dir):
            connection_refused(store)
            sys.exit(1)          # connection_refused should have exited
        return store


def main(argv):
    """python3 -m standin.core init STATE SCHED [k=v...] | stop STATE"""
    if len(argv) >= 3 and argv[0] == "init":
        try:
            cfg = init_instance(argv[1], argv[2], argv[3:])
        except StandinError as e:
            sys.stderr.write("standin: %s\n" % e.message)
            return e.status
        print(json.dumps(cfg, sort_keys=True))
        return 0
    if len(argv) == 2 and argv[0] == "stop":
        stop_instance(argv[1])
        return 0
    if len(argv) == 2 and argv[0] == "running":
        return 0 if server_running(argv[1]) else 1
    sys.stderr.write("usage: python3 -m standin.core init STATE SCHEDULER [key=value ...]\n"
                     "       python3 -m standin.core stop STATE\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
