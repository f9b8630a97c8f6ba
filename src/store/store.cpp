#include "store/store.h"

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "core/uid.h"
#include "store/job_rows.h"
#include "store/migrations.h"

namespace yard {

std::string excerpt_reason(std::string_view reason) {
  if (reason.size() <= kMaxReasonBytes) return std::string(reason);
  // Cut between UTF-8 characters: back off continuation bytes (10xxxxxx).
  std::size_t cut = kMaxReasonBytes;
  while (cut > 0 && (static_cast<unsigned char>(reason[cut]) & 0xC0) == 0x80) --cut;
  return std::string(reason.substr(0, cut)) + "... (" + std::to_string(reason.size() - cut) + " bytes more)";
}

namespace {

// What is at the path is a yard store, or a store to be (an empty database that a
// writer migrates); anything else is named, not answered with SQL text.
Status check_is_store(sql::Db& db, const std::string& path, Store::Mode mode) {
  auto q = db.prepare("SELECT count(*), count(CASE WHEN name = 'jobs' THEN 1 END) FROM sqlite_master");
  if (!q) return unavailable("the store " + path + " is not a yard store (" + db.last_error() + ")");
  auto row = q->step();
  if (!row) return unavailable("the store " + path + " is not a yard store (" + db.last_error() + ")");
  const auto tables = q->i64(0), jobs = q->i64(1);
  if (jobs == 1) return {};
  if (tables == 0 && mode == Store::Mode::ReadWrite) return {};
  return unavailable("the store " + path + " is not a yard store (" +
                     (tables == 0 ? std::string("an empty database") : "an SQLite database of something else") + ")");
}

}  // namespace

Result<Store> Store::open(const std::string& path, Mode mode) {
  // SQLite takes an empty file for a new database: a store truncated to 0 bytes would
  // silently start again at job 1 (and old jobs' output files be appended to).
  if (struct stat st{}; ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
    return unavailable("the store " + path + " is empty (0 bytes): it was truncated or never finished being created. "
                       "Restore it from a backup, or remove it to start again from job 1");
  auto db = sql::Db::open(path, mode == Mode::ReadOnly);
  if (!db) return db.failure();
  if (auto s = check_is_store(*db, path, mode); !s) return s.failure();
  // SQLite opens a file it may not write (chattr +i, a read-only mount) for reading only,
  // without a word: a daemon on it would fail every write. Said at once instead.
  if (mode == Mode::ReadWrite && sqlite3_db_readonly(db->raw(), "main") == 1)
    return unavailable("the store " + path + " cannot be written (it is read-only)");
  if (mode == Mode::ReadWrite) {
    // WAL: readers never block the writer. NORMAL: a commit survives any process crash
    // (only a power loss may drop the last commits), without an fsync per commit.
    // The WAL: checkpointed every kCheckpointPages, then cut back to 1 MiB. Temporary
    // storage in memory: each submission's savepoint journals the pages it changes, and
    // that journal, a few pages, was a file of its own written page by page (two writes
    // a page, sixteen a job).
    if (auto s = db->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; "
                          "PRAGMA wal_autocheckpoint=" + std::to_string(kCheckpointPages) + "; PRAGMA journal_size_limit=1048576; "
                          "PRAGMA temp_store=MEMORY");
        !s)
      return s.failure();
    if (auto s = migrate(*db); !s) return s.failure();
  }
  return Store(std::move(*db));
}

Result<sql::Statement*> Store::cached(const char* key, const char* sql_text) {
  auto& slot = stmts_[key];
  if (!slot) {
    auto st = db_.prepare(sql_text);
    if (!st) return Error{"store: cannot prepare '" + std::string(key) + "': " + st.error(), ErrorKind::Internal};
    slot = std::make_unique<sql::Statement>(std::move(*st));
  }
  return slot.get();
}

Status Store::check_dependencies(const JobSpec& spec) {
  auto exists_prepared = cached("exists", "SELECT 1 FROM jobs WHERE id = ?");
  if (!exists_prepared) return exists_prepared.failure();
  sql::Statement* exists = *exists_prepared;
  for (auto& d : spec.dependencies) {
    exists->bind(1, d.job_id);
    auto row = exists->step();
    exists->reset();
    if (!row) return row.failure();
    if (!*row) return err("dependency on unknown job " + std::to_string(d.job_id));
  }
  return {};
}

Result<std::vector<std::int64_t>> Store::insert_jobs(const JobSpec& spec, double now) {
  sql::Transaction tx(db_);
  if (!tx.begun()) return Error{tx.begun().error()};
  if (auto s = check_dependencies(spec); !s) return s.failure();

  auto inserted_spec = insert_spec(spec);
  if (!inserted_spec) return inserted_spec.failure();
  const std::int64_t spec_id = *inserted_spec;

  auto ins_job_prepared = cached("ins_job",
                         "INSERT INTO jobs(uid, spec_id, name, backend, array_job_id, array_index, "
                         "array_max_running, priority, cpus, mem_bytes, gpus, walltime_s, state, "
                         "submit_time) VALUES (?,?,?,?,?,?,?,?,?,?,?,?, 'PENDING', ?)");
  if (!ins_job_prepared) return ins_job_prepared.failure();
  sql::Statement* ins_job = *ins_job_prepared;
  auto fix_array_prepared = cached("fix_array", "UPDATE jobs SET array_job_id = ? WHERE id = ?");
  if (!fix_array_prepared) return fix_array_prepared.failure();
  sql::Statement* fix_array = *fix_array_prepared;
  auto ins_event_prepared = cached("ins_event", "INSERT INTO events(job_id, time, state, detail) VALUES (?,?,?,?)");
  if (!ins_event_prepared) return ins_event_prepared.failure();
  sql::Statement* ins_event = *ins_event_prepared;
  auto ins_dep_prepared = cached("ins_dep", "INSERT INTO dependencies(job_id, kind, parent_id) VALUES (?,?,?)");
  if (!ins_dep_prepared) return ins_dep_prepared.failure();
  sql::Statement* ins_dep = *ins_dep_prepared;

  std::vector<std::int64_t> ids;
  const std::vector<std::int64_t> single{0};
  const auto& indices = spec.array ? spec.array->indices : single;
  std::optional<std::int64_t> array_job_id;
  for (std::int64_t index : indices) {
    ins_job->bind(1, new_uid())
        .bind(2, spec_id)
        .bind(3, spec.name)
        .bind(4, spec.backend.empty() ? std::string_view(kDefaultBackend) : std::string_view(spec.backend))
        .bind(5, array_job_id)
        .bind(6, spec.array ? std::optional<std::int64_t>(index) : std::nullopt)
        .bind(7, spec.array ? spec.array->max_running : 0)
        .bind(8, spec.priority)
        .bind(9, spec.total_cpus())
        .bind(10, static_cast<std::int64_t>(spec.total_mem_bytes()))
        .bind(11, spec.total_gpus())
        .bind(12, spec.res.walltime_s)
        .bind(13, now);
    if (auto s = ins_job->run(); !s) return s.failure();
    const std::int64_t id = db_.last_insert_id();
    if (spec.array && !array_job_id) {  // the first element's id names the whole array
      array_job_id = id;
      fix_array->bind(1, id).bind(2, id);
      if (auto s = fix_array->run(); !s) return s.failure();
    }
    ins_event->bind(1, id).bind(2, now).bind(3, std::string_view("PENDING")).bind(4, std::string_view("submitted"));
    if (auto s = ins_event->run(); !s) return s.failure();
    for (auto& d : spec.dependencies) {
      ins_dep->bind(1, id).bind(2, to_string(d.kind)).bind(3, d.job_id);
      if (auto s = ins_dep->run(); !s) return s.failure();
    }
    ids.push_back(id);
  }
  if (auto s = tx.commit(); !s) return s.failure();
  return ids;
}

Status Store::transition(std::int64_t id, JobState to, const Transition& t, double now) {
  auto get_prepared = cached("get_state", "SELECT state FROM jobs WHERE id = ?");
  if (!get_prepared) return get_prepared.failure();
  sql::Statement* get = *get_prepared;
  get->bind(1, id);
  auto row = get->step();
  if (!row) {
    get->reset();
    return row.failure();
  }
  if (!*row) {
    get->reset();
    return err("no job " + std::to_string(id));
  }
  const auto from = parse_job_state(get->text(0)).value_or(JobState::Unknown);
  get->reset();
  if (!is_legal_transition(from, to))
    return err("job " + std::to_string(id) + ": illegal transition " + std::string(to_string(from)) + " -> " +
               std::string(to_string(to)));

  auto upd_prepared = cached("upd_job",
                     "UPDATE jobs SET state = ?, reason = ?, native_state = COALESCE(?, native_state), "
                     "start_time = CASE WHEN ?10 THEN NULL ELSE COALESCE(?4, start_time) END, "
                     "end_time = CASE WHEN ?11 THEN NULL ELSE COALESCE(?5, end_time) END, "
                     "stdout_path = COALESCE(?6, stdout_path), stderr_path = COALESCE(?7, stderr_path), "
                     "alloc = COALESCE(?8, alloc) WHERE id = ?9");
  if (!upd_prepared) return upd_prepared.failure();
  sql::Statement* upd = *upd_prepared;
  upd->bind(1, to_string(to))
      .bind(2, excerpt_reason(t.reason))
      .bind(3, t.native_state)
      .bind(4, t.start_time)
      .bind(5, t.end_time)
      .bind(6, t.stdout_path)
      .bind(7, t.stderr_path)
      .bind(8, t.alloc)
      .bind(9, id)
      .bind(10, std::int64_t{to == JobState::Pending || t.never_started})
      .bind(11, std::int64_t{to == JobState::Pending});
  if (auto s = upd->run(); !s) return s;
  auto ev_prepared = cached("ins_event", "INSERT INTO events(job_id, time, state, detail) VALUES (?,?,?,?)");
  if (!ev_prepared) return ev_prepared.failure();
  sql::Statement* ev = *ev_prepared;
  ev->bind(1, id).bind(2, now).bind(3, to_string(to)).bind(4, excerpt_reason(t.reason));
  if (auto s = ev->run(); !s) return s;
  if (t.exit_code || t.signal || t.cpu_seconds || t.max_rss_bytes) {
    auto acc_prepared = cached("acct",
                       "INSERT OR REPLACE INTO accounting(job_id, exit_code, signal, cpu_seconds, "
                       "max_rss_bytes) VALUES (?,?,?,?,?)");
    if (!acc_prepared) return acc_prepared.failure();
    sql::Statement* acc = *acc_prepared;
    acc->bind(1, id).bind(2, t.exit_code).bind(3, t.signal).bind(4, t.cpu_seconds).bind(5, t.max_rss_bytes);
    if (auto s = acc->run(); !s) return s;
  }
  return {};
}

Result<std::vector<JobRecord>> Store::query(const std::string& where, const std::vector<std::int64_t>& args) {
  auto st = db_.prepare(std::string("SELECT ") + job_columns() + where);
  if (!st) return st.failure();
  for (std::size_t i = 0; i < args.size(); ++i) st->bind(static_cast<int>(i + 1), args[i]);
  return read_jobs(*st);
}

Result<std::optional<JobRecord>> Store::job(std::int64_t id) {
  static const std::string sql = std::string("SELECT ") + job_columns() + "WHERE j.id = ?";
  auto st_prepared = cached("job_by_id", sql.c_str());
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, id);
  auto r = read_jobs(*st);
  st->reset();
  if (!r) return r.failure();
  if (r->empty()) return std::optional<JobRecord>();
  return std::optional<JobRecord>(std::move(r->front()));
}

