// The SQLite layer's own behaviour that the store relies on.
#include "store/sqlite.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

namespace yard::sql {
namespace {

std::uintmax_t size_of(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : n;
}

// The daemon checkpoints after its replies: no commit copies the WAL into the database
// by itself, and checkpoint_if_due() does once the WAL holds the pages asked.
TEST(SqliteCheckpoints, DeferredCheckpointsHappenOnlyWhenAskedForAndDue) {
  const auto dir = std::filesystem::temp_directory_path() / ("yard-sqlite-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "t.db").string();
  {
    auto db = Db::open(path, false);
    ASSERT_TRUE(db) << db.error();
    ASSERT_TRUE(db->exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=4; CREATE TABLE t(b BLOB)"));
    db->defer_checkpoints(16);
    db->checkpoint_if_due();  // not due: the table's creation is a page or two
    const auto before = size_of(path);
    const std::string blob(8192, 'x');  // a few pages per commit
    for (int i = 0; i < 20; ++i) {
      auto ins = db->prepare("INSERT INTO t(b) VALUES(?)");
      ASSERT_TRUE(ins) << ins.error();
      ASSERT_TRUE(ins->bind(1, std::string_view(blob)).run());
    }
    // 160 KiB committed, past the 4 pages SQLite would have checkpointed at: still all in
    // the WAL, the database file as it was.
    EXPECT_EQ(size_of(path), before);
    EXPECT_GT(size_of(path + "-wal"), 150u * 1024);
    db->checkpoint_if_due();
    EXPECT_GT(size_of(path), before + 150u * 1024);
    // Not due again until the WAL fills again.
    const auto after = size_of(path);
    auto one = db->prepare("INSERT INTO t(b) VALUES(?)");
    ASSERT_TRUE(one && one->bind(1, std::string_view(blob)).run());
    db->checkpoint_if_due();
    EXPECT_EQ(size_of(path), after);
  }
  std::filesystem::remove_all(dir);
}

// A statement kept by its text is the same one at each asking, comes back reset with no
// bindings, a nested asking gets a fresh one, and one given out outlives its Db safely.
TEST(SqliteKeptStatements, AreReusedResetAndSafeWhenNestedOrOrphaned) {
  auto db = Db::open(":memory:", false);
  ASSERT_TRUE(db) << db.error();
  ASSERT_TRUE(db->exec("CREATE TABLE t(v INTEGER); INSERT INTO t VALUES(1), (2), (3)"));
  constexpr const char* kSql = "SELECT count(*) FROM t WHERE v >= ?";
  for (int round = 0; round < 3; ++round) {
    auto s = db->prepare_kept(kSql);
    ASSERT_TRUE(s) << s.error();
    auto outer = s->step();  // unbound: NULL, so no row counts
    ASSERT_TRUE(outer && *outer);
    EXPECT_EQ(s->i64(0), 0);
    s->reset();
    s->bind(1, 2);
    ASSERT_TRUE(s->step());
    EXPECT_EQ(s->i64(0), 2);
    // Asked again while this one is out: another statement, which works on its own.
    auto nested = db->prepare_kept(kSql);
    ASSERT_TRUE(nested);
    nested->bind(1, 3);
    ASSERT_TRUE(nested->step());
    EXPECT_EQ(nested->i64(0), 1);
  }
  // Three rounds, one kept statement: the connection holds just it now.
  EXPECT_NE(sqlite3_next_stmt(db->raw(), nullptr), nullptr);
  EXPECT_EQ(sqlite3_next_stmt(db->raw(), sqlite3_next_stmt(db->raw(), nullptr)), nullptr);
  // Given out when its Db goes: finalized by its holder (AddressSanitizer would see a
  // statement reset after its finalization).
  auto other = Db::open(":memory:", false);
  ASSERT_TRUE(other);
  std::optional<Statement> held;
  {
    Db moved = std::move(*other);
    auto s = moved.prepare_kept("SELECT 1");
    ASSERT_TRUE(s);
    held.emplace(std::move(*s));
  }
  held.reset();
}

}  // namespace
}  // namespace yard::sql
