// The batch script the Slurm dialect writes, run for real by bash (no Slurm needed): the
// job's command, arguments and environment arrive byte for byte, however hostile.
#include "backends/slurm/slurm_script.h"
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include "backends/slurm/slurm_dialect.h"
#include "backends/slurm/slurm_quote.h"
#include "backends/slurm/sbatch_word_testing.h"
#include "core/batch_directives.h"

namespace yard {
namespace {

namespace fs = std::filesystem;

const std::string kUid = "yd00112233445566ff";

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const fs::path& p, const std::string& text, bool executable = false) {
  std::ofstream(p, std::ios::binary) << text;
  if (executable) fs::permissions(p, fs::perms::owner_all);
}

std::vector<std::string> split_nul(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    auto end = s.find('\0', start);
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Runs `script` with bash, as Slurm would (bash ignores #SBATCH lines), in the
// environment sbatch --export=ALL hands on: the submitter's (here PATH and a variable
// that must not reach the job) plus Slurm's own. Returns bash's wait status.
int run_bash(const fs::path& script) {
  std::string path_env = "PATH=/usr/bin:/bin", leaked = "LEAKED_FROM_SUBMITTER=yes", slurm = "SLURM_JOB_ID=77";
  std::string bash = "/bin/bash", file = script.string();
  char* argv[] = {bash.data(), file.data(), nullptr};
  char* envp[] = {path_env.data(), leaked.data(), slurm.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, "/bin/bash", nullptr, nullptr, argv, envp) != 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

// Values that break naive quoting; each must reach the job byte for byte.
std::vector<std::string> hostile(const fs::path& dir) {
  const std::string p = dir.string();
  return {"",
          "plain",
          "two words",
          "it's",
          "'",
          "''",
          "\"double\"",
          "$(touch " + p + "/pwned1)",
          "`touch " + p + "/pwned2`",
          "; touch " + p + "/pwned3",
          "x' ; touch " + p + "/pwned4 ; echo '",
          "$HOME ${PATH} $1 $@ $$ !! ~ *",
          "line1\nline2\n",
          "\n",
          "cr\rlf\r\n",
          "tab\there",
          "back\\slash\\",
          std::string("\xff\xfe\x80 non-utf8 \xc3\x28", 13),
          "YARD_SCRIPT_END_" + kUid,
          "#SBATCH --wrap=evil",
          "--",
          "-n",
          "%j %x %%"};
}

class SlurmScriptRun : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/yard-slurm-script-test.XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    dir_ = tmpl;
    out_ = dir_ / "out";
    fs::create_directory(out_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  JobSpec spec() {
    JobSpec s;
    s.name = "probe";
    s.workdir = (dir_ / "work dir 'x'").string();
    fs::create_directory(s.workdir);
    s.env["YARD_PROBE_OUT"] = out_.string();
    auto values = hostile(dir_);
    for (std::size_t i = 0; i < values.size(); ++i) s.env["V" + std::to_string(i)] = values[i];
    s.env["yard_script"] = "not the wrapper's";
    s.env["LC_ALL"] = "C.UTF-8";  // set before the non-UTF-8 values are read
    s.env["TMPDIR"] = (dir_ / "no such dir").string();  // must not break the wrapper
    return s;
  }

  // What the job saw: its arguments, environment and working directory.
  void check_job_saw(const JobSpec& s, const std::vector<std::string>& args) {
    EXPECT_EQ(split_nul(read_file(out_ / "argv")), args);
    EXPECT_EQ(read_file(out_ / "pwd"), s.workdir + "\n");
    std::map<std::string, std::string> env;
    for (auto& kv : split_nul(read_file(out_ / "env"))) {
      auto eq = kv.find('=');
      env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    for (auto& [k, v] : s.env) EXPECT_EQ(env[k], v) << k;
    for (auto& [k, v] : env)
      EXPECT_TRUE(s.env.count(k) || k == "PATH" || k == "PWD" || k == "SHLVL" || k == "_" || k == "OLDPWD" ||
                  k == "SLURM_EXPORT_ENV" || k == "SLURM_JOB_ID")
          << "unexpected variable " << k << "=" << v;
    EXPECT_EQ(env["SLURM_EXPORT_ENV"], "ALL");
    EXPECT_EQ(env["SLURM_JOB_ID"], "77");  // Slurm's own variables stay
    EXPECT_EQ(env.count("LEAKED_FROM_SUBMITTER"), 0u);
    for (int i = 1; i <= 4; ++i) EXPECT_FALSE(fs::exists(dir_ / ("pwned" + std::to_string(i)))) << i;
  }

  fs::path dir_, out_;
};

// The probe writes its argv (NUL-separated), environment and working directory.
const char* kProbe =
    "#!/bin/bash\n"
    "printf '%s\\0' \"$@\" > \"$YARD_PROBE_OUT/argv\"\n"
    "env -0 > \"$YARD_PROBE_OUT/env\"\n"
    "pwd > \"$YARD_PROBE_OUT/pwd\"\n"
    "printf '%s' \"$0\" > \"$YARD_PROBE_OUT/self\"\n"
    "exit 7\n";

TEST_F(SlurmScriptRun, CommandSeesHostileArgumentsAndEnvironmentByteForByte) {
  const fs::path probe = dir_ / "probe prog";
  write_file(probe, kProbe, true);
  JobSpec s = spec();
  s.argv = {probe.string()};
  auto args = hostile(dir_);
  s.argv.insert(s.argv.end(), args.begin(), args.end());
  s.name = "a'b$(touch " + (dir_ / "pwned1").string() + ")";
  auto script = slurm_batch_script(s, SubmitContext{kUid, "", "", {}, {}});
  ASSERT_TRUE(script.ok()) << script.error();
  EXPECT_EQ(script->find("\r\n"), std::string::npos);  // sbatch refuses DOS line breaks
  write_file(dir_ / "job.sh", *script);
  const int status = run_bash(dir_ / "job.sh");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7) << *script;
  check_job_saw(s, args);
}

TEST_F(SlurmScriptRun, ScriptBodyRunsByItsInterpreterWithHostileArguments) {
  JobSpec s = spec();
  // The body holds lines that look like the here-document's end and like directives.
  s.script = std::string(kProbe) + "YARD_SCRIPT_END_" + kUid + "\n#SBATCH --wrap=x\n'\n$(touch " +
             (dir_ / "pwned1").string() + ")\n";
  // ... which are never reached: the probe exits 7 first.
  s.argv = hostile(dir_);
  auto script = slurm_batch_script(s, SubmitContext{kUid, "", "", {}, {}});
  ASSERT_TRUE(script.ok()) << script.error();
  write_file(dir_ / "job.sh", *script);
  const int status = run_bash(dir_ / "job.sh");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7) << *script;
  check_job_saw(s, s.argv);
  // The body ran from a temporary copy, gone once the job ended.
  const std::string self = read_file(out_ / "self");
  EXPECT_NE(self.find("yard-script."), std::string::npos) << self;
  EXPECT_FALSE(fs::exists(self)) << self;
}

TEST_F(SlurmScriptRun, ScriptBodyIsCopiedExactly) {
  JobSpec s = spec();
  s.script = "#!/bin/sh\ncat \"$0\" > \"$YARD_PROBE_OUT/body\"\n\tindented $(not run) `nor this` '\n";
  auto script = slurm_batch_script(s, SubmitContext{kUid, "", "", {}, {}});
  ASSERT_TRUE(script.ok()) << script.error();
  write_file(dir_ / "job.sh", *script);
  const int status = run_bash(dir_ / "job.sh");
  // The body's last line is a shell syntax error after the copy was made.
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(read_file(out_ / "body"), s.script);
}

TEST_F(SlurmScriptRun, UnwritableJobEnvironmentDoesNotBreakTheWrapper) {
  JobSpec s = spec();
  s.script = std::string(kProbe);
  s.env["PATH"] = "/nonexistent";
  auto script = slurm_batch_script(s, SubmitContext{kUid, "", "", {}, {}});
  ASSERT_TRUE(script.ok()) << script.error();
  write_file(dir_ / "job.sh", *script);
  const int status = run_bash(dir_ / "job.sh");
  // `env` cannot be found with the job's PATH, but the probe itself ran: its argv is there.
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_TRUE(fs::exists(out_ / "argv"));
}

}  // namespace
}  // namespace yard
