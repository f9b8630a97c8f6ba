// Round trips: for every pair of kinds A and B, a set of jobs written as A, read, written
// as B, read, written as A again and read gives the job A gave, field by field as
// `yard submit --test-only --json` resolves them, but for what B cannot say (kLosses says
// it per kind). The body comes through every step byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <ranges>
#include <set>

#include "translate/script_parts.h"
#include "backends/all_languages.h"
#include "translate/translate.h"
#include "jobtext/writer_testing.h"
#include "jobtext/directive_writer.h"

namespace yard::translate {
namespace {

using namespace jobtext;  // the writers' helpers and test jobs

const ScriptLanguages& languages() { return all_script_languages(); }
const ScriptLanguage* language(std::string_view name) { return all_script_languages().find(name); }

// What a kind cannot carry back to the others:
//   cpus      how CPUs split into tasks and a task's CPUs (their total is kept)
//   nodes     the node count
//   total     the job's memory in all (a node's is kept, and the nodes are lost)
//   mem       whether memory is a node's or a CPU's (the job's total is kept)
//   memory    memory altogether
//   afterok   a dependency's kind (every dependency becomes afterany)
//   deps      every dependency but the last (OAR's reader keeps the last -a)
//   nodeps    dependencies altogether
//   throttle  an array's limit on running elements
//   arrayid   %A in file names (read back as %j)
//   queue     the partition
//   exports   the job's environment but the whole one
const std::map<std::string, std::set<std::string>> kLosses = {
    {"slurm", {}},
    {"pbs", {"mem", "arrayid"}},
    {"torque", {"cpus", "arrayid"}},
    {"lsf", {"cpus", "nodes", "total"}},
    {"sge", {"cpus", "nodes", "mem", "afterok"}},
    {"oar", {"cpus", "memory", "afterok", "deps", "throttle", "exports"}},
    {"htcondor", {"cpus", "nodes", "mem", "nodeps", "queue"}},
    {"flux", {"memory", "throttle", "arrayid"}},
};

const std::string kBody = "module load app\n# a comment \\\nsrun ./app --in caf\xe9.dat \"$@\"\n";
const std::string kScript = "#!/bin/bash\n" + kBody;

Loader files() {
  return [](const std::string& path) -> Result<std::string> {
    if (path == "job.sh") return kScript;
    return err("cannot read " + path);
  };
}

std::vector<Job> jobs() {
  std::vector<Job> out;
  auto add = [&](auto&& f) {
    Job j;
    j.spec.script = kScript;
    j.script_path = "job.sh";
    j.spec.name = "job.sh";
    f(j);
    j.name_given = j.spec.name != "job.sh";
    out.push_back(j);
  };
  add([](Job& j) {  // tasks of several CPUs on two nodes
    j.spec.name = "alpha";
    j.spec.res.nodes = 2, j.spec.res.ntasks = 8, j.spec.res.cpus_per_task = 2, j.spec.res.mem_per_cpu_bytes = testing::kGiB, j.spec.res.walltime_s = 5400;
    j.spec.stdout_path = "out-%j.txt", j.spec.stderr_path = "err-%j.txt";
    j.spec.partition = "short", j.spec.account = "proj1";
    j.spec.dependencies = {{DependencyKind::AfterOk, 42}};
  });
  add([](Job& j) {  // MPI: four nodes, a node's memory, stderr with stdout, two dependencies
    j.spec.name = "mpi";
    j.spec.res.nodes = 4, j.spec.res.ntasks = 16, j.spec.res.mem_bytes = 4 * testing::kGiB, j.spec.res.walltime_s = 2 * 86400;
    j.spec.stdout_path = "mpi-%j.log";
    j.spec.partition = "compute", j.spec.account = "chem";
    j.spec.dependencies = {{DependencyKind::AfterOk, 7}, {DependencyKind::AfterOk, 8}};
    j.exports = "NONE";
  });
  add([](Job& j) {  // an array with a throttle, no name of its own
    j.spec.res.cpus_per_task = 4, j.spec.res.mem_bytes = 8 * testing::kGiB, j.spec.res.walltime_s = 600;
    j.spec.stdout_path = "arr-%A_%a.out";
    j.spec.partition = "batch", j.spec.account = "proj2";
    j.spec.array = ArraySpec{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 3};
    j.spec.dependencies = {{DependencyKind::AfterOk, 99}};
    j.exports = "A,B=1";
  });
  add([](Job& j) {  // one task of eight CPUs
    j.spec.name = "omp";
    j.spec.res.cpus_per_task = 8, j.spec.res.mem_per_cpu_bytes = 512 * testing::kMiB, j.spec.res.walltime_s = 2700;
    j.spec.stdout_path = "omp.out", j.spec.stderr_path = "omp.err";
    j.spec.partition = "p", j.spec.account = "a";
    j.exports = "ALL,C=x y";
  });
  return out;
}

// `job` as a script (or submit description) of `kind`.
std::string written(const Job& job, const std::string& kind) {
  const Directives d = language(kind)->write(job, {"job.sh", ""});
  return kind == "htcondor" ? d.text : assemble(split_script(languages(), job.spec.script, nullptr), d.text, *language(kind));
}

std::string origin(const std::string& kind) { return kind == "htcondor" ? "job.sub" : "job.sh"; }

Job read(const std::string& text, const std::string& kind) {
  auto r = read_job(languages(), text, origin(kind), kind, files(), nullptr);
  EXPECT_TRUE(r) << kind << ": " << r.error() << "\n" << text;
  return r ? r->job : Job{};
}

// The fields compared, as text, but for those `lost` names.
std::map<std::string, std::string> fields(const Job& j, const std::set<std::string>& lost) {
  const Resources& r = j.spec.res;
  std::map<std::string, std::string> f;
  f["name"] = j.spec.name;
  f["cpus"] = std::to_string(r.total_cpus());
  if (!lost.count("cpus")) f["ntasks"] = std::to_string(r.ntasks), f["cpus_per_task"] = std::to_string(r.cpus_per_task);
  if (!lost.count("nodes")) f["nodes"] = std::to_string(r.nodes);
  if (!lost.count("memory") && !lost.count("total")) f["total_mem"] = std::to_string(r.total_mem_bytes());
  if (!lost.count("memory") && !lost.count("mem"))
    f["mem"] = std::to_string(r.mem_bytes), f["mem_per_cpu"] = std::to_string(r.mem_per_cpu_bytes);
  f["walltime"] = std::to_string(r.walltime_s);
  auto path = [&](std::string p) {
    if (lost.count("arrayid") && p.find("%A") != std::string::npos) p.replace(p.find("%A"), 2, "%j");
    return p;
  };
  f["stdout"] = path(j.spec.stdout_path), f["stderr"] = path(j.spec.stderr_path);
  if (!lost.count("queue")) f["partition"] = j.spec.partition;
  f["account"] = j.spec.account;
  if (!lost.count("exports")) {  // ALL and the variables in any order, NONE as none
    const Exports e = exports_of(j.exports);
    std::vector<std::string> vars = e.variables;
    std::sort(vars.begin(), vars.end());
    f["exports"] = e.all ? "ALL" : "";
    for (const auto& v : vars) f["exports"] += " " + v;
  }
  if (j.spec.array) {
    f["array"] = idset(j.spec.array->indices);
    if (!lost.count("throttle")) f["throttle"] = std::to_string(j.spec.array->max_running);
  }
  if (!lost.count("nodeps")) {
    std::vector<std::string> deps;
    for (const auto& d : j.spec.dependencies)
      deps.push_back((lost.count("afterok") ? "after" : std::string(to_string(d.kind))) + ":" + std::to_string(d.job_id));
    std::sort(deps.begin(), deps.end());
    if (lost.count("deps") && deps.size() > 1) deps.erase(deps.begin(), deps.end() - 1);
    for (auto& d : deps) f["dependencies"] += d + " ";
  }
  return f;
}

TEST(RoundTrip, EveryPairOfKindsGivesTheSameJobButForWhatTheOtherCannotSay) {
  int pairs = 0;
  for (const auto& job : jobs()) {
    for (const std::string& a : languages().names()) {
      const std::string script_a = written(job, a);
      const Job job_a = read(script_a, a);
      for (const std::string& b : languages().names()) {
        SCOPED_TRACE(a + " -> " + b + " -> " + a + ", job " + job.spec.name);
        auto to_b = translate(languages(), {script_a, origin(a), a, b, "", ""}, files(), nullptr);
        ASSERT_TRUE(to_b) << to_b.error();
        auto back = translate(languages(), {to_b->output, origin(b), b, a, "", ""}, files(), nullptr);
        ASSERT_TRUE(back) << back.error() << "\n" << to_b->output;
        const Job job_aba = read(back->output, a);
        std::set<std::string> lost = kLosses.at(b);
        // OAR's reader keeps only the last dependency of any script; an LSF job's nodes are
        // its span[ptile] (--ntasks-per-node), which the resolved node count, and so the
        // memory in all, does not count.
        if (a == "oar") lost.insert("deps");
        if (a == "lsf") lost.insert("total");
        EXPECT_EQ(fields(job_aba, lost), fields(job_a, lost)) << to_b->output << "\n" << back->output;
        for (const auto* out : {&to_b->output, &back->output}) {
          if (out->find("executable = job.sh") == std::string::npos) {
            EXPECT_TRUE(out->ends_with(kBody)) << *out;
          }
        }
        ++pairs;
      }
    }
  }
  EXPECT_EQ(pairs, 4 * 64);
}

// A kind's own script comes back the same from its own round trip (once what its reader
// resolves differently is written: OAR's reader keeps the last -a).
TEST(RoundTrip, AKindsOwnScriptComesBackTheSame) {
  for (const auto& job : jobs())
    for (const std::string& k : languages().names()) {
      SCOPED_TRACE(k + ", job " + job.spec.name);
      const std::string script = written(job, k);
      auto again = translate(languages(), {script, origin(k), k, k, "", ""}, files(), nullptr);
      ASSERT_TRUE(again) << again.error();
      if (k != "oar" || job.spec.dependencies.size() < 2) {
        EXPECT_EQ(again->output, script);
      }
      auto third = translate(languages(), {again->output, origin(k), k, k, "", ""}, files(), nullptr);
      ASSERT_TRUE(third) << third.error();
      EXPECT_EQ(third->output, again->output);
    }
}

// A value holding a quote and ending in a blank: no target's line goes on into the next
// one (the next directive, or the script's first command), and the value comes back as it
// was where the target can hold it.
TEST(RoundTrip, AValueWithAQuoteAndABlankAtItsEndStaysOnItsLine) {
  const std::string script = "#!/bin/bash\n#SBATCH -o \"a'b\t\"\n#SBATCH -e \"c\\\"d\\\\' \"\n#SBATCH -J keep\necho body\n";
  const Loader load = [&](const std::string& path) -> Result<std::string> {
    if (path == "t.sh") return script;
    return err("cannot read " + path);
  };
  for (const std::string& k : languages().names()) {
    SCOPED_TRACE(k);
    auto t = translate(languages(), {script, "t.sh", "slurm", k, "", ""}, load, nullptr);
    ASSERT_TRUE(t) << t.error();
    EXPECT_EQ(t->output.find("\\\n"), std::string::npos) << t->output;  // no line ends in a backslash
    auto back = read_job(languages(), t->output, k == "htcondor" ? "t.sub" : "t.sh", k, load, nullptr);
    ASSERT_TRUE(back) << back.error() << "\n" << t->output;
    EXPECT_EQ(back->job.spec.name, "keep") << t->output;
    if (k != "htcondor") {
      EXPECT_TRUE(t->output.ends_with("\necho body\n")) << t->output;
    }
    // OAR's and HTCondor's values are the rest of their line, blanks at its ends dropped:
    // there the paths are losses.
    if (k == "oar" || k == "htcondor") {
      EXPECT_EQ(t->losses, 2) << t->output;
      continue;
    }
    EXPECT_EQ(t->losses, 0) << t->output;
    EXPECT_EQ(back->job.spec.stdout_path, "a'b\t") << t->output;
    EXPECT_EQ(back->job.spec.stderr_path, "c\"d\\' ") << t->output;
  }
}

// A value's own '$' and '%' come back as they were from every target, or the translation
// says that the target puts a value in for them (PBS's $HOME, LSF's %J and -env's $z);
// --export without ALL stays so wherever the target can say it (OAR cannot).
TEST(RoundTrip, DollarsPercentsAndEnvironmentsKeepTheirMeaningOrAreALoss) {
  const std::string script = "#!/bin/sh\n#SBATCH -o '$HOME/o-%%Job-%j' -e 'e$(id)$$x'\n"
                             "#SBATCH -D '/d/$USER' -A 'a$b' -J 'n$(Cluster)'\n#SBATCH --export=X,Y=$z\necho\n";
  const Loader load = [&](const std::string& path) -> Result<std::string> {
    if (path == "t.sh") return script;
    return err("cannot read " + path);
  };
  const std::map<std::string, std::size_t> losses = {{"slurm", 0}, {"pbs", 2},      {"torque", 1}, {"lsf", 2},
                                                     {"sge", 2},   {"oar", 1},      {"htcondor", 0}, {"flux", 0}};
  const auto first = read_job(languages(), script, "t.sh", "slurm", load, nullptr);
  ASSERT_TRUE(first) << first.error();
  for (const std::string& k : languages().names()) {
    SCOPED_TRACE(k);
    auto t = translate(languages(), {script, "t.sh", "slurm", k, "", ""}, load, nullptr);
    ASSERT_TRUE(t) << t.error();
    EXPECT_EQ(t->losses, losses.at(k)) << t->output;
    auto back = read_job(languages(), t->output, k == "htcondor" ? "t.sub" : "t.sh", k, load, nullptr);
    ASSERT_TRUE(back) << back.error() << "\n" << t->output;
    auto same = [&](const std::string& option, const std::string& a, const std::string& b) {
      bool warned = false;
      for (const auto& w : t->warnings) warned = warned || w.find("--" + option) != std::string::npos;
      EXPECT_TRUE(a == b || warned) << "--" << option << " " << a << " came back as " << b << "\n" << t->output;
    };
    const Job &a = first->job, &b = back->job;
    same("output", a.spec.stdout_path, b.spec.stdout_path);
    same("error", a.spec.stderr_path, b.spec.stderr_path);
    same("chdir", a.chdir, b.chdir);
    same("account", a.spec.account, b.spec.account);
    same("job-name", a.spec.name, b.spec.name);
    same("export", a.exports, b.exports);
  }
}

}  // namespace
}  // namespace yard::translate