Result<std::vector<JobRecord>> Store::jobs(const std::vector<std::int64_t>& ids) {
  if (ids.empty()) return query("ORDER BY j.id", {});
  std::string in;
  for (std::size_t i = 0; i < ids.size(); ++i) in += i ? ",?" : "?";
  std::vector<std::int64_t> args(ids);
  args.insert(args.end(), ids.begin(), ids.end());
  return query("WHERE j.id IN (" + in + ") OR j.array_job_id IN (" + in + ") ORDER BY j.id", args);
}

Result<std::vector<JobRecord>> Store::active_jobs() {
  return query("WHERE j.state IN ('PENDING', 'RUNNING', 'UNKNOWN') ORDER BY j.id", {});
}

Result<std::vector<JobEvent>> Store::events(std::int64_t id) {
  auto st = db_.prepare("SELECT time, state, detail FROM events WHERE job_id = ? ORDER BY id");
  if (!st) return st.failure();
  st->bind(1, id);
  std::vector<JobEvent> out;
  for (;;) {
    auto row = st->step();
    if (!row) return row.failure();
    if (!*row) break;
    out.push_back({st->real(0), parse_job_state(st->text(1)).value_or(JobState::Unknown), st->text(2)});
  }
  return out;
}

Result<std::vector<JobRecord>> Store::active_jobs_of(std::string_view backend) {
  auto st = db_.prepare(std::string("SELECT ") + job_columns() +
                        "WHERE j.backend = ? AND j.state IN ('PENDING', 'RUNNING', 'UNKNOWN') ORDER BY j.id");
  if (!st) return st.failure();
  st->bind(1, backend);
  return read_jobs(*st);
}

