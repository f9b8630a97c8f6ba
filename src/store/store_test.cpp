#include "store/store.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "store/migrations.h"
#include "store/store_file.h"

namespace yard {
namespace {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("yard-store-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "store.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static JobSpec spec() {
    JobSpec s;
    s.name = "t";
    s.argv = {"/bin/true"};
    s.workdir = "/tmp";
    s.res.ntasks = 2;
    return s;
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(StoreTest, InsertsAndReadsBack) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st.ok()) << st.error();
  auto ids = st->insert_jobs(spec(), 100.0);
  ASSERT_TRUE(ids.ok()) << ids.error();
  ASSERT_EQ(ids->size(), 1u);
  auto j = st->job(ids->front());
  ASSERT_TRUE(j.ok() && j->has_value());
  EXPECT_EQ((*j)->state, JobState::Pending);
  EXPECT_EQ((*j)->cpus, 2);
  EXPECT_EQ((*j)->submit_time, 100.0);
  EXPECT_EQ((*j)->uid.size(), 18u);
  auto sp = st->spec((*j)->spec_id);
  ASSERT_TRUE(sp.ok());
  EXPECT_EQ(sp->argv, spec().argv);
}

TEST_F(StoreTest, ArrayElementsShareOneSpecAndTheFirstIdNamesTheArray) {
  auto st = Store::open(path_);
  auto s = spec();
  s.array = ArraySpec{{3, 4, 5}, 2};
  auto ids = st->insert_jobs(s, 1.0);
  ASSERT_TRUE(ids.ok()) << ids.error();
  ASSERT_EQ(ids->size(), 3u);
  auto all = st->jobs({ids->front()});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 3u);
  for (auto& j : *all) {
    EXPECT_EQ(j.array_job_id, ids->front());
    EXPECT_EQ(j.spec_id, all->front().spec_id);
    EXPECT_EQ(j.array_max_running, 2);
  }
  EXPECT_EQ((*all)[2].array_index, 5);
}

TEST_F(StoreTest, UnknownDependencyLeavesStoreUnchanged) {
  auto st = Store::open(path_);
  auto s = spec();
  s.dependencies = {{DependencyKind::AfterOk, 999}};
  auto ids = st->insert_jobs(s, 1.0);
  ASSERT_FALSE(ids.ok());
  EXPECT_NE(ids.error().find("999"), std::string::npos);
  EXPECT_EQ(*st->count_jobs(), 0);
}

TEST_F(StoreTest, TransitionsAreCheckedAndRecorded) {
  auto st = Store::open(path_);
  auto id = st->insert_jobs(spec(), 1.0)->front();
  EXPECT_FALSE(st->transition(id, JobState::Completed, {}, 2.0).ok());  // PENDING -> COMPLETED
  Transition run;
  run.start_time = 2.0;
  ASSERT_TRUE(st->transition(id, JobState::Running, run, 2.0).ok());
  Transition done;
  done.end_time = 3.0;
  done.exit_code = 0;
  done.cpu_seconds = 0.5;
  done.max_rss_bytes = 4096;
  ASSERT_TRUE(st->transition(id, JobState::Completed, done, 3.0).ok());
  EXPECT_FALSE(st->transition(id, JobState::Running, {}, 4.0).ok());
  auto j = **st->job(id);
  EXPECT_EQ(j.state, JobState::Completed);
  EXPECT_EQ(j.exit_code, 0);
  EXPECT_EQ(j.max_rss_bytes, 4096);
  EXPECT_EQ(j.start_time, 2.0);
  auto ev = st->events(id);
  ASSERT_EQ(ev->size(), 3u);
  EXPECT_EQ((*ev)[2].state, JobState::Completed);
}

TEST_F(StoreTest, AJobBackToPendingHasNoStartAndOneThatNeverStartedLosesItsPlannedStart) {
  auto st = Store::open(path_);
  auto ids = *st->insert_jobs(spec(), 1.0);
  auto second = st->insert_jobs(spec(), 1.0)->front();
  Transition run;
  run.start_time = 2.0;
  ASSERT_TRUE(st->transition(ids.front(), JobState::Running, run, 2.0).ok());
  ASSERT_TRUE(st->transition(ids.front(), JobState::Pending, {}, 3.0).ok());  // requeued
  EXPECT_FALSE((**st->job(ids.front())).start_time.has_value());
  ASSERT_TRUE(st->transition(second, JobState::Running, run, 2.0).ok());
  Transition cancelled;
  cancelled.end_time = 3.0;
  cancelled.never_started = true;
  ASSERT_TRUE(st->transition(second, JobState::Cancelled, cancelled, 3.0).ok());
  auto j = **st->job(second);
  EXPECT_FALSE(j.start_time.has_value());
  EXPECT_EQ(j.end_time, 3.0);
}

TEST_F(StoreTest, ReaderSeesCommittedDataWhileWriterHoldsATransaction) {
  auto writer = Store::open(path_);
  auto id = writer->insert_jobs(spec(), 1.0)->front();
  auto reader = Store::open(path_, Store::Mode::ReadOnly);
  ASSERT_TRUE(reader.ok()) << reader.error();
  auto tx = writer->transaction();
  ASSERT_TRUE(writer->transition(id, JobState::Running, {}, 2.0).ok());
  // The open write transaction does not block the reader, which sees the last commit.
  auto j = reader->job(id);
  ASSERT_TRUE(j.ok()) << j.error();
  EXPECT_EQ((*j)->state, JobState::Pending);
  ASSERT_TRUE(tx.commit().ok());
  EXPECT_EQ((*reader->job(id))->state, JobState::Running);
}

TEST_F(StoreTest, RefusesANewerSchema) {
  { ASSERT_TRUE(Store::open(path_)); }
  {
    auto raw = sql::Db::open(path_, false);  // the file as another program would write it
    ASSERT_TRUE(raw) << raw.error();
    ASSERT_TRUE(raw->exec("PRAGMA user_version = 99").ok());
  }
  auto st = Store::open(path_);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().find("newer"), std::string::npos);
}

