#include "store/sqlite.h"

#include <algorithm>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace yard::sql {
namespace {

// Failures that say nothing about the store itself: the statement broke a rule (a
// constraint) or asked for something absent; the store can take further writes.
bool is_fault(int rc) {
  switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
    case SQLITE_RANGE:
    case SQLITE_ERROR:  // an SQL error (a bug, or a missing table): reported, not latched
      return false;
    default:
      return true;
  }
}

std::string fault_text(const std::string& path, const std::string& what) {
  return "the store " + path + " cannot record changes: " + what;
}

}  // namespace

void Db::note_failure(int rc, bool in_transaction_before) {
  if (!fault_->message.empty()) return;
  const bool rolled_back = in_transaction_before && sqlite3_get_autocommit(db_) != 0;
  if (is_fault(rc) || rolled_back) fault_->message = fault_text(path_, sqlite3_errmsg(db_));
}

Db::~Db() {
  finalize_fixed();
  if (db_) sqlite3_close_v2(db_);
}

void Db::finalize_fixed() {
  for (auto& [sql, st] : fixed_) sqlite3_finalize(st);
  fixed_.clear();
  for (auto& k : kept_) {
    if (*k.state == kGivenOut) *k.state = kOrphaned;
    else sqlite3_finalize(k.statement);
  }
  kept_.clear();
}

void Db::defer_checkpoints(int pages) {
  checkpoint_pages_ = pages;
  // A WAL hook of one's own replaces SQLite's automatic checkpoint (which is one).
  sqlite3_wal_hook(
      db_,
      [](void* count, sqlite3*, const char*, int pages_now) {
        *static_cast<int*>(count) = pages_now;
        return SQLITE_OK;
      },
      wal_pages_.get());
}

void Db::checkpoint_if_due() {
  if (checkpoint_pages_ <= 0 || *wal_pages_ < checkpoint_pages_) return;
  if (sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr) == SQLITE_OK)
    *wal_pages_ = 0;
}

Db& Db::operator=(Db&& o) noexcept {
  if (this != &o) {
    finalize_fixed();
    if (db_) sqlite3_close_v2(db_);
    db_ = o.db_;
    fixed_ = std::move(o.fixed_);
    kept_ = std::move(o.kept_);
    fault_ = std::move(o.fault_);
    path_ = std::move(o.path_);
    wal_pages_ = std::move(o.wal_pages_);
    checkpoint_pages_ = o.checkpoint_pages_;
    o.db_ = nullptr;
  }
  return *this;
}

Result<Db> Db::open(const std::string& path, bool read_only) {
  Db db;
  db.path_ = path;
  const int flags = (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                    SQLITE_OPEN_NOMUTEX;
  // The store holds every job's environment (--export ALL: tokens, keys, passwords) and
  // script: created 0600 whatever the caller's umask. SQLite gives its -wal and -shm the
  // mode of the database file. (umask is per process: the store is opened before the
  // daemon starts threads of its own.)
  const mode_t umask_before = ::umask(077);
  const int opened = sqlite3_open_v2(path.c_str(), &db.db_, flags, nullptr);
  ::umask(umask_before);
  if (opened != SQLITE_OK) return err("cannot open store " + path + ": " + db.last_error());
  // Readers and the writing daemon share the file; wait instead of failing on a lock.
  sqlite3_busy_timeout(db.db_, 10000);
  return db;
}

Status Db::copy_to(const std::string& dest) const {
  // Written beside, synced, then renamed into place: a crash leaves the old file or the
  // whole copy, never half of one.
  const std::string part = dest + ".part";
  ::unlink(part.c_str());
  sqlite3* out = nullptr;
  const mode_t umask_before = ::umask(077);
  int rc = sqlite3_open_v2(part.c_str(), &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  ::umask(umask_before);
  std::string why;
  if (rc == SQLITE_OK) {
    if (sqlite3_backup* b = sqlite3_backup_init(out, "main", db_, "main")) {
      rc = sqlite3_backup_step(b, -1);
      if (rc != SQLITE_DONE) why = sqlite3_errmsg(out);
      sqlite3_backup_finish(b);
    } else {
      why = sqlite3_errmsg(out);
    }
  } else {
    why = out ? sqlite3_errmsg(out) : "cannot open";
  }
  sqlite3_close_v2(out);
  auto fail = [&](const std::string& w) {
    ::unlink(part.c_str());
    return unavailable("cannot copy the store to " + dest + ": " + w);
  };
  if (!why.empty()) return fail(why);
  const int fd = ::open(part.c_str(), O_RDONLY | O_CLOEXEC);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  if (!synced || ::rename(part.c_str(), dest.c_str()) != 0) return fail(std::strerror(errno));
  const std::string dir = dest.substr(0, dest.rfind('/') == std::string::npos ? 0 : dest.rfind('/'));
  if (const int d = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    ::fsync(d);
    ::close(d);
  }
  return {};
}

Status Db::exec(std::string_view sql) {
  char* msg = nullptr;
  std::string s(sql);
  const bool in_tx = sqlite3_get_autocommit(db_) == 0;
  if (const int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &msg); rc != SQLITE_OK) {
    std::string m = msg ? msg : "unknown error";
    sqlite3_free(msg);
    note_failure(rc, in_tx);
    return Error{"store: " + m + " (in: " + s.substr(0, 80) + ")", is_fault(rc) ? ErrorKind::Unavailable : ErrorKind::Internal};
  }
  return {};
}

Status Db::run_fixed(const char* sql) {
  sqlite3_stmt* st = nullptr;
  for (auto& [text, s] : fixed_)
    if (text == sql) st = s;
  if (!st) {
    if (sqlite3_prepare_v2(db_, sql, -1, &st, nullptr) != SQLITE_OK) return err("store: " + std::string(sql) + ": " + last_error());
    fixed_.push_back({sql, st});
  }
  const bool in_tx = sqlite3_get_autocommit(db_) == 0;
  const int rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
    note_failure(rc, in_tx);
    if (!fault().empty()) return unavailable(fault());
    return err("store: " + std::string(sql) + ": " + last_error());
  }
  return {};
}

