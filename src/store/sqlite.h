// A thin RAII layer over the SQLite C API: a connection, prepared statements with
// bind/step/column helpers, and a transaction guard. Errors become yard::Error values
// naming the statement that failed.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace yard::sql {

class Statement;

// The first failure of a write (disk full, I/O error, a transaction SQLite rolled back
// by itself): from then on the connection refuses every write and every transaction,
// so nothing after the failure can commit on its own (after SQLITE_FULL, SQLite may
// roll the open transaction back and run later statements in autocommit mode). The
// owner reads it, acts (the daemon fails the requests of the iteration and restarts
// from what the store holds), and opens a new connection.
struct Fault {
  std::string message;  // empty: no fault
};

class Db {
 public:
  Db() = default;
  ~Db();
  Db(Db&& o) noexcept
      : db_(o.db_), fixed_(std::move(o.fixed_)), kept_(std::move(o.kept_)), fault_(std::move(o.fault_)),
        path_(std::move(o.path_)),
        wal_pages_(std::move(o.wal_pages_)), checkpoint_pages_(o.checkpoint_pages_) {
    o.db_ = nullptr;
  }
  Db& operator=(Db&& o) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  static Result<Db> open(const std::string& path, bool read_only);
  // Writes the whole database as this connection sees it (its WAL included) to a new file
  // `dest`, 0600, synced, and renamed into place.
  Status copy_to(const std::string& dest) const;
  Status exec(std::string_view sql);
  // Runs one statement given as a string literal (BEGIN, COMMIT, SAVEPOINT ...), prepared
  // on first use and kept: a transaction per job must not parse its SQL every time.
  Status run_fixed(const char* sql);
  Result<Statement> prepare(std::string_view sql);
  // The same, for a statement asked often (a web service's every request): prepared once
  // and kept by its text; the Statement given out resets it when it goes, rather than
  // finalizing it. Asked again while given out (nested), a new one is prepared.
  Result<Statement> prepare_kept(std::string_view sql);
  std::int64_t last_insert_id() const { return sqlite3_last_insert_rowid(db_); }
  int changes() const { return sqlite3_changes(db_); }
  std::string last_error() const { return db_ ? sqlite3_errmsg(db_) : "no database"; }
  sqlite3* raw() const { return db_; }
  const std::string& path() const { return path_; }
  // The first write failure (see Fault), or empty.
  const std::string& fault() const { return fault_->message; }
  // Checkpoints taken out of commits: instead of SQLite's automatic checkpoint inside
  // the commit that fills the WAL to `pages`, checkpoint_if_due() copies the WAL into the
  // database once it holds `pages` or more. The daemon calls it after answering, so that
  // a checkpoint's writes and syncs (milliseconds) do not delay the reply that comes
  // before them. A checkpoint that fails (a full disk) leaves the WAL as it was, as an
  // automatic one does, and is tried again at the next call.
  void defer_checkpoints(int pages);
  void checkpoint_if_due();

 private:
  friend class Statement;
  friend class Transaction;
  void finalize_fixed();
  // Records `rc` of a write (or of BEGIN/COMMIT) as the fault when it is one.
  void note_failure(int rc, bool in_transaction_before);
  sqlite3* db_ = nullptr;
  std::vector<std::pair<const char*, sqlite3_stmt*>> fixed_;  // keyed by the literal's address
  // A kept statement's holder: kFree, kGivenOut, or kOrphaned (the Db went while it was
  // given out: its holder finalizes it).
  enum KeptState { kFree, kGivenOut, kOrphaned };
  struct Kept {
    std::string sql;
    sqlite3_stmt* statement = nullptr;
    std::shared_ptr<KeptState> state = std::make_shared<KeptState>(kFree);
  };
  std::vector<Kept> kept_;
  // Shared with this connection's statements, so it survives moves of the Db.
  std::shared_ptr<Fault> fault_ = std::make_shared<Fault>();
  std::string path_;
  std::shared_ptr<int> wal_pages_ = std::make_shared<int>(0);  // after the last commit: the hook's, across moves
  int checkpoint_pages_ = 0;                                   // 0: SQLite checkpoints by itself
};

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3_stmt* s, std::shared_ptr<Fault> fault, std::string path,
            std::shared_ptr<Db::KeptState> given_out = {})
      : s_(s), fault_(std::move(fault)), path_(std::move(path)), given_out_(std::move(given_out)) {}
  ~Statement();
  Statement(Statement&& o) noexcept
      : s_(o.s_), fault_(std::move(o.fault_)), path_(std::move(o.path_)), given_out_(std::move(o.given_out_)) {
    o.s_ = nullptr;
  }
  Statement& operator=(Statement&& o) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Statement& bind(int i, double v);
  Statement& bind(int i, std::string_view v);
  Statement& bind_null(int i);
  template <typename T>
  Statement& bind(int i, const std::optional<T>& v) {
    return v ? bind(i, *v) : bind_null(i);
  }

  // Returns true when a row is available, false when done; an error otherwise.
  Result<bool> step();
  Status run();  // step to completion, for statements without rows
  void reset();

  std::int64_t i64(int col) const { return sqlite3_column_int64(s_, col); }
  double real(int col) const { return sqlite3_column_double(s_, col); }
  std::string text(int col) const;
  bool is_null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  std::optional<std::int64_t> opt_i64(int col) const {
    return is_null(col) ? std::nullopt : std::optional<std::int64_t>(i64(col));
  }
  std::optional<double> opt_real(int col) const {
    return is_null(col) ? std::nullopt : std::optional<double>(real(col));
  }

 private:
  // Gives the statement back (kept by its Db: reset) or finalizes it.
  void release();
  sqlite3_stmt* s_ = nullptr;
  std::shared_ptr<Fault> fault_;
  std::string path_;
  std::shared_ptr<Db::KeptState> given_out_;  // set: a kept statement, given back when this goes
  friend class Db;
};

// BEGIN IMMEDIATE on construction (a SAVEPOINT when a transaction is already open);
// rolled back unless commit() succeeded.
class Transaction {
 public:
  explicit Transaction(Db& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  const Status& begun() const { return begun_; }
  Status commit();

 private:
  Db& db_;
  bool nested_;
  Status begun_;
  bool open_ = false;
};

}  // namespace yard::sql
