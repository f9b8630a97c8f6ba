// Nobody but the owner reads a user's store: it holds every job's environment (with
// --export ALL, the default: tokens, cloud keys, passwords), arguments and script. The
// world's directory is made 0755, as Debian's `useradd -m` makes a home, and another Unix
// user, created by the test and removed after it, tries to read what yard wrote.
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "harness.h"

namespace yard::test {
namespace {

class Privacy : public YardWorld {
 protected:
  void SetUp() override {
    YardWorld::SetUp();
    // One user per test (tests run in parallel, each in its own process).
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    peer_ = "yardpeek" + std::to_string(std::hash<std::string>{}(info->name()) % 10000);
    ASSERT_TRUE(wait_until(
        [&] {
          int rc = 0;
          sh("useradd --system --no-create-home --shell /usr/sbin/nologin " + peer_ + " 2>/dev/null", &rc);
          return rc == 0 || ::getpwnam(peer_.c_str()) != nullptr;  // /etc/passwd may be locked a moment
        },
        30))
        << "cannot create the user " << peer_;
    created_ = true;
    ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);
  }
  void TearDown() override {
    YardWorld::TearDown();
    if (created_) wait_until([&] { return ::getpwnam(peer_.c_str()) == nullptr || (sh("userdel " + peer_), false); }, 30);
  }

  // What the other user can read of `path` (empty when refused).
  std::string as_peer_read(const std::string& path) {
    return sh("runuser -u " + peer_ + " -- cat " + path + " 2>/dev/null");
  }
  static unsigned mode_of(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
  }

  std::string peer_;
  bool created_ = false;
};

TEST_F(Privacy, AnotherUserReadsNothingOfTheStoreNorAnythingBesideIt) {
  write("job.sh", "#!/bin/sh\necho TOKEN=abc123 > /dev/null\n");
  const long a = submit({"-o", "/dev/null", "--", "true"});
  const long b = submit({"-o", "/dev/null", "job.sh"});
  // The submitting shell's secret travels with the job (--export ALL): the store holds it.
  ASSERT_EQ(yard({"submit", "-o", "/dev/null", "--", "true"}, {"AWS_SECRET_ACCESS_KEY=hunter2"}).rc, 0);
  ASSERT_EQ(wait({a, b}), 0);

  const std::string state = dir_ + "/state/switchyard";
  EXPECT_EQ(mode_of(state), 0700u);
  for (const char* f : {"/store.db", "/store.db-wal", "/store.db-shm", "/daemon.log", "/daemon.lock"}) {
    if (!std::filesystem::exists(state + f)) continue;
    EXPECT_EQ(mode_of(state + f), 0600u) << f;
  }
  // The files are there, and hold the secrets; the other user reads none of them.
  EXPECT_NE(sh("cat " + state + "/store.db* | grep -c hunter2"), "0\n");
  EXPECT_EQ(sh("runuser -u " + peer_ + " -- sh -c 'cat " + state + "/store.db* 2>/dev/null' | grep -c -e hunter2 -e abc123"),
            "0\n");
  EXPECT_EQ(as_peer_read(state + "/store.db"), "");
  int rc = 0;
  sh("runuser -u " + peer_ + " -- ls " + state + " >/dev/null 2>&1", &rc);
  EXPECT_NE(rc, 0) << "the other user can list the state directory";
}

TEST_F(Privacy, AStoreLeftReadableByAnOlderYardIsMadePrivateWithALogLine) {
  ASSERT_EQ(yard({"submit", "-o", "/dev/null", "--", "true"}, {"AWS_SECRET_ACCESS_KEY=hunter2"}).rc, 0);
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  const std::string state = dir_ + "/state/switchyard";
  ASSERT_TRUE(wait_until([&] { return daemon_pid() == 0; }, 30));
  // What yard 0.1 left: a 0755 directory and a 0644 store.
  ASSERT_EQ(::chmod(state.c_str(), 0755), 0);
  ASSERT_EQ(::chmod((state + "/store.db").c_str(), 0644), 0);
  ASSERT_NE(as_peer_read(state + "/store.db"), "") << "the setting up did not open the store";

  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  EXPECT_EQ(mode_of(state), 0700u);
  EXPECT_EQ(mode_of(state + "/store.db"), 0600u);
  EXPECT_EQ(as_peer_read(state + "/store.db"), "");
  const std::string log = read("state/switchyard/daemon.log");
  EXPECT_NE(log.find("made " + state + " private (0700; it was 0755)"), std::string::npos) << log;
  EXPECT_NE(log.find("made " + state + "/store.db private (0600; it was 0644)"), std::string::npos) << log;
}

}  // namespace
}  // namespace yard::test