Result<Statement> Db::prepare(std::string_view sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &s, nullptr) != SQLITE_OK)
    return err("store: cannot prepare '" + std::string(sql.substr(0, 80)) + "': " + last_error());
  return Statement(s, fault_, path_);
}

Result<Statement> Db::prepare_kept(std::string_view sql) {
  for (auto& k : kept_)
    if (k.sql == sql && *k.state == kFree) {
      *k.state = kGivenOut;
      return Statement(k.statement, fault_, path_, k.state);
    }
  auto fresh = prepare(sql);
  if (!fresh) return fresh.failure();
  if (std::none_of(kept_.begin(), kept_.end(), [&](const Kept& k) { return k.sql == sql; })) {
    kept_.push_back(Kept{std::string(sql), fresh->s_});
    *kept_.back().state = kGivenOut;
    fresh->given_out_ = kept_.back().state;
  }
  return fresh;
}

void Statement::release() {
  if (!s_) return;
  if (given_out_ && *given_out_ == Db::kGivenOut) {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
    *given_out_ = Db::kFree;
  } else {
    sqlite3_finalize(s_);
  }
  s_ = nullptr;
}

Statement::~Statement() { release(); }

Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    release();
    s_ = o.s_;
    fault_ = std::move(o.fault_);
    path_ = std::move(o.path_);
    given_out_ = std::move(o.given_out_);
    o.s_ = nullptr;
  }
  return *this;
}

Statement& Statement::bind(int i, std::int64_t v) {
  sqlite3_bind_int64(s_, i, v);
  return *this;
}
Statement& Statement::bind(int i, double v) {
  sqlite3_bind_double(s_, i, v);
  return *this;
}
Statement& Statement::bind(int i, std::string_view v) {
  // An empty view may have no data at all, which SQLite would bind as NULL: text is text.
  sqlite3_bind_text(s_, i, v.data() ? v.data() : "", static_cast<int>(v.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::bind_null(int i) {
  sqlite3_bind_null(s_, i);
  return *this;
}

Result<bool> Statement::step() {
  const bool writes = sqlite3_stmt_readonly(s_) == 0;
  // After a fault nothing more is written: it could commit on its own.
  if (writes && fault_ && !fault_->message.empty()) return unavailable(fault_->message);
  sqlite3* db = sqlite3_db_handle(s_);
  const bool in_tx = sqlite3_get_autocommit(db) == 0;
  const int rc = sqlite3_step(s_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  if (writes && fault_ && fault_->message.empty() &&
      (is_fault(rc) || (in_tx && sqlite3_get_autocommit(db) != 0)))
    fault_->message = fault_text(path_, sqlite3_errmsg(db));
  if (fault_ && !fault_->message.empty()) return unavailable(fault_->message);
  return Error{std::string("store: ") + sqlite3_errmsg(db), is_fault(rc) ? ErrorKind::Unavailable : ErrorKind::Internal};
}

Status Statement::run() {
  for (;;) {
    auto r = step();
    if (!r) {
      reset();
      return r.failure();
    }
    if (!*r) break;
  }
  reset();
  return {};
}

void Statement::reset() {
  sqlite3_reset(s_);
  sqlite3_clear_bindings(s_);
}

std::string Statement::text(int col) const {
  auto p = sqlite3_column_text(s_, col);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s_, col)))
           : std::string();
}

Transaction::Transaction(Db& db) : db_(db), nested_(sqlite3_get_autocommit(db.raw()) == 0) {
  if (!db_.fault().empty()) {
    begun_ = unavailable(db_.fault());
    return;
  }
  // Inside an open transaction a savepoint gives the same all-or-nothing for this part.
  begun_ = db_.run_fixed(nested_ ? "SAVEPOINT nested" : "BEGIN IMMEDIATE");
  open_ = begun_.ok();
}

Transaction::~Transaction() {
  if (open_) (void)db_.exec(nested_ ? "ROLLBACK TO nested; RELEASE nested" : "ROLLBACK");
}

Status Transaction::commit() {
  if (!open_) return begun_.ok() ? Status(err("store: transaction already finished")) : begun_;
  open_ = false;
  // A fault since BEGIN: what this transaction holds may be missing a part; none of it
  // is kept.
  if (!db_.fault().empty()) {
    (void)db_.exec(nested_ ? "ROLLBACK TO nested; RELEASE nested" : "ROLLBACK");
    return unavailable(db_.fault());
  }
  auto s = db_.run_fixed(nested_ ? "RELEASE nested" : "COMMIT");
  if (!s) (void)db_.exec(nested_ ? "ROLLBACK TO nested; RELEASE nested" : "ROLLBACK");
  return s;
}

}  // namespace yard::sql