TEST_F(StoreTest, ReopenKeepsJobsAndSchemaVersion) {
  { ASSERT_TRUE(Store::open(path_)->insert_jobs(spec(), 1.0).ok()); }
  auto st = Store::open(path_);
  EXPECT_EQ(*st->count_jobs(), 1);
  auto raw = sql::Db::open(path_, true);
  ASSERT_TRUE(raw) << raw.error();
  auto v = raw->prepare("PRAGMA user_version");
  ASSERT_TRUE(*v->step());
  EXPECT_EQ(v->i64(0), schema_version());
}

TEST_F(StoreTest, AnEnvironmentIsStoredOnceUnderADigestThatIsTheSameOnEveryMachine) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st);
  JobSpec s = spec();
  s.env = {{"A", "1"}};
  ASSERT_TRUE(st->insert_jobs(s, 1.0));
  ASSERT_TRUE(st->insert_jobs(s, 2.0));
  auto raw = sql::Db::open(path_, true);
  ASSERT_TRUE(raw) << raw.error();
  auto rows = raw->prepare("SELECT digest, json FROM environments");
  ASSERT_TRUE(rows);
  ASSERT_TRUE(*rows->step());
  // XXH3-64 of the environment's JSON text, and its length: a fixed value, whatever the
  // compiler or the machine (std::hash, used before, promises neither).
  EXPECT_EQ(rows->text(0), "xxh3:6d4d45313c2657c4-9");
  EXPECT_EQ(rows->text(1), R"({"A":"1"})");
  EXPECT_FALSE(*rows->step()) << "the second job's environment was stored again";
  EXPECT_EQ(st->spec(st->job(2)->value().spec_id)->env, s.env);
}

// The environment of the last spec is taken again without its text, but never one a
// rolled-back transaction took away.
TEST_F(StoreTest, AnEnvironmentRolledBackIsStoredAgain) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st);
  JobSpec s = spec();
  s.env = {{"ROLLED", "back"}};
  {
    auto tx = st->transaction();
    ASSERT_TRUE(st->insert_jobs(s, 1.0));
  }  // rolled back: the environment's row is gone
  auto ids = st->insert_jobs(s, 2.0);
  ASSERT_TRUE(ids) << ids.error();
  EXPECT_EQ(st->spec(st->job(ids->front())->value().spec_id)->env, s.env);
  auto again = st->insert_jobs(s, 3.0);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(st->spec(st->job(again->front())->value().spec_id)->env, s.env);
}

