// What a client says when its daemon stalls, and what the daemon does when its files are
// taken from under it: never a false "failed" for a request that is then carried out,
// never an acknowledgement into a file no one will read.
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "harness.h"

namespace yard::test {
namespace {

class DaemonFaults : public YardWorld {
 protected:
  void TearDown() override {
    if (stopped_ > 0) ::kill(static_cast<pid_t>(stopped_), SIGCONT);
    sh("chattr -i " + state() + "/store.db* 2>/dev/null");  // whatever a failed test left immutable
    YardWorld::TearDown();
  }
  // Lines of the ledger the test's jobs append to.
  std::vector<std::string> ledger() const {
    std::vector<std::string> lines;
    std::ifstream f(dir_ + "/ledger");
    for (std::string l; std::getline(f, l);) lines.push_back(l);
    return lines;
  }
  std::vector<std::string> tagged(const std::string& tag) const {
    return {"submit", "-o", "/dev/null", "--", "sh", "-c", "echo " + tag + " >> " + dir_ + "/ledger"};
  }
  std::string state() const { return dir_ + "/state/switchyard"; }
  long stopped_ = 0;  // a daemon the test stopped (SIGSTOP), continued whatever happens
};

TEST_F(DaemonFaults, ASilentDaemonMakesTheOutcomeUnknownNeverFailed) {
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  stopped_ = daemon_pid();
  ASSERT_GT(stopped_, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(stopped_), SIGSTOP), 0);
  // Two seconds of patience: the request sits in the socket of a daemon that holds its
  // state directory; it may yet be carried out.
  Output o = yard(tagged("late"), {"YARD_PATIENCE=2"}, 120);
  EXPECT_EQ(o.rc, 4) << o.err;
  EXPECT_NE(o.err.find("the daemon (pid " + std::to_string(stopped_) + ") did not answer"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("whether the request was carried out is unknown"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("did not start"), std::string::npos) << o.err;
  // It was: once the daemon goes on, the job is stored and runs, once.
  ASSERT_EQ(::kill(static_cast<pid_t>(stopped_), SIGCONT), 0);
  stopped_ = 0;
  ASSERT_TRUE(wait_until([&] { return ledger().size() == 1; }, 60));
  EXPECT_EQ(ledger(), std::vector<std::string>{"late"});
}

TEST_F(DaemonFaults, AStalledDaemonIsWaitedForAndTheJobStoredOnce) {
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  stopped_ = daemon_pid();
  ASSERT_EQ(::kill(static_cast<pid_t>(stopped_), SIGSTOP), 0);
  Output o;
  std::thread submitter([&] { o = yard(tagged("once"), {}, 300); });
  // The client connected and waits (the daemon has not read a byte): let it go on after
  // a while, as a disk that was busy.
  std::this_thread::sleep_for(std::chrono::seconds(3));  // the length of the stall itself, not a wait for a condition
  ASSERT_EQ(::kill(static_cast<pid_t>(stopped_), SIGCONT), 0);
  stopped_ = 0;
  submitter.join();
  EXPECT_EQ(o.rc, 0) << o.err;
  ASSERT_TRUE(wait_until([&] { return ledger().size() == 1; }, 60));
  EXPECT_EQ(status().size(), 1u);
}

TEST_F(DaemonFaults, AJobOverTheRequestLimitIsRefusedAtOnceAndNeverSent) {
  {
    std::ofstream f(dir_ + "/big.sh");
    f << "#!/bin/sh\n";
    const std::string line = "# " + std::string(1000, 'x') + "\n";
    for (int i = 0; i < 70000; ++i) f << line;
    f << "echo done\n";
  }
  Output o = yard({"submit", "big.sh"}, {}, 120);
  EXPECT_EQ(o.rc, 2) << o.err;
  // The script is refused as it is read (it is over the limit alone).
  EXPECT_NE(o.err.find("big.sh' is 67.0 MiB; at most 64.0 MiB can be read"), std::string::npos) << o.err;
  EXPECT_EQ(daemon_pid(), 0) << "a daemon was started for a request that could never be sent";
}

TEST_F(DaemonFaults, ADeletedStoreIsPutBackWithEveryJobAndIdsGoOn) {
  for (const char* tag : {"a", "b", "c"}) ASSERT_EQ(yard(tagged(tag)).rc, 0);
  const long before = daemon_pid();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(state() + "/store.db" + suffix);
  Output o = yard({"submit", "--json", "-o", "/dev/null", "--", "true"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.out.find("\"id\":4"), std::string::npos) << o.out;
  ASSERT_TRUE(std::filesystem::exists(state() + "/store.db"));
  EXPECT_EQ(status().size(), 4u);
  const std::string log = read("state/switchyard/daemon.log");
  EXPECT_NE(log.find("store.db was deleted (or renamed away) while the daemon ran; put the store back"),
            std::string::npos)
      << log;
  // A stop and a start later, the ids go on from 5: yard-1.out belongs to job 1 still.
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(before) && daemon_pid() == 0; }, 30));
  EXPECT_EQ(submit({"-o", "/dev/null", "--", "true"}), 5);
}

TEST_F(DaemonFaults, AStateDirectoryRemovedWholeIsAFreshStartNotUndone) {
  const long a = submit({"-o", "/dev/null", "--", "true"});
  ASSERT_EQ(wait({a}), 0);
  const long pid = daemon_pid();
  std::filesystem::rename(state(), dir_ + "/state/gone");  // as rm -rf, at once
  // The old daemon stops (refusing this request, or before it); a new one starts afresh.
  Output o = yard({"submit", "--json", "-o", "/dev/null", "--", "true"}, {}, 120);
  EXPECT_TRUE(wait_until([&] { return !process_alive(pid); }, 30)) << "the daemon went on without its directory";
  if (o.rc == 0) {
    EXPECT_NE(o.out.find("\"id\":1"), std::string::npos) << "the removed store was put back: " << o.out;
  }
  EXPECT_LE(status().size(), 1u) << "the removed store was put back";
}

TEST_F(DaemonFaults, AReplacedStoreIsLeftAloneTheDaemonStopsAndKeepsWhatItHeld) {
  const long a = submit({"-o", "/dev/null", "--", "true"});
  ASSERT_EQ(wait({a}), 0);
  const long pid = daemon_pid();
  { std::ofstream(dir_ + "/other.db") << "someone else's file\n"; }
  std::filesystem::rename(dir_ + "/other.db", state() + "/store.db");
  // The daemon sees it at its next iteration: this request's, or one before it (it then
  // stopped, and this request found none, or was dropped unanswered: outcome unknown).
  Output o = yard({"submit", "-o", "/dev/null", "--", "true"}, {}, 120);
  EXPECT_TRUE(o.rc == 1 || o.rc == 4) << o.rc << ": " << o.err;
  EXPECT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
  EXPECT_NE(read("state/switchyard/daemon.log")
                .find("store.db was replaced by another file while the daemon ran: the daemon stops; the jobs it held "
                      "are kept in " + state() + "/store.db.held-"),
            std::string::npos);
  EXPECT_EQ(read("state/switchyard/store.db"), "someone else's file\n");
  bool kept = false;
  for (auto& e : std::filesystem::directory_iterator(state()))
    kept = kept || (e.path().filename().string().rfind("store.db.held-", 0) == 0 && e.file_size() > 0 &&
                    e.path().extension() != ".part");
  EXPECT_TRUE(kept);
  // What is at the store's path now is named for what it is, by the CLI and by a daemon
  // that would start on it: the old store's -wal went with its copy.
  Output st = yard({"status"});
  EXPECT_EQ(st.rc, 1);
  EXPECT_NE(st.err.find("is not a yard store (file is not a database)"), std::string::npos) << st.err;
  EXPECT_EQ(st.err.find("SELECT"), std::string::npos) << st.err;
  Output again = yard({"submit", "-o", "/dev/null", "--", "true"}, {}, 120);
  EXPECT_EQ(again.rc, 1);
  EXPECT_NE(again.err.find("is not a yard store"), std::string::npos) << again.err;
}

TEST_F(DaemonFaults, ARemovedRuntimeDirectoryIsMadeAgain) {
  ASSERT_EQ(yard(tagged("a")).rc, 0);
  const long pid = daemon_pid();
  // Gone at once (a remove_all would race the daemon, which binds its socket again as
  // soon as the file goes): moved away, then removed.
  std::filesystem::rename(dir_ + "/run/switchyard", dir_ + "/run/gone");
  std::filesystem::remove_all(dir_ + "/run/gone");
  Output o = yard({"submit", "-o", "/dev/null", "--", "true"}, {}, 120);
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(daemon_pid(), pid) << "the daemon was stranded, and another one started";
  EXPECT_NE(read("state/switchyard/daemon.log").find("was removed; made it again (0700)"), std::string::npos);
}

TEST_F(DaemonFaults, AStoreThatCannotBeWrittenFailsEverySubmissionAlike) {
  ASSERT_EQ(yard(tagged("a")).rc, 0);
  ASSERT_TRUE(wait_until([&] { return ledger().size() == 1; }, 60));
  const long pid = daemon_pid();
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 30));
  const std::string store = state() + "/store.db";
  int rc = 0;
  sh("chattr +i " + store + " 2>&1", &rc);
  ASSERT_EQ(rc, 0) << "chattr needs root and an ext4 /tmp";
  // Each submission is refused the same way, naming the store: unavailable (1), never
  // bad input (2), and nothing runs.
  for (const char* tag : {"b", "c", "d"}) {
    Output o = yard(tagged(tag), {}, 120);
    EXPECT_EQ(o.rc, 1) << tag << ": " << o.err;
    EXPECT_NE(o.err.find(store), std::string::npos) << o.err;
  }
  sh("chattr -i " + store);
  ASSERT_EQ(yard(tagged("e"), {}, 120).rc, 0);
  ASSERT_TRUE(wait_until([&] { return ledger().size() == 2; }, 60));
  EXPECT_EQ(ledger(), (std::vector<std::string>{"a", "e"}));
}

TEST_F(DaemonFaults, TheDaemonWorksFromTheRootNotFromWhereItWasStarted) {
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  const long pid = daemon_pid();
  EXPECT_EQ(std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/cwd").string(), "/");
}

}  // namespace
}  // namespace yard::test
