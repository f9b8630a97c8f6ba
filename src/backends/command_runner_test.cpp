#include "backends/command_runner.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace yard {
namespace {

TEST(CommandRunner, CapturesStdoutStderrAndExitCode) {
  auto r = run_command({"sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.summary(), "exit 3: err");
}

TEST(CommandRunner, ArgumentsAreNeverInterpretedByAShell) {
  auto r = run_command({"printf", "%s|", "$(echo no)", "a;b", "`x`"}, 10);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.out, "$(echo no)|a;b|`x`|");
}

TEST(CommandRunner, ACommandRunsInTheDirectoryItIsGiven) {
  // A submission runs in its job's directory (OAR takes it for the job's), the rest where
  // the daemon is.
  EXPECT_EQ(run_command({"pwd"}, 10, "/usr").out, "/usr\n");
  auto gone = run_command({"pwd"}, 10, "/no/such/dir");
  EXPECT_TRUE(gone.not_started);
  EXPECT_NE(gone.err.find("cannot run 'pwd' in /no/such/dir"), std::string::npos) << gone.err;
}

TEST(CommandRunner, ATimeOutKillsTheWholeProcessGroup) {
  auto t0 = std::chrono::steady_clock::now();
  // The grandchild keeps the pipe open: only killing the group ends the call.
  auto r = run_command({"sh", "-c", "sleep 30 & sleep 30"}, 0.3);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_LT(s, 10.0);  // not the 30 s of the command
  EXPECT_NE(r.summary().find("timed out"), std::string::npos);
}

TEST(CommandRunner, AMissingProgramIsReportedNotThrown) {
  auto r = run_command({"no-such-program-yard-test"}, 5);
  EXPECT_TRUE(r.not_started);
  EXPECT_NE(r.err.find("no-such-program-yard-test"), std::string::npos);
}

std::vector<CompletedCommand> collect(CommandWorker& w, std::size_t n) {
  std::vector<CompletedCommand> got;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (got.size() < n && std::chrono::steady_clock::now() < deadline) {
    pollfd p{w.event_fd(), POLLIN, 0};
    ::poll(&p, 1, 1000);
    for (auto& c : w.take_completed()) got.push_back(std::move(c));
  }
  return got;
}

TEST(CommandWorker, OneThreadRunsPostedCommandsInOrderAndSignalsTheEventFd) {
  CommandWorker w(1);
  w.post({1, {"echo", "one"}, 5, "", ""});
  w.post({2, {"echo", "two"}, 5, "", ""});
  auto got = collect(w, 2);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].command.tag, 1u);
  EXPECT_EQ(got[0].result.out, "one\n");
  EXPECT_EQ(got[1].result.out, "two\n");
}

TEST(CommandWorker, SeveralThreadsRunCommandsSideBySideEachResultWithItsTag) {
  CommandWorker w(3);
  // The first waits until the second has run: only side by side can both end.
  const std::string flag = "/tmp/yard-worker-test-" + std::to_string(::getpid());
  ::unlink(flag.c_str());
  w.post({1, {"sh", "-c", "while [ ! -e " + flag + " ]; do sleep 0.01; done; echo one"}, 20, "", ""});
  w.post({2, {"sh", "-c", "touch " + flag + "; echo two"}, 20, "", ""});
  auto got = collect(w, 2);
  ::unlink(flag.c_str());
  ASSERT_EQ(got.size(), 2u);
  std::sort(got.begin(), got.end(), [](auto& a, auto& b) { return a.command.tag < b.command.tag; });
  EXPECT_EQ(got[0].result.out, "one\n");
  EXPECT_EQ(got[1].result.out, "two\n");
}

}  // namespace
}  // namespace yard

namespace yard {
namespace {

TEST(CommandRunner, StdinFromAFileWhenGivenElseNothing) {
  const std::string path = "/tmp/yard-command-runner-stdin-" + std::to_string(::getpid());
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("#BSUB -J x\necho hi\n", f);
    std::fclose(f);
  }
  EXPECT_EQ(run_command({"cat"}, 10, "", path).out, "#BSUB -J x\necho hi\n");
  EXPECT_EQ(run_command({"cat"}, 10).out, "");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace yard
