"""The job spool shared by every stand-in scheduler: one SQLite database per instance.

The database is STATE/standin.db (WAL mode, busy_timeout 10 s). The client commands
(qsub, qstat, ...) and the server share it. Every client write is one `BEGIN IMMEDIATE`
transaction, so a client that dies in the middle of one leaves nothing behind (SQLite
rolls it back) and the server goes on.

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
scheduler's modules (standin/pbs_*.py for PBS, standin/torque_*.py for Torque).
"""

import contextlib
import json
import os
import sqlite3

from standin.config import DB_NAME, StandinError, load_config

PHASES = ("queued", "held", "waiting", "running", "exiting", "done")

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