Status Store::set_native_id(std::int64_t id, std::string_view native_id) {
  auto st_prepared = cached("set_native", "UPDATE jobs SET native_id = ? WHERE id = ?");
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, native_id).bind(2, id);
  return st->run();
}

Status Store::set_pending_reason(std::int64_t id, std::string_view reason) {
  auto st_prepared = cached("pending_reason", "UPDATE jobs SET reason = ? WHERE id = ? AND state = 'PENDING'");
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, excerpt_reason(reason)).bind(2, id);
  return st->run();
}

Status Store::set_held(std::int64_t id, bool held, std::string_view detail, double now) {
  auto upd = cached("set_held",
                    "UPDATE jobs SET held = ?, reason = CASE WHEN state = 'PENDING' THEN ? ELSE reason END WHERE id = ?");
  if (!upd) return upd.failure();
  (*upd)->bind(1, held ? 1 : 0).bind(2, held ? excerpt_reason(detail) : std::string()).bind(3, id);
  if (auto s = (*upd)->run(); !s) return s;
  if (db_.changes() != 1) return err("no job " + std::to_string(id));
  auto ev = cached("ins_event_in_state",
                   "INSERT INTO events(job_id, time, state, detail) SELECT id, ?, state, ? FROM jobs WHERE id = ?");
  if (!ev) return ev.failure();
  (*ev)->bind(1, now).bind(2, excerpt_reason(detail)).bind(3, id);
  return (*ev)->run();
}

