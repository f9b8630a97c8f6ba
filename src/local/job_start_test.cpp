#include "local/job_start.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "local/host_protocol.h"

namespace yard {
namespace {

LaunchPlan plan_in(const std::string& dir, std::vector<std::string> argv) {
  LaunchPlan p;
  p.job_id = 5;
  p.argv = std::move(argv);
  p.env = {"PATH=/usr/bin:/bin", "GREETING=it's \"quoted\" $(not run)"};
  p.workdir = dir;
  p.stdout_path = dir + "/out";
  p.stderr_path = dir + "/out";
  return p;
}

int wait_exit(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class JobStart : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/yard-job-start-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST(CommandCandidates, FollowPathLikeExecvpe) {
  EXPECT_EQ(command_candidates("./a.out", "/x:/y"), std::vector<std::string>{"./a.out"});
  EXPECT_EQ(command_candidates("tool", "/x::/y"), (std::vector<std::string>{"/x/tool", "./tool", "/y/tool"}));
}

TEST_F(JobStart, RunsInItsDirectoryWithItsEnvironmentAndOutput) {
  auto s = start_job(plan_in(dir_, {"sh", "-c", "pwd; echo \"$GREETING\"; exit 3"}));
  ASSERT_GT(s.pid, 0) << s.error;
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(::getpgid(s.pid), s.pid);  // the leader of its own group (a zombie until waited for)
  EXPECT_EQ(wait_exit(s.pid), 3);
  EXPECT_EQ(slurp(dir_ + "/out"), dir_ + "\nit's \"quoted\" $(not run)\n");
}

TEST_F(JobStart, OutputFilesAreTruncatedUnlessAppendIsAsked) {
  std::ofstream(dir_ + "/out") << "an earlier run's output\n";
  std::ofstream(dir_ + "/err") << "an earlier run's errors\n";
  auto p = plan_in(dir_, {"sh", "-c", "echo out; echo err >&2"});
  p.stderr_path = dir_ + "/err";
  auto s = start_job(p);  // truncate: as sbatch, and again at every (re)start
  ASSERT_GT(s.pid, 0) << s.error;
  EXPECT_EQ(wait_exit(s.pid), 0);
  EXPECT_EQ(slurp(dir_ + "/out"), "out\n");
  EXPECT_EQ(slurp(dir_ + "/err"), "err\n");
  p.append_output = true;  // --open-mode=append
  s = start_job(p);
  ASSERT_GT(s.pid, 0) << s.error;
  EXPECT_EQ(wait_exit(s.pid), 0);
  EXPECT_EQ(slurp(dir_ + "/out"), "out\nout\n");
  EXPECT_EQ(slurp(dir_ + "/err"), "err\nerr\n");
}

TEST_F(JobStart, AMissingCommandIsReportedByName) {
  auto s = start_job(plan_in(dir_, {"no-such-command-xyz"}));
  ASSERT_GT(s.pid, 0);
  EXPECT_EQ(wait_exit(s.pid), 127);
  EXPECT_NE(s.error.find("cannot run 'no-such-command-xyz'"), std::string::npos) << s.error;
  EXPECT_NE(s.error.find("No such file"), std::string::npos) << s.error;
}

TEST_F(JobStart, AScriptWithoutInterpreterLineRunsWithSh) {
  {
    std::ofstream f(dir_ + "/plain.sh");
    f << "echo from-sh \"$1\"\n";
  }
  std::filesystem::permissions(dir_ + "/plain.sh", std::filesystem::perms::owner_all);
  auto s = start_job(plan_in(dir_, {dir_ + "/plain.sh", "arg"}));
  ASSERT_GT(s.pid, 0) << s.error;
  EXPECT_EQ(wait_exit(s.pid), 0);
  EXPECT_EQ(slurp(dir_ + "/out"), "from-sh arg\n");
}

TEST_F(JobStart, AMissingWorkingDirectoryIsReportedByName) {
  auto p = plan_in(dir_, {"true"});
  p.workdir = dir_ + "/gone";
  auto s = start_job(p);
  ASSERT_GT(s.pid, 0);
  EXPECT_EQ(wait_exit(s.pid), 127);
  EXPECT_NE(s.error.find("cannot enter working directory " + dir_ + "/gone"), std::string::npos) << s.error;
}

TEST_F(JobStart, AnOutputLinkPlantedByAnotherUserInAStickyDirectoryIsNotFollowed) {
  // dir_ as /tmp is: sticky and world-writable. A file of "ours" that another user (65534,
  // nobody) points a link at, where the job writes its output.
  ASSERT_EQ(::chmod(dir_.c_str(), 01777), 0);
  std::ofstream(dir_ + "/precious") << "keep me\n";
  ASSERT_EQ(::symlink((dir_ + "/precious").c_str(), (dir_ + "/out").c_str()), 0);
  ASSERT_EQ(::lchown((dir_ + "/out").c_str(), 65534, 65534), 0) << "the test runs as root";
  EXPECT_TRUE(is_planted_link((dir_ + "/out").c_str(), dir_.c_str()));
  auto s = start_job(plan_in(dir_, {"sh", "-c", "echo overwritten"}));
  ASSERT_GT(s.pid, 0);
  EXPECT_EQ(wait_exit(s.pid), 127);
  EXPECT_EQ(s.error, "output file " + dir_ + "/out is a symbolic link that another user made in a shared directory; "
                     "not followed: Permission denied");
  EXPECT_EQ(slurp(dir_ + "/precious"), "keep me\n");

  // The user's own link, or one in a directory that is not shared, is followed.
  ASSERT_EQ(::lchown((dir_ + "/out").c_str(), ::getuid(), ::getgid()), 0);
  EXPECT_FALSE(is_planted_link((dir_ + "/out").c_str(), dir_.c_str()));
  ASSERT_EQ(::lchown((dir_ + "/out").c_str(), 65534, 65534), 0);
  ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);
  EXPECT_FALSE(is_planted_link((dir_ + "/out").c_str(), dir_.c_str()));
  s = start_job(plan_in(dir_, {"sh", "-c", "echo followed"}));
  EXPECT_EQ(wait_exit(s.pid), 0) << s.error;
  EXPECT_EQ(slurp(dir_ + "/precious"), "followed\n");
}

TEST(JobStartPaths, TheParentDirectoryOfAnOutputPath) {
  EXPECT_EQ(parent_directory("/tmp/x.out", "/home/u"), "/tmp");
  EXPECT_EQ(parent_directory("x.out", "/home/u"), "/home/u");
  EXPECT_EQ(parent_directory("logs/x.out", "/home/u"), "/home/u/logs");
  EXPECT_EQ(parent_directory("/x.out", "/home/u"), "/");
}

TEST(HostProtocol, LaunchAndEndedRoundTrip) {
  LaunchPlan p;
  p.uid = "yd1";
  p.argv = {"echo", "a\nb"};
  p.env = {"X=1"};
  p.workdir = "/";
  p.stdout_path = p.stderr_path = "/dev/null";
  p.pus = {0, 1};
  p.walltime_s = 60;
  auto d = decode_launch(encode_launch(42, p));
  EXPECT_EQ(d.job_id, 42);
  ASSERT_TRUE(d.plan) << d.plan.error();
  EXPECT_EQ(d.plan->argv, p.argv);
  EXPECT_EQ(d.plan->pus, p.pus);
  EXPECT_EQ(d.plan->walltime_s, 60);
  EXPECT_FALSE(d.plan->append_output);
  p.append_output = true;
  EXPECT_TRUE(decode_launch(encode_launch(42, p)).plan->append_output);
  // Every field, and texts that are not plain: quotes, controls, bytes that are not UTF-8.
  p.argv = {"say \"hi\"\t\\", std::string("\xff\xfe", 2)};
  p.env = {"X=1", std::string("BIN=\x80\x01", 6), "EMPTY="};
  p.workdir = "/w\"d";
  p.mem_limit_bytes = 3ull << 30;
  p.memory_poll = true;
  p.warn_signal = 10;
  p.warn_before_s = 30;
  p.warn_batch_only = true;
  p.kill_grace_s = 7;
  auto all = decode_launch(encode_launch(43, p, 41));
  ASSERT_TRUE(all.plan) << all.plan.error();
  EXPECT_EQ(all.job_id, 43);
  EXPECT_EQ(all.after, 41);
  EXPECT_EQ(all.plan->uid, "yd1");
  EXPECT_EQ(all.plan->argv, p.argv);
  EXPECT_EQ(all.plan->env, p.env);
  EXPECT_EQ(all.plan->workdir, p.workdir);
  EXPECT_EQ(all.plan->mem_limit_bytes, p.mem_limit_bytes);
  EXPECT_TRUE(all.plan->memory_poll);
  EXPECT_EQ(all.plan->warn_signal, 10);
  EXPECT_EQ(all.plan->warn_before_s, 30);
  EXPECT_TRUE(all.plan->warn_batch_only);
  EXPECT_EQ(all.plan->kill_grace_s, 7);

  RunOutcome o;
  o.state = JobState::Failed;
  o.exit_code = 2;
  auto e = decode_ended(encode_ended(42, "job_pid=9\n" + format_outcome(o)));
  EXPECT_EQ(e.job_id, 42);
  EXPECT_EQ(e.record.job_pid, 9);
  ASSERT_TRUE(e.record.outcome);
  EXPECT_EQ(e.record.outcome->exit_code, 2);
}

TEST(HostProtocol, AMalformedPlanKeepsItsJobIdAndSaysWhy) {
  auto d = decode_launch("17\n{\"argv\": 3}");
  EXPECT_EQ(d.job_id, 17);
  ASSERT_FALSE(d.plan);
  EXPECT_NE(d.plan.error().find("malformed launch plan"), std::string::npos);
  EXPECT_FALSE(decode_launch("no id at all").plan);
}

}  // namespace
}  // namespace yard
