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
#include "core/batch_directives.h"

extern char** environ;

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
  auto script = slurm_batch_script(s, SubmitContext{kUid, "", "", {}});
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
  auto script = slurm_batch_script(s, SubmitContext{kUid, "", "", {}});
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
  auto script = slurm_batch_script(s, SubmitContext{kUid, "", "", {}});
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
  auto script = slurm_batch_script(s, SubmitContext{kUid, "", "", {}});
  ASSERT_TRUE(script.ok()) << script.error();
  write_file(dir_ / "job.sh", *script);
  const int status = run_bash(dir_ / "job.sh");
  // `env` cannot be found with the job's PATH, but the probe itself ran: its argv is there.
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_TRUE(fs::exists(out_ / "argv"));
}

// sbatch's reading of an #SBATCH word (src/sbatch/opt.c): a backslash escapes the next
// character even inside quotes, quotes group, an unquoted # ends the line.
std::string sbatch_word(std::string_view s) {
  std::string out;
  bool esc = false;
  char quote = 0;
  for (char c : s) {
    if (esc) {
      out += c;
      esc = false;
    } else if (c == '\\') {
      esc = true;
    } else if (quote) {
      if (c == quote) quote = 0; else out += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' || c == ' ' || c == '\t') {
      break;
    } else {
      out += c;
    }
  }
  return out;
}

std::string directive(const std::string& script, const std::string& option) {
  const std::string key = "#SBATCH --" + option + "=";
  auto pos = script.find("\n" + key);
  if (pos == std::string::npos) return "<none>";
  auto start = pos + 1 + key.size();
  return sbatch_word(std::string_view(script).substr(start, script.find('\n', start) - start));
}

JobSpec basic() {
  JobSpec s;
  s.name = "job";
  s.argv = {"/bin/true"};
  s.workdir = "/w";
  return s;
}

Result<std::string> gen(const JobSpec& s, SubmitContext ctx = {kUid, "", "", {}}) {
  return SlurmDialect().batch_script(s, ctx);
}

TEST(SlurmScript, Directives) {
  JobSpec s = basic();
  s.res.nodes = 2;
  s.res.ntasks = 8;
  s.res.cpus_per_task = 4;
  s.res.mem_bytes = 1024 * 1024 * 1024 + 1;
  s.res.gpus = 4;
  s.res.walltime_s = 2 * 86400 + 3 * 3600 + 4 * 60 + 5;
  s.partition = "cpu";
  s.account = "proj 1#x'y\"z\\";
  s.qos = "high";
  s.priority = -10;
  s.array = ArraySpec{{0, 1, 2, 3, 7, 9, 11, 13, 20, 22}, 5};
  SubmitContext ctx{kUid, "/o/%x-%j.out", "/o/100%-%a_%A.err", {}};
  ctx.dependencies = {{DependencyKind::AfterOk, "12"}, {DependencyKind::AfterAny, "13_2"},
                      {DependencyKind::AfterOk, "14+1"}, {DependencyKind::AfterNotOk, "15"}};
  auto r = gen(s, ctx);
  ASSERT_TRUE(r.ok()) << r.error();
  const std::string& t = *r;
  EXPECT_EQ(t.rfind("#!/bin/bash\n", 0), 0u);
  EXPECT_EQ(directive(t, "job-name"), "yard-" + kUid + "-job");
  EXPECT_EQ(directive(t, "nodes"), "2");
  EXPECT_EQ(directive(t, "ntasks"), "8");
  EXPECT_EQ(directive(t, "cpus-per-task"), "4");
  EXPECT_EQ(directive(t, "mem"), "1025M");
  EXPECT_EQ(directive(t, "mem-per-cpu"), "<none>");
  EXPECT_EQ(directive(t, "gpus"), "4");
  EXPECT_EQ(directive(t, "time"), "2-03:04:05");
  EXPECT_EQ(directive(t, "partition"), "cpu");
  EXPECT_EQ(directive(t, "account"), "proj 1#x'y\"z\\");
  EXPECT_EQ(directive(t, "qos"), "high");
  EXPECT_EQ(directive(t, "nice"), "10");
  EXPECT_EQ(directive(t, "array"), "0-3,7-13:2,20,22%5");
  EXPECT_EQ(directive(t, "dependency"), "afterok:12:14,afterany:13_2,afternotok:15");
  EXPECT_EQ(directive(t, "output"), "/o/job-%j.out");
  EXPECT_EQ(directive(t, "error"), "/o/100%%-%a_%A.err");
  EXPECT_EQ(directive(t, "chdir"), "/w");
  EXPECT_EQ(directive(t, "export"), "ALL");
}