Status Store::move_job(std::int64_t id, const JobSpec& spec, std::string_view detail, double now) {
  auto spec_id = insert_spec(spec);
  if (!spec_id) return spec_id.failure();
  auto upd = cached("move_job",
                    "UPDATE jobs SET backend = ?, spec_id = ?, native_id = '', submit_attempts = 0, failed_on = '', "
                    "ended_try = '', moving_to = '', reason = ? WHERE id = ? AND state = 'PENDING'");
  if (!upd) return upd.failure();
  (*upd)->bind(1, spec.backend).bind(2, *spec_id).bind(3, excerpt_reason(detail)).bind(4, id);
  if (auto s = (*upd)->run(); !s) return s;
  if (db_.changes() != 1) return err("job " + std::to_string(id) + " is no longer pending");
  auto ev = cached("ins_event", "INSERT INTO events(job_id, time, state, detail) VALUES (?,?,?,?)");
  if (!ev) return ev.failure();
  (*ev)->bind(1, id).bind(2, now).bind(3, "PENDING").bind(4, excerpt_reason(detail));
  return (*ev)->run();
}

Status Store::set_moving_to(std::int64_t id, std::string_view backend) {
  auto st = cached("moving_to", "UPDATE jobs SET moving_to = ? WHERE id = ?");
  if (!st) return st.failure();
  (*st)->bind(1, backend).bind(2, id);
  return (*st)->run();
}

Status Store::end_try(std::int64_t id, std::string_view ended_try) {
  auto st = cached("end_try", "UPDATE jobs SET ended_try = ?, moving_to = '' WHERE id = ?");
  if (!st) return st.failure();
  (*st)->bind(1, ended_try).bind(2, id);
  return (*st)->run();
}

Status Store::note_submit_attempt(std::int64_t id) {
  auto st_prepared = cached("submit_attempt", "UPDATE jobs SET submit_attempts = submit_attempts + 1 WHERE id = ?");
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, id);
  return st->run();
}

Status Store::count_retry(std::int64_t id, std::int64_t mem_bytes, std::int64_t walltime_s, const RetryState& after) {
  auto st = cached("count_retry",
                   "UPDATE jobs SET mem_bytes = ?, walltime_s = ?, retries = retries + 1, retry_not_before = ?, "
                   "failed_on = ?, ended_try = ? WHERE id = ?");
  if (!st) return st.failure();
  (*st)->bind(1, mem_bytes).bind(2, walltime_s).bind(3, after.not_before).bind(4, after.failed_on);
  (*st)->bind(5, after.ended_try).bind(6, id);
  return (*st)->run();
}

Status Store::request_cancel(std::int64_t id) {
  auto st_prepared = cached("cancel_req", "UPDATE jobs SET cancel_requested = 1 WHERE id = ?");
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, id);
  return st->run();
}

Result<std::vector<DependencyEdge>> Store::dependencies_of_active() {
  auto st = db_.prepare(
      "SELECT d.job_id, d.parent_id, d.kind FROM dependencies d JOIN jobs j ON j.id = d.job_id "
      "WHERE j.state = 'PENDING'");
  if (!st) return st.failure();
  std::vector<DependencyEdge> out;
  for (;;) {
    auto row = st->step();
    if (!row) return row.failure();
    if (!*row) break;
    out.push_back({st->i64(0), st->i64(1), parse_dependency_kind(st->text(2)).value()});
  }
  return out;
}

Result<std::int64_t> Store::count_jobs() {
  auto st = db_.prepare("SELECT COUNT(*) FROM jobs");
  if (!st) return st.failure();
  auto row = st->step();
  if (!row) return row.failure();
  return st->i64(0);
}

}  // namespace yard