TEST_F(StoreTest, UsageChargesPersistInTimeOrder) {
  {
    auto st = Store::open(path_);
    ASSERT_TRUE(st->add_usage({1, "physics", 20.0, 8.0}).ok());
    ASSERT_TRUE(st->add_usage({2, "chem", 10.0, 3.5}).ok());
  }
  auto st = Store::open(path_, Store::Mode::ReadOnly);
  auto u = st->usage();
  ASSERT_TRUE(u.ok()) << u.error();
  ASSERT_EQ(u->size(), 2u);
  EXPECT_EQ((*u)[0].account, "chem");
  EXPECT_EQ((*u)[0].job_id, 2);
  EXPECT_DOUBLE_EQ((*u)[0].core_seconds, 3.5);
  EXPECT_EQ((*u)[1].account, "physics");
  EXPECT_DOUBLE_EQ((*u)[1].time, 20.0);
}

// The store as the daemon holds it open (store_file.h), and what it copies out.
TEST_F(StoreTest, AStoreLeftInPlaceIsNoChange) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st) << st.error();
  StoreFile file(path_);
  ASSERT_TRUE(st->insert_jobs(spec(), 1.0));
  EXPECT_EQ(file.change(), StoreFile::Change::None);
}

TEST_F(StoreTest, ADeletedStoreOrWalIsSeenAndNamed) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st) << st.error();
  ASSERT_TRUE(st->insert_jobs(spec(), 1.0));
  StoreFile file(path_);
  std::filesystem::remove(path_ + "-wal");
  EXPECT_EQ(file.change(), StoreFile::Change::Deleted);
  EXPECT_EQ(file.what(), path_ + "-wal was deleted (or renamed away) while the daemon ran");

  StoreFile again(path_);
  std::filesystem::rename(path_, path_ + ".moved");
  EXPECT_EQ(again.change(), StoreFile::Change::Deleted);
  EXPECT_EQ(again.what(), path_ + " was deleted (or renamed away) while the daemon ran");
}

TEST_F(StoreTest, AFileRenamedOverTheStoreIsAReplacement) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st) << st.error();
  StoreFile file(path_);
  { std::ofstream(path_ + ".new") << "x"; }
  std::filesystem::rename(path_ + ".new", path_);
  EXPECT_EQ(file.change(), StoreFile::Change::Replaced);
  EXPECT_EQ(file.what(), path_ + " was replaced by another file while the daemon ran");
}

TEST_F(StoreTest, TheOpenConnectionCopiesOutEveryJobAfterTheFilesAreDeleted) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st) << st.error();
  ASSERT_TRUE(st->insert_jobs(spec(), 1.0));
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_ + suffix);
  // Acknowledged into the unlinked file: only the open connection holds it.
  auto second = st->insert_jobs(spec(), 2.0);
  ASSERT_TRUE(second) << second.error();

  ASSERT_TRUE(st->copy_to(path_));
  struct stat sb{};
  ASSERT_EQ(::stat(path_.c_str(), &sb), 0);
  EXPECT_EQ(sb.st_mode & 07777, 0600u);
  EXPECT_FALSE(std::filesystem::exists(path_ + ".part"));
  auto back = Store::open(path_);
  ASSERT_TRUE(back) << back.error();
  auto jobs = back->jobs({});
  ASSERT_TRUE(jobs) << jobs.error();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ(jobs->back().id, second->front());
  // The next id follows on: nothing starts again at 1.
  auto third = back->insert_jobs(spec(), 3.0);
  ASSERT_TRUE(third) << third.error();
  EXPECT_EQ(third->front(), second->front() + 1);
}

TEST(ExcerptReason, AShortReasonIsKeptAndALongOneCutBetweenCharacters) {
  EXPECT_EQ(excerpt_reason("qsub: no such queue"), "qsub: no such queue");
  const std::string e_acute = "\xc3\xa9";
  std::string long_reason(kMaxReasonBytes - 1, 'x');
  long_reason += e_acute + std::string(5'000'000, 'y');
  const std::string cut = excerpt_reason(long_reason);
  EXPECT_EQ(cut, std::string(kMaxReasonBytes - 1, 'x') + "... (5000002 bytes more)");
}

}  // namespace
}  // namespace yard