TEST(SlurmScript, OptionalDirectives) {
  JobSpec s = basic();
  s.res.mem_per_cpu_bytes = 512 * 1024;
  s.res.gpus = 1;
  s.priority = 5;  // users cannot raise their priority in Slurm
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "mem-per-cpu"), "1M");
  EXPECT_EQ(directive(*r, "gres"), "gpu:1");
  s.res.mem_per_cpu_bytes = UINT64_MAX;  // rounded up to MiB without wrapping to 0
  EXPECT_EQ(directive(*gen(s), "mem-per-cpu"), "17592186044416M");
  for (auto o : {"mem", "gpus", "time", "partition", "account", "qos", "nice", "array", "dependency", "output", "error"})
    EXPECT_EQ(directive(*r, o), "<none>") << o;
  EXPECT_EQ(r->find("#SBATCH --priority"), std::string::npos);
}

TEST(SlurmScript, HeterogeneousComponentsAreSeparatedByHetjob) {
  JobSpec s = basic();
  s.res.ntasks = 2;
  s.partition = "cpu";
  s.account = "proj";
  Component gpu;
  gpu.partition = "gpu";
  gpu.res.gpus = 1;
  gpu.res.mem_bytes = 1024 * 1024 * 1024;
  s.components = {gpu, Component{}};
  s.components[1].res.cpus_per_task = 3;
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  // Read back as sbatch reads it: component 0 has every job-wide directive, the job
  // runs once (in component 0), each further component has its own resources.
  auto d = read_batch_directives(*r, "het.sh");
  ASSERT_TRUE(d.ok()) << d.error();
  using Words = std::vector<std::string>;
  auto has = [](const Words& w, const std::string& x) { return std::find(w.begin(), w.end(), x) != w.end(); };
  EXPECT_TRUE(has(d->words, "--ntasks=2"));
  EXPECT_TRUE(has(d->words, "--partition=cpu"));
  EXPECT_TRUE(has(d->words, "--account=proj"));
  EXPECT_TRUE(has(d->words, "--export=ALL"));
  EXPECT_TRUE(has(d->words, "--job-name=yard-" + kUid + "-job"));
  ASSERT_EQ(d->components.size(), 2u);
  EXPECT_EQ(d->components[0], (Words{"--nodes=1", "--ntasks=1", "--cpus-per-task=1", "--mem=1024M", "--gres=gpu:1",
                                     "--partition=gpu"}));
  EXPECT_EQ(d->components[1], (Words{"--nodes=1", "--ntasks=1", "--cpus-per-task=3"}));
  EXPECT_EQ(r->find("exec -- /bin/true"), r->rfind("exec -- /bin/true"));
  // A bad value in a component names it.
  s.components[1].res.ntasks = 0;
  auto bad = gen(s);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("component 2: --ntasks"), std::string::npos) << bad.error();
}

TEST(SlurmScript, NativeNameCarriesTheUidWhateverTheName) {
  JobSpec s = basic();
  s.name = "we|rd 'name' $(x) #1";
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "job-name"), "yard-" + kUid + "-we_rd__name____x___1");
  EXPECT_EQ(SlurmDialect().uid_from_native_name(directive(*r, "job-name")), kUid);
}

TEST(SlurmScript, OutputPatterns) {
  EXPECT_EQ(*slurm_output_pattern("/a/%j.%A.%a.%u.%%", "n"), "/a/%j.%A.%a.%u.%%");
  EXPECT_EQ(*slurm_output_pattern("/a/%x.out", "my%job"), "/a/my%%job.out");
  EXPECT_EQ(*slurm_output_pattern("/a/%N-%5j-50%", "n"), "/a/%%N-%%5j-50%%");
  EXPECT_FALSE(slurm_output_pattern("/a\\b", "n").ok());
  EXPECT_EQ(*slurm_output_pattern("/a/%3a-%%3j", "n"), "/a/%3a-%%3j");  // Slurm pads the index
}

TEST(SlurmScript, OpenModeIsADirectiveNotAVariable) {
  JobSpec s = basic();
  auto r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "open-mode"), "<none>");  // the cluster's JobFileAppend decides
  s.set_open_mode(OpenMode::Append);
  r = gen(s);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(directive(*r, "open-mode"), "append");
  EXPECT_EQ(r->find(kOpenModeVariable), std::string::npos);
}

