// The CLI's contract: bad input gets a message naming the value and exit status 2, and
// leaves the store unchanged; scripts' #SBATCH lines are honoured; the socket is private.
#include <sys/stat.h>

#include <cstdio>

#include "harness.h"

namespace yard::test {
namespace {

class Cli : public YardWorld {};

TEST_F(Cli, BadInputExitsTwoNamesTheValueAndStoresNothing) {
  long first = submit({"--", "true"});  // the daemon and store exist from here on
  ASSERT_EQ(wait({first}), 0);
  const auto before = status().size();
  struct Case {
    std::vector<std::string> args;
    std::string mention;
  };
  write("bad.yaml", "jobs: [\n  - name: x\n");
  std::vector<Case> cases = {
      {{"submit", "--no-such-flag", "--", "true"}, "--no-such-flag"},
      {{"submit", "--mem", "12XB", "--", "true"}, "12XB"},
      {{"submit", "-c", "0", "--", "true"}, "--cpus-per-task"},
      {{"submit", "-t", "1:x:00", "--", "true"}, "1:x:00"},
      {{"submit", "-d", "afterok:4242", "--", "true"}, "4242"},
      {{"submit", "-a", "5-1", "--", "true"}, "5-1"},
      {{"submit", "missing-script.sh"}, "missing-script.sh"},
      {{"submit", "-n", "1", ":", "--", "true"}, "component 1 of the heterogeneous job is empty"},
      {{"submit", "-n", "1", "--", "true", ":", "-n", "2"}, "':' after '--'"},
      {{"submit", "-n", "1", ":", "-J", "x", "--", "true"}, "component 1: "},
      {{"submit", "-n", "1", ":", "-c", "0", "--", "true"}, "component 1: --cpus-per-task must be at least 1"},
      {{"submit", "-n", "1", ":", "-n", "1", "--", "true"}, "cannot run on backend 'local', which is one machine"},
      {{"submit", "--launcher", "mpirun", "-n", "1", "./a", ":", "-n", "2", "./b"}, "--backend slurm-steps"},
      {{"submit", "--launcher", "srun", "--", "true"}, "unknown launcher 'srun'"},
      {{"submit", "--het-group", "-1", "--", "true"}, "--het-group"},
      {{"submit", "--het-group", "1", "--", "true"}, "this job goes to backend local"},
      {{"run", "bad.yaml"}, "malformed YAML"},
      {{"run", "nope.yaml"}, "nope.yaml"},
      {{"status", "4242"}, "4242"},
      {{"cancel", "4242"}, "4242"},
  };
  for (auto& c : cases) {
    Output o = yard(c.args);
    EXPECT_EQ(o.rc, 2) << c.args[1] << ": " << o.err;
    EXPECT_NE(o.err.find(c.mention), std::string::npos) << "message '" << o.err << "' lacks '" << c.mention << "'";
  }
  EXPECT_EQ(status().size(), before);
}

TEST_F(Cli, VersionSaysWhatThisBuildIsWithoutADaemon) {
  Output o = yard({"--version"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_EQ(o.out.rfind("yard 0.", 0), 0u) << o.out;
  EXPECT_NE(o.out.find("backends: local, slurm, slurm-steps"), std::string::npos) << o.out;
  Output j = yard({"--version", "--json"});
  ASSERT_EQ(j.rc, 0) << j.err;
  auto v = nlohmann::json::parse(j.out);
  EXPECT_FALSE(v["version"].get<std::string>().empty());
  EXPECT_FALSE(v["commit"].get<std::string>().empty());
  EXPECT_FALSE(v["compiler"].get<std::string>().empty());
  EXPECT_EQ(v["backends"][0], "local");
  Output bad = yard({"--version", "--yaml"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--json"), std::string::npos) << bad.err;
  EXPECT_EQ(daemon_pid(), 0) << "--version started a daemon";
}

TEST_F(Cli, BashCompletionCompletesCommandsAndFlagsAndUnknownShellsAreRefused) {
  Output script = yard({"completion", "bash"});
  ASSERT_EQ(script.rc, 0) << script.err;
  write("yard.bash", script.out);
  write("complete.sh", "source \"$1\"; COMP_CWORD=$2; shift 2; COMP_WORDS=(\"$@\"); _yard; echo \"${COMPREPLY[*]}\"\n");
  // What bash offers after `words` with the cursor on word `cword`.
  auto complete = [&](const std::string& words, int cword) {
    const std::string cmd = "cd '" + dir_ + "' && bash complete.sh yard.bash " + std::to_string(cword) + " " + words;
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      char buf[4096];
      std::size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
      EXPECT_EQ(::pclose(p), 0) << cmd;
    }
    return out;
  };
  EXPECT_EQ(complete("yard su", 1), "submit\n");
  EXPECT_EQ(complete("yard submit --mem", 2), "--mem --mem-per-cpu\n");
  EXPECT_EQ(complete("yard server st", 2), "start stop status\n");
  EXPECT_EQ(complete("yard server stop --k", 3), "--kill-jobs\n");

  Output fish = yard({"completion", "fish"});
  EXPECT_EQ(fish.rc, 2);
  EXPECT_NE(fish.err.find("unsupported shell 'fish' (supported: bash, zsh)"), std::string::npos) << fish.err;
}

TEST_F(Cli, CancelWithNoDaemonRunningStartsOneAndCancels) {
  const long first = submit({"-o", "/dev/null", "--", "sleep", "30"});
  const long after = submit({"-d", "afterok:" + std::to_string(first), "-o", "/dev/null", "--", "true"});
  ASSERT_TRUE(wait_until([&] { return job(first)["state"] == "RUNNING"; }, 30));
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);  // the running job goes on under its host
  ASSERT_EQ(daemon_pid(), 0);
  Output o = yard({"cancel", std::to_string(after), std::to_string(first)});
  ASSERT_EQ(o.rc, 0) << o.err;
  ASSERT_TRUE(wait_until([&] { return job(first)["state"] == "CANCELLED"; }, 30)) << job(first).dump();
  EXPECT_EQ(job(after)["state"], "CANCELLED");
}

TEST_F(Cli, ScriptDirectivesAndCommandLineWins) {
  write("job.sh",
        "#!/bin/sh\n#SBATCH -J from-script\n#SBATCH --output=script-%j.out --time=5\n"
        "echo \"$YARD_JOB_NAME $1\"\n");
  long id = submit({"job.sh", "arg1"});
  ASSERT_EQ(wait({id}), 0);
  EXPECT_EQ(read("script-" + std::to_string(id) + ".out"), "from-script arg1\n");
  EXPECT_EQ(job(id)["walltime_s"], 300);
  long id2 = submit({"-J", "from-cli", "job.sh"});
  ASSERT_EQ(wait({id2}), 0);
  EXPECT_EQ(read("script-" + std::to_string(id2) + ".out"), "from-cli \n");
}

TEST_F(Cli, HostileStringsReachTheJobByteForByte) {
  const std::string evil = "a'b\"c $(touch pwned) `touch pwned2`; rm -rf x\nline2";
  long id = submit({"-J", "a'b $(touch pwned3)", "--export", "ALL,EVIL=" + evil, "--", "sh", "-c", "printf '%s|%s' \"$1\" \"$EVIL\"", "sh", evil});
  ASSERT_EQ(wait({id}), 0);
  EXPECT_EQ(read("yard-" + std::to_string(id) + ".out"), evil + "|" + evil);
  EXPECT_TRUE(read("pwned").empty());
  EXPECT_TRUE(read("pwned2").empty());
  EXPECT_TRUE(read("pwned3").empty());
  EXPECT_EQ(job(id)["name"], "a'b $(touch pwned3)");
  EXPECT_NE(yard({"submit", "-J", "two\nlines", "--", "true"}).rc, 0);
}

TEST_F(Cli, SocketDirectoryIsPrivateAndServerStatusReportsIt) {
  submit({"--", "true"});
  auto o = yard({"server", "status", "--json"});
  ASSERT_EQ(o.rc, 0);
  auto j = nlohmann::json::parse(o.out);
  EXPECT_GT(j["pid"].get<long>(), 0);
  std::string sock = j["socket"];
  EXPECT_EQ(sock.rfind(dir_ + "/run/switchyard/", 0), 0u) << sock;
  struct stat st{};
  ASSERT_EQ(::stat((dir_ + "/run/switchyard").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(Cli, RunFileWithProgressLines) {
  write("flow.yaml",
        "jobs:\n  - name: a\n    command: echo A\n  - name: b\n    command: echo B\n    after: [a]\n"
        "    array: 1-3\n");
  auto o = yard({"run", "flow.yaml"});
  EXPECT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.out.find("a 1 COMPLETED"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("b 2_3 COMPLETED"), std::string::npos) << o.out;
}

// A run file's job takes yard submit's flags, its --class and --backend among them: the
// daemon is asked with them. An unknown class is its refusal, naming the step and its
// line, and nothing of the flow is stored (all its jobs go in one request).
TEST_F(Cli, RunFileJobsTakeEveryFlagOfYardSubmit) {
  write("flow.yaml",
        "jobs:\n  - name: a\n    command: echo A\n    flags: -J ignored -t 1:00\n"
        "  - name: b\n    command: echo B\n    flags: --class nosuch\n    after: [a]\n");
  auto o = yard({"run", "flow.yaml"});
  EXPECT_EQ(o.rc, 2) << o.out << o.err;
  EXPECT_EQ(o.out.find("submitted"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("yard run: step 'b' (flow.yaml:5): unknown class 'nosuch'"), std::string::npos) << o.err;
  EXPECT_EQ(status().size(), 0u) << "half a flow was stored";
  write("flow.yaml", "jobs:\n  - name: a\n    command: echo A\n    flags: -J ignored -t 1:00\n");
  o = yard({"run", "flow.yaml"});
  EXPECT_EQ(o.rc, 0) << o.out << o.err;
  auto a = job(1);
  EXPECT_EQ(a["name"], "a");  // the name: key, not -J
  EXPECT_EQ(a["walltime_s"], 60) << a.dump();
}

}  // namespace
}  // namespace yard::test
