#include "jobtext/submit_options.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "backends/all_languages.h"
#include "jobtext/submit_internal.h"

namespace yard {
namespace {

// A script file of this test's own, removed when the test ends (passed or not).
struct ScriptFile {
  explicit ScriptFile(const std::string& name)
      : path(::testing::TempDir() + std::to_string(::getpid()) + "-" + name) {}
  ~ScriptFile() { std::filesystem::remove(path); }
  ScriptFile(const ScriptFile&) = delete;
  ScriptFile& operator=(const ScriptFile&) = delete;
  std::string path;
};

// yard submit's parsing with the build's script languages.
Result<SubmitFlags> parse_submit_args_of(const std::vector<std::string>& args, bool& json, bool& help) {
  return parse_submit_args(args, all_script_languages(), json, help);
}

// A PBS script reading $PBS_ARRAY_INDEX: yard does not set it, PBS (and its direct mode)
// does; the warning is said only where the job does not go to its own scheduler.
TEST(SubmitOptions, TheSchedulersOwnVariablesAreWarnedAboutOnlyOffIt) {
  ScriptFile script("submit_options_vars_test.sh");
  std::ofstream(script.path) << "#!/bin/sh\n#PBS -J 1-2\necho $PBS_ARRAY_INDEX\n";
  bool json = false, help = false;
  for (const auto& [backend, warned] : std::vector<std::pair<std::string, bool>>{
           {"", true}, {"local", true}, {"sge", true}, {"pbs", false}, {"pbs-steps", false}, {"torque", false}}) {
    std::vector<std::string> args;
    if (!backend.empty()) args = {"--backend", backend};
    args.push_back(script.path);
    testing::internal::CaptureStderr();
    auto f = parse_submit_args_of(args, json, help);
    const std::string said = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(f.ok()) << f.error();
    EXPECT_EQ(said.find("$PBS_ARRAY_INDEX, which yard does not set") != std::string::npos, warned)
        << "--backend " << backend << ": " << said;
  }
}

TEST(SubmitOptions, CommandLineWinsOverDirectives) {
  ScriptFile script("submit_options_test.sh");
  const std::string& path = script.path;
  std::ofstream(path) << "#!/bin/sh\n#SBATCH -n 4 -J fromscript --time=5\n#SBATCH --mem=1G\necho hi\n";
  bool json = false, help = false;
  auto f = parse_submit_args_of({"-J", "fromcli", path, "arg1"}, json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(f->name, "fromcli");
  EXPECT_EQ(f->ntasks, 4);
  auto spec = make_spec(*f, {});
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec->res.walltime_s, 300);
  EXPECT_EQ(spec->res.mem_bytes, 1ULL << 30);
  EXPECT_EQ(spec->argv, (std::vector<std::string>{"arg1"}));
  EXPECT_NE(spec->script.find("echo hi"), std::string::npos);
}

TEST(SubmitOptions, BadValuesNameTheFlagAndValue) {
  bool json = false, help = false;
  auto f = parse_submit_args_of({"--mem", "12XB"}, json, help);
  ASSERT_TRUE(f.ok());
  auto s = make_spec(*f, {"/bin/true"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("--mem"), std::string::npos);
  EXPECT_NE(s.error().find("12XB"), std::string::npos);
  f = parse_submit_args_of({"-t", "1:x:00"}, json, help);
  EXPECT_FALSE(make_spec(*f, {"/bin/true"}).ok());
  f = parse_submit_args_of({"-c", "0"}, json, help);
  EXPECT_FALSE(make_spec(*f, {"/bin/true"}).ok());
  EXPECT_FALSE(parse_submit_args_of({"--no-such-flag"}, json, help).ok());
}

// What real scripts taught (bench/sbatch_agreement): forms sbatch 22.05 accepts.
TEST(SubmitOptions, FormsRealScriptsUseAreAcceptedAsSbatchAcceptsThem) {
  ScriptFile script("submit_options_real.sh");
  const std::string& path = script.path;
  std::ofstream(path) << "#!/bin/bash\n"
                         "#SBATCH -n 12 -N 1-12\n"
                         "#SBATCH --time=0-24:00:00 --exclusive --gres=nvme:1,gpu:v100:2\n"
                         "#SBATCH -D /no/such/dir/on/this/host\n"
                         "#SBATCH hetjob\n"
                         "#SBATCH -n 2 --ntasks-per-node=1 --nodelist=c2 --account=lab:data\n"
                         "#SBATCH packjob\n"
                         "#SBATCH -n 3 -N 3 --ntasks-per-node 1\n"
                         "srun hostname\n";
  bool json = false, help = false;
  auto f = parse_submit_args_of({path}, json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  auto spec = make_spec(*f, {});
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec->res.nodes, 1);  // -N MIN-MAX: the least, and Slurm is told both
  EXPECT_EQ(spec->res.max_nodes, 12);
  EXPECT_EQ(spec->res.walltime_s, 86400);  // hours past 23 carry into days, as in Slurm
  EXPECT_EQ(spec->res.gpus, 2);  // GPUs among other generic resources, which Slurm is told
  EXPECT_EQ(spec->res.other_gres, "nvme:1");
  // The directory is the cluster's to have: only the local backend checks it.
  EXPECT_EQ(spec->workdir, "/no/such/dir/on/this/host");
  ASSERT_EQ(spec->components.size(), 2u);
  // Each component keeps its own sbatch options; component 0 keeps only its own.
  EXPECT_EQ(spec->slurm_options, (SbatchSettings{{"exclusive", ""}}));
  EXPECT_EQ(spec->components[0].slurm_options,
            (SbatchSettings{{"ntasks-per-node", "1"}, {"nodelist", "c2"}, {"account", "lab:data"}}));
  EXPECT_EQ(spec->components[1].slurm_options, (SbatchSettings{{"ntasks-per-node", "1"}}));
  EXPECT_EQ(spec->components[1].res.nodes, 3);
  for (const char* bad : {"0", "3-2", "x", "1-"}) {
    auto g = parse_submit_args_of({"-N", bad}, json, help);
    ASSERT_TRUE(g.ok()) << g.error();
    auto s = make_spec(*g, {"true"});
    ASSERT_FALSE(s.ok()) << "-N " << bad;
    EXPECT_NE(s.error().find("--nodes: "), std::string::npos) << s.error();
  }
}

TEST(SubmitOptions, AScriptWithSbatchLinesNeedsAnInterpreterLineAsInSbatch) {
  ScriptFile script("submit_options_no_shebang.sh");
  const std::string& path = script.path;
  std::ofstream(path) << "#SBATCH -n 2\necho hi\n";
  bool json = false, help = false;
  auto f = parse_submit_args_of({path}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find(path + ": this does not look like a batch script: the first line must start with #!"),
            std::string::npos) << f.error();
  std::ofstream(path) << "echo no directives, no interpreter line\n";
  EXPECT_TRUE(parse_submit_args_of({path}, json, help).ok());
}

TEST(SubmitOptions, EmptyValuesAreErrorsNamingTheFlag) {
  bool json = false, help = false;
  for (const char* flag : {"--mem", "--mem-per-cpu", "-t", "-a", "-o", "-e", "-d", "--export", "-D", "-G", "--gres"}) {
    auto f = parse_submit_args_of({flag, "", "--", "true"}, json, help);
    ASSERT_FALSE(f.ok()) << flag << " \"\" was accepted";
    EXPECT_NE(f.error().find("the value is empty"), std::string::npos) << f.error();
  }
  auto f = parse_submit_args_of({"--mem", ""}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().rfind("--mem: the value is empty; give a size", 0), 0u) << f.error();
  f = parse_submit_args_of({"--time="}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error(), "--time: needs a value");
  f = parse_submit_args_of({"-n"}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error(), "--ntasks: needs a value");
}

TEST(SubmitOptions, EachDirectiveLineIsParsedOnItsOwn) {
  ScriptFile script("submit_options_lines.sh");
  const std::string& path = script.path;
  std::ofstream(path) << "#!/bin/sh\n#SBATCH --mem\n#SBATCH -J x\necho hi\n";
  bool json = false, help = false;
  auto f = parse_submit_args_of({path}, json, help);
  ASSERT_FALSE(f.ok());
  // Line 2's --mem has no value: it must not take line 3's -J as its value.
  EXPECT_NE(f.error().find(path + ":2: in #SBATCH directives: --mem: needs a value"), std::string::npos) << f.error();
  std::ofstream(path) << "#!/bin/sh\n#SBATCH -J x\n#SBATCH --mem=\necho hi\n";
  f = parse_submit_args_of({path}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find(path + ":3: in #SBATCH directives: --mem: needs a value"), std::string::npos)
      << f.error();
  std::ofstream(path) << "#!/bin/sh\n#SBATCH -J x\n#SBATCH -n 2 stray\necho hi\n";
  f = parse_submit_args_of({path}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find(path + ":3: invalid directive found in batch script: stray"), std::string::npos)
      << f.error();
  std::ofstream(path) << "#!/bin/sh\n#SBATCH -J x\n#SBATCH --mem 1G\necho hi\n";
  f = parse_submit_args_of({path}, json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(f->name, "x");
  EXPECT_EQ(f->mem, "1G");
}

TEST(SubmitOptions, AScriptThatIsADirectorySaysSo) {
  bool json = false, help = false;
  const std::string dir = ::testing::TempDir();
  auto f = parse_submit_args_of({dir}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find("is a directory"), std::string::npos) << f.error();
  SubmitFlags unparsed;
  unparsed.positional = {dir};
  auto s = make_spec(unparsed, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("is a directory"), std::string::npos) << s.error();
  f = parse_submit_args_of({dir + "/no-such-script.sh"}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find("no-such-script.sh': No such file or directory"), std::string::npos) << f.error();
}

TEST(SubmitOptions, ExportLists) {
  const Environment submitting{{"YARD_TEST_VAR", "v1"}, {"HOME", "/h"}, {"OTHER", "x"}};
  auto e = export_environment("NONE,FOO=bar,YARD_TEST_VAR", submitting);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->at("FOO"), "bar");
  EXPECT_EQ(e->at("YARD_TEST_VAR"), "v1");
  EXPECT_EQ(e->at("HOME"), "/h");
  EXPECT_EQ(e->count("OTHER"), 0u);
  EXPECT_EQ(e->count("YARD_NOT_SET"), 0u);
  EXPECT_EQ(export_environment("ALL", submitting)->at("OTHER"), "x");
  ::setenv("YARD_TEST_VAR", "v2", 1);
  EXPECT_EQ(current_environment().at("YARD_TEST_VAR"), "v2");
}

}  // namespace

TEST(SubmitOptions, ComponentsAreSeparatedByALoneColon) {
  bool json = false, help = false;
  auto f = parse_submit_args_of({"-p", "cpu", "-n", "2", "-J", "het", ":", "-p", "gpu", "--gpus", "1", "-t", "5",
                              ":", "-N1", "--mem=1G"},
                             json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  auto s = make_spec(*f, {"/bin/hostname"});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->partition, "cpu");
  EXPECT_EQ(s->res.ntasks, 2);
  EXPECT_EQ(s->name, "het");
  ASSERT_EQ(s->components.size(), 2u);
  EXPECT_EQ(s->components[0].partition, "gpu");
  EXPECT_EQ(s->components[0].res.gpus, 1);
  EXPECT_EQ(s->components[0].res.ntasks, 1);
  EXPECT_EQ(s->components[0].res.walltime_s, 300);
  EXPECT_EQ(s->components[1].partition, "");
  EXPECT_EQ(s->components[1].res.mem_bytes, 1ULL << 30);
  // An ordinary job has no components; ':' as a flag's value or a script's argument is no separator.
  f = parse_submit_args_of({"-J", ":", "-n", "3"}, json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(f->name, ":");
  EXPECT_TRUE(f->components.empty());
  auto words = split_components({"-n", "1", "job.sh", "a", ":", "-n", "2"});
  ASSERT_TRUE(words.ok());
  EXPECT_EQ(words->size(), 1u);
}

TEST(SubmitOptions, FlagsWithoutAValueDoNotTakeTheComponentSeparator) {
  bool json = false, help = false;
  // --test-only, --requeue and sbatch's --wait/-W/--hold take no value: the ':' after
  // them separates a component, it is not their value (nor a script named ':').
  for (const char* flag : {"--test-only", "--requeue", "--no-requeue", "--json", "-W", "--wait", "--contiguous"}) {
    auto f = parse_submit_args_of({"-n", "1", flag, ":", "-n", "2"}, json, help);
    ASSERT_TRUE(f.ok()) << flag << ": " << f.error();
    EXPECT_EQ(f->components.size(), 1u) << flag;
    EXPECT_TRUE(f->positional.empty()) << flag;
  }
  // A flag with a value still takes the next word, whatever it is.
  auto f = parse_submit_args_of({"-J", ":", "-n", "3"}, json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_TRUE(f->components.empty());
}

TEST(SubmitOptions, TheListOfFlagsWithoutAValueIsTheFlagParsersOwn) {
  SubmitFlags flags;
  bool json = false;
  auto app = submit_app(flags, json);
  std::set<std::string> without;
  for (const CLI::Option* o : app->get_options())
    if (o->get_expected_max() == 0)
      for (const auto& l : o->get_lnames()) without.insert(l);
  std::set<std::string> listed(std::begin(kFlagsWithoutValue), std::end(kFlagsWithoutValue));
  EXPECT_EQ(without, listed);
}

TEST(SubmitOptions, BadComponentsAreClearErrors) {
  bool json = false, help = false;
  for (auto args : std::vector<std::vector<std::string>>{{"-n", "2", ":"},
                                                         {":", "-n", "2"},
                                                         {"-n", "2", ":", ":", "-p", "gpu"}}) {
    auto f = parse_submit_args_of(args, json, help);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().find("is empty"), std::string::npos) << f.error();
  }
  auto f = parse_submit_args_of({"-n", "2", ":", "-p", "gpu", "-J", "x"}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find("component 1: "), std::string::npos) << f.error();
  EXPECT_NE(f.error().find("-J"), std::string::npos) << f.error();
  f = parse_submit_args_of({"-n", "2", ":", "-c", "0"}, json, help);
  ASSERT_TRUE(f.ok());
  auto s = make_spec(*f, {"/bin/true"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "component 1: --cpus-per-task must be at least 1, got 0");
  f = parse_submit_args_of({"-n", "2", ":", "--mem", "12XB"}, json, help);
  ASSERT_TRUE(f.ok());
  s = make_spec(*f, {"/bin/true"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().rfind("component 1: --mem: ", 0), 0u) << s.error();
  // ':' after '--'.
  f = parse_submit_args_of({"-n", "2"}, json, help);
  s = make_spec(*f, {"/bin/true", ":", "-p", "gpu"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("':' after '--'"), std::string::npos) << s.error();
}

TEST(SubmitOptions, HetjobDirectivesAndTheCommandLinePerComponent) {
  ScriptFile script("submit_options_het.sh");
  const std::string& path = script.path;
  std::ofstream(path) << "#!/bin/sh\n#SBATCH -J het -p cpu -n 2\n#SBATCH hetjob\n#SBATCH -p gpu --gres=gpu:1 -n 1\n"
                         "#SBATCH packjob\n#SBATCH -p cpu -c 4\necho hi\n";
  bool json = false, help = false;
  // The command line wins for component 0 (as for any job) and for component 1.
  auto f = parse_submit_args_of({"-n", "4", ":", "-n", "3", path}, json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  auto s = make_spec(*f, {});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->name, "het");
  EXPECT_EQ(s->res.ntasks, 4);
  EXPECT_EQ(s->partition, "cpu");
  ASSERT_EQ(s->components.size(), 2u);
  EXPECT_EQ(s->components[0].partition, "gpu");
  EXPECT_EQ(s->components[0].res.ntasks, 3);
  EXPECT_EQ(s->components[1].res.cpus_per_task, 4);
  EXPECT_NE(s->script.find("echo hi"), std::string::npos);
  // A flag of the whole job in a later component of a script names the script.
  std::ofstream(path) << "#!/bin/sh\n#SBATCH -n 2\n#SBATCH hetjob\n#SBATCH -J other\necho hi\n";
  f = parse_submit_args_of({path}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find(path + ":4: in #SBATCH directives: component 1: "), std::string::npos) << f.error();
}

TEST(SubmitOptions, MpirunAppContextsAreFlagsThenAProgram) {
  bool json = false, help = false;
  auto f = parse_submit_args_of({"--backend", "slurm-steps", "--launcher", "mpirun", "-n", "1", "./a", "-n", "x", ":",
                              "-n", "2", "./b"},
                             json, help);
  ASSERT_TRUE(f.ok()) << f.error();
  auto s = make_spec(*f, {});
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->launcher, "mpirun");
  EXPECT_EQ(s->argv, (std::vector<std::string>{"./a", "-n", "x"}));  // the program's own arguments
  EXPECT_TRUE(s->script.empty());
  EXPECT_EQ(s->res.ntasks, 1);
  ASSERT_EQ(s->components.size(), 1u);
  EXPECT_EQ(s->components[0].res.ntasks, 2);
  EXPECT_EQ(s->components[0].argv, (std::vector<std::string>{"./b"}));
  EXPECT_EQ(s->total_ntasks(), 3);
  f = parse_submit_args_of({"--launcher", "mpirun", "-n", "1", "./a", ":", "-n", "2"}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find("component 1: no program"), std::string::npos) << f.error();
  f = parse_submit_args_of({"--launcher", "mpirun", "-n", "1", "./a", ":", ":", "./b"}, json, help);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find("app context 1 is empty"), std::string::npos) << f.error();
}

}  // namespace yard
