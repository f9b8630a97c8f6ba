#include "store/store_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "store/store.h"

namespace yard {
namespace {

class StoreFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("yard-store-file-" + std::to_string(::getpid()) + "-" +
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
    return s;
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(StoreFileTest, AStoreLeftInPlaceIsNoChange) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st) << st.error();
  StoreFile file(path_);
  ASSERT_TRUE(st->insert_jobs(spec(), 1.0));
  EXPECT_EQ(file.change(), StoreFile::Change::None);
}

TEST_F(StoreFileTest, ADeletedStoreOrWalIsSeenAndNamed) {
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

TEST_F(StoreFileTest, AFileRenamedOverTheStoreIsAReplacement) {
  auto st = Store::open(path_);
  ASSERT_TRUE(st) << st.error();
  StoreFile file(path_);
  { std::ofstream(path_ + ".new") << "x"; }
  std::filesystem::rename(path_ + ".new", path_);
  EXPECT_EQ(file.change(), StoreFile::Change::Replaced);
  EXPECT_EQ(file.what(), path_ + " was replaced by another file while the daemon ran");
}

TEST_F(StoreFileTest, TheOpenConnectionCopiesOutEveryJobAfterTheFilesAreDeleted) {
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

}  // namespace
}  // namespace yard

namespace yard {
namespace {

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