TEST(SlurmScript, ArrayText) {
  EXPECT_EQ(slurm_array_text({{5}, 0}), "5");
  EXPECT_EQ(slurm_array_text({{1, 2}, 0}), "1-2");
  EXPECT_EQ(slurm_array_text({{1, 3}, 0}), "1,3");
  EXPECT_EQ(slurm_array_text({{1, 3, 5, 7, 9}, 2}), "1-9:2%2");
  EXPECT_EQ(slurm_array_text({{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 0}), "0-15");
  auto parsed = parse_array_spec("1,3,5-9:2,100-200%7");
  ASSERT_TRUE(parsed.ok());
  auto again = parse_array_spec(slurm_array_text(*parsed));
  ASSERT_TRUE(again.ok()) << slurm_array_text(*parsed);
  EXPECT_EQ(again->indices, parsed->indices);
  EXPECT_EQ(again->max_running, 7);
}

TEST(SlurmScript, WhatEveryShellExportsIsSkippedNotRefused) {
  JobSpec s = basic();
  s.env["_"] = "/usr/bin/yard";
  s.env["BASH_FUNC_f%%"] = "() { evil; }";
  auto r = gen(s, {kUid, "", "", {}});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->find("BASH_FUNC"), std::string::npos);
  EXPECT_EQ(r->find("export _="), std::string::npos);
}

TEST(SlurmScript, Refusals) {
  auto refused = [](const JobSpec& s, const std::string& needle, SubmitContext ctx = {kUid, "", "", {}}) {
    auto r = gen(s, ctx);
    ASSERT_FALSE(r.ok()) << needle;
    EXPECT_NE(r.error().find(needle), std::string::npos) << r.error();
  };
  JobSpec s = basic();
  s.env["A-B"] = "x";
  refused(s, "'A-B' is not a shell identifier");
  s = basic();
  s.env["1A"] = "x";
  refused(s, "'1A' is not a shell identifier");
  s = basic();
  s.env[""] = "x";
  refused(s, "'' is not a shell identifier");

  s = basic();
  s.env["UID"] = "0";
  refused(s, "UID cannot be set");

  s = basic();
  s.env["X"] = std::string("a\0b", 3);
  refused(s, "NUL byte");
  s = basic();
  s.argv.push_back(std::string("a\0b", 3));
  refused(s, "NUL byte");
  s = basic();
  s.partition = "cpu\n#SBATCH --wrap=evil";
  refused(s, "partition 'cpu\\n#SBATCH --wrap=evil' contains a control character");
  s = basic();
  s.workdir = "/w\nx";
  refused(s, "working directory");
  s = basic();
  s.script = "#!/bin/sh\r\necho hi\r\n";
  refused(s, "DOS line breaks");
  s.script = "#!/bin/sh\necho hi\r";
  refused(s, "at byte 17,");
  s = basic();
  refused(s, "backslash", SubmitContext{kUid, "/o\\x", "", {}});
  s = basic();
  refused(s, "not a Slurm job id", SubmitContext{kUid, "", "", {{DependencyKind::AfterOk, "12:13"}}});
  s = basic();
  refused(s, "not a Slurm job id", SubmitContext{kUid, "", "", {{DependencyKind::AfterOk, "12_[1-3]"}}});
  s = basic();
  refused(s, "not a UID", SubmitContext{"yd1\n", "", "", {}});
  s = basic();
  s.workdir = "relative";
  refused(s, "absolute path");
}

TEST(SlurmQuote, BashQuote) {
  EXPECT_EQ(bash_quote(""), "''");
  EXPECT_EQ(bash_quote("a b"), "'a b'");
  EXPECT_EQ(bash_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(bash_quote("a\r\nb"), "'a'$'\\r''\nb'");
}

TEST(SlurmQuote, DirectiveValueRoundTripsThroughSbatchsSplitter) {
  for (const std::string& v : std::vector<std::string>{"plain", "a b", "#x", "'", "\"", "\\", "a'b\"c\\d#e f", "\xff\xfe"}) {
    auto d = directive_value(v, "x");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(sbatch_word(*d), v) << *d;
  }
  EXPECT_FALSE(directive_value("a\nb", "x").ok());
  EXPECT_FALSE(directive_value("a\tb", "x").ok());
}

}  // namespace
}  // namespace yard
