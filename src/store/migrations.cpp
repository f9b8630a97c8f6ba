#include "store/migrations.h"

#include <array>
#include <string>

namespace yard {
namespace {

// Append only: a migration, once released, is never edited.
constexpr std::array kMigrations = {
    // 1: jobs, their specs, dependencies, state events, accounting.
    R"sql(
CREATE TABLE specs(
  id INTEGER PRIMARY KEY,
  json TEXT NOT NULL
);
CREATE TABLE jobs(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE,
  spec_id INTEGER NOT NULL REFERENCES specs(id),
  name TEXT NOT NULL,
  backend TEXT NOT NULL,
  array_job_id INTEGER,
  array_index INTEGER,
  array_max_running INTEGER NOT NULL DEFAULT 0,
  priority INTEGER NOT NULL DEFAULT 0,
  cpus INTEGER NOT NULL,
  mem_bytes INTEGER NOT NULL,
  gpus INTEGER NOT NULL,
  walltime_s INTEGER NOT NULL,
  state TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  native_state TEXT NOT NULL DEFAULT '',
  submit_time REAL NOT NULL,
  start_time REAL,
  end_time REAL,
  stdout_path TEXT NOT NULL DEFAULT '',
  stderr_path TEXT NOT NULL DEFAULT '',
  alloc TEXT NOT NULL DEFAULT ''
);
CREATE INDEX jobs_active ON jobs(state) WHERE state IN ('PENDING', 'RUNNING', 'UNKNOWN');
CREATE INDEX jobs_array ON jobs(array_job_id) WHERE array_job_id IS NOT NULL;
CREATE TABLE dependencies(
  job_id INTEGER NOT NULL REFERENCES jobs(id),
  kind TEXT NOT NULL,
  parent_id INTEGER NOT NULL REFERENCES jobs(id)
);
CREATE INDEX dependencies_job ON dependencies(job_id);
CREATE TABLE events(
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL REFERENCES jobs(id),
  time REAL NOT NULL,
  state TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX events_job ON events(job_id);
CREATE TABLE accounting(
  job_id INTEGER PRIMARY KEY REFERENCES jobs(id),
  exit_code INTEGER,
  signal INTEGER,
  cpu_seconds REAL,
  max_rss_bytes INTEGER
);
)sql",
    // 2: jobs on indirect backends (Slurm, ...): the scheduler's id, how often a submission
    // was attempted (a job attempted but without a native id may have been submitted just
    // before a crash: it is looked up by its UID before any new attempt), and a cancel
    // request that is carried out and confirmed by the backend's engine.
    R"sql(
ALTER TABLE jobs ADD COLUMN native_id TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN submit_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_backend_active ON jobs(backend) WHERE state IN ('PENDING', 'RUNNING', 'UNKNOWN');
)sql",
    // 3: usage charged to accounts (core-seconds) when a local job ends or is preempted,
    // from which the scheduling policy's ledger is rebuilt at daemon start.
    R"sql(
CREATE TABLE usage(
  id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL,
  account TEXT NOT NULL,
  time REAL NOT NULL,
  core_seconds REAL NOT NULL
);
)sql",
    // 4: submissions by the client's key, so that a client whose connection broke can ask
    // again and get the jobs its first request stored, never a second copy; and
    // environments stored once, however many specs share one (specs.env_id; a spec
    // without one carries its environment in its own json).
    R"sql(
CREATE TABLE submissions(
  key TEXT PRIMARY KEY,
  ids TEXT NOT NULL,
  time REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE environments(
  id INTEGER PRIMARY KEY,
  digest TEXT NOT NULL UNIQUE,
  json TEXT NOT NULL
);
ALTER TABLE specs ADD COLUMN env_id INTEGER REFERENCES environments(id);
)sql",
    // 5: flows (flow/): each run of a flow file, its steps with their keys (what makes a
    // step's result) and the job that gives it; a later run finds a finished or running
    // step by its key and never submits it again. File digests: a file's content digest
    // with the size, time and inode it was taken at, so an unchanged file is not read again.
    // A job's retries: the times it was tried again for its retry policy.
    R"sql(
ALTER TABLE jobs ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
CREATE TABLE flows(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  file TEXT NOT NULL,
  run_dir TEXT NOT NULL DEFAULT '',
  submit_time REAL NOT NULL,
  key TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX flows_key ON flows(key) WHERE key != '';
CREATE TABLE flow_steps(
  flow_id INTEGER NOT NULL REFERENCES flows(id),
  step INTEGER NOT NULL,
  name TEXT NOT NULL,
  key TEXT NOT NULL,
  job_id INTEGER NOT NULL REFERENCES jobs(id),
  origin TEXT NOT NULL,
  parts TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(flow_id, step)
) WITHOUT ROWID;
CREATE INDEX flow_steps_key ON flow_steps(key, flow_id);
CREATE INDEX flow_steps_job ON flow_steps(job_id);
CREATE TABLE file_digests(
  path TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  inode INTEGER NOT NULL,
  digest TEXT NOT NULL
) WITHOUT ROWID;
)sql",
    // 6: a flow step that is one job alone, though that job heads an array: an element of
    // a pack of steps (server/step_packing.h), where the pack's first element is the
    // array's id too. Other steps are their job and, if it heads an array, its elements.
    R"sql(
ALTER TABLE flow_steps ADD COLUMN alone INTEGER NOT NULL DEFAULT 0;
)sql",
    // 7: a job's retry state that outlives the daemon: its next try's earliest time (the
    // policy's backoff), the nodes its tries failed on ("node=2,other=1"), and the
    // scheduler's id of its last try that ended (found again by the job's UID after a
    // restart, it is not the next try).
    R"sql(
ALTER TABLE jobs ADD COLUMN retry_not_before REAL NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN failed_on TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN ended_try TEXT NOT NULL DEFAULT '';
)sql",
    // 8: the backend a job is moving to (`yard routes move`) while its scheduler takes it
    // out of its queue: a restarted daemon finishes the move, never runs it twice.
    R"sql(
ALTER TABLE jobs ADD COLUMN moving_to TEXT NOT NULL DEFAULT '';
)sql",
    // 9: a job held by its user (yard hold): a restarted daemon keeps it from starting.
    R"sql(
ALTER TABLE jobs ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
)sql",
};

}  // namespace

int schema_version() { return static_cast<int>(kMigrations.size()); }

Status migrate(sql::Db& db) {
  auto q = db.prepare("PRAGMA user_version");
  if (!q) return q.failure();
  auto row = q->step();
  if (!row) return row.failure();
  const int current = static_cast<int>(q->i64(0));
  if (current > schema_version())
    return err("store schema version " + std::to_string(current) + " is newer than this yard (" +
               std::to_string(schema_version()) + "); upgrade yard");
  for (int v = current; v < schema_version(); ++v) {
    sql::Transaction tx(db);
    if (!tx.begun()) return tx.begun();
    if (auto s = db.exec(kMigrations[static_cast<std::size_t>(v)]); !s) return s;
    if (auto s = db.exec("PRAGMA user_version = " + std::to_string(v + 1)); !s) return s;
    if (auto s = tx.commit(); !s) return s;
  }
  return {};
}

}  // namespace yard
