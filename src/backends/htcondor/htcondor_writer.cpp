// Writes a job as an HTCondor submit description (condor_submit; htcondor_reader.h reads
// it back). HTCondor has no directives in scripts: the description's `executable` is the
// script itself, which HTCondor runs as it is (other schedulers' directives in it are
// comments to it). condor_submit puts its macros in every value: a '$' of the job's own is
// written $(DOLLAR). Written:
//   universe = vanilla, executable = SCRIPT       batch_name = NAME
//   request_cpus = T*C (a vanilla job runs on one machine; tasks and their CPUs are its CPUs,
//     a loss when T > 1)   request_memory = the job's memory (K M G T)   request_gpus = G
//   allowed_job_duration = SECONDS (HTCondor holds a job that runs longer)
//   output, error ($(Cluster) %j and %A, $(Process) %a; stderr with stdout: the same file)
//   accounting_group = ACCOUNT   initialdir = DIR   --export  getenv = true (ALL) or
//     getenv = A, B (the variables named; neither: NONE, HTCondor's default) and
//     environment = "C=1 D=2"   priority = N   notification, notify_user
//   array  queue N (indices 0..N-1) or queue ArrayIndex in (1, 3, 5), $(ArrayIndex) %a;
//     max_materialize = MAX (jobs of the array in the queue at once)
// Lost: nodes (one machine), queues (HTCondor matches machines instead), dependencies
// (DAGMan's), %x %u %N in file names, exclusive nodes, requeueing, the
// append mode, QOS, job types, components, sbatch's other options.
#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "backends/htcondor/htcondor_language.h"
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

void set(Writer& w, std::string_view key, const std::string& value) { w.add(std::string(key) + " = " + value); }

// condor_submit reads a value as the rest of its line, the blanks at its ends dropped.
bool holds(Writer& w, std::string_view option, const std::string& what, std::string_view value) {
  if (trim(value).size() == value.size()) return true;
  w.lose(option, "--" + std::string(option) + " " + what, "HTCondor drops the blanks at a value's ends; left out");
  return false;
}

// A value's own text as condor_submit gives it back, putting its macros in: $(DOLLAR) for
// a '$', $$(DOLLARDOLLAR) for two ("$$(" left in a job is filled in from the machine's ad).
std::string condor_literal(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      out += text[i];
    } else if (i + 1 < text.size() && text[i + 1] == '$') {
      out += "$$(DOLLARDOLLAR)";
      ++i;
    } else {
      out += "$(DOLLAR)";
    }
  }
  return out;
}

// `key = VALUE` for sbatch's --`option`, unless it has blanks at its ends.
void set_value(Writer& w, std::string_view option, std::string_view key, const std::string& value) {
  if (holds(w, option, "'" + value + "'", value)) set(w, key, condor_literal(value));
}

void resources(Writer& w) {
  const Resources& r = w.res();
  if (r.nodes > 1) w.lose("nodes", "--nodes " + std::to_string(r.nodes), "an HTCondor job runs on one machine; left out");
  // A batch script runs once, whatever its tasks (sbatch's does too): its CPUs are all
  // the job asks for, which request_cpus says.
  if (r.ntasks > 1)
    w.approximate("ntasks", "--ntasks " + std::to_string(r.ntasks),
           "an HTCondor job is one process tree: its " + std::to_string(r.total_cpus()) + " CPUs are request_cpus");
  if (r.total_cpus() > 1) set(w, "request_cpus", std::to_string(r.total_cpus()));
  if (const std::uint64_t mem = r.total_mem_bytes()) set(w, "request_memory", size_in(mem, {"K", "M", "G", "T"}));
  if (r.gpus > 0) set(w, "request_gpus", std::to_string(r.gpus));
  if (r.walltime_s > 0) set(w, "allowed_job_duration", std::to_string(r.walltime_s));
}

void files(Writer& w, const std::string& index) {
  const JobSpec& s = w.job.spec;
  const bool array = s.array.has_value();
  const TokenMap tokens = [&](char c, std::string& note) -> std::optional<std::string> {
    if (c == 'j' && array) note = "an element's own id: HTCondor's elements share the array's $(Cluster); written so";
    if (c == 'j' || c == 'A') return "$(Cluster)";
    if (c == 'a' && array) return "$(" + index + ")";
    return std::nullopt;
  };
  auto path = [&](std::string_view option, const std::string& p) {
    std::string t = target_path(w, option, p, tokens, "%", {}, condor_literal);
    return holds(w, option, "'" + p + "'", t) ? t : std::string();
  };
  const std::string out = path("output", s.stdout_path);
  if (!out.empty()) set(w, "output", out);
  if (!s.stderr_path.empty()) {
    const std::string err = path("error", s.stderr_path);
    if (!err.empty()) set(w, "error", err);
  } else if (!out.empty()) {
    set(w, "error", out);  // with stdout
  }
}

// getenv = true for ALL, else the names of the variables passed on as they are (none:
// HTCondor's default, NONE; condor_submit matches a name in any case, so that a variable
// named alike in another case goes too); environment = "A=1 B='x y'" for those given a value.
void environment(Writer& w, const std::string& index_assignment) {
  const Exports e = exports_of(w.job.exports);
  std::string names, vars = index_assignment;
  for (const auto& v : e.variables) {
    const auto eq = v.find('=');
    if (eq == std::string::npos && e.all) continue;  // in the whole environment already
    if (eq == std::string::npos) {
      // condor_submit takes *, ! and separators in a name for a pattern of names.
      const bool name = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
      if (name) names += (names.empty() ? "" : ", ") + v;
      else w.lose("export", "--export " + v, "getenv takes names of letters, digits and _; left out");
      continue;
    }
    const std::string value = v.substr(eq + 1);
    if (eq == 0 || v.find_first_of(" \t'\"") < eq || value.find_first_of("'\"") != std::string::npos) {
      w.lose("export", "--export " + v, "environment takes NAME=VALUE without quotes; left out");
      continue;
    }
    const std::string written = condor_literal(value);
    const bool blank = value.find_first_of(" \t") != std::string::npos;
    vars += (vars.empty() ? "" : " ") + v.substr(0, eq + 1) + (blank ? "'" + written + "'" : written);
  }
  if (e.all || !names.empty()) set(w, "getenv", e.all ? "true" : names);
  if (!vars.empty()) set(w, "environment", "\"" + vars + "\"");
}

void mail(Writer& w) {
  bool given = false;
  const std::string types = w.job.option("mail-type", &given);
  if (given) {
    // HTCondor mails at the end (Complete: however it ends; Error: when it fails), or never.
    bool end = false, fail = false, none = false;
    const std::string lower = to_lower(types);
    for (std::string_view t : split(lower, ',')) {
      end = end || t == "end" || t == "all", fail = fail || t == "fail", none = none || t == "none";
      if (t == "begin" || t == "all" || (t != "end" && t != "fail" && t != "none"))
        w.lack("mail-type", "--mail-type " + std::string(t), "mail but at a job's end");
    }
    if (end || fail || none) set(w, "notification", end ? "Complete" : fail ? "Error" : "Never");
  }
  const std::string user = w.job.option("mail-user", &given);
  if (given) set_value(w, "mail-user", "notify_user", user);
}

}  // namespace

Directives write_htcondor(const Job& job, const std::string& executable, const JobIdVariables& variables) {
  Writer w(job, kHtcondorTitle, "", true);
  const JobSpec& s = job.spec;
  w.add("# HTCondor submit description: condor_submit FILE (written by yard translate)");
  set(w, "universe", "vanilla");
  set(w, "executable", condor_literal(executable));
  // In double quotes when it has blanks, or quotes of its own at its ends (the reader
  // takes off one pair).
  const bool plain = s.name.find_first_of(" \t\v\f") == std::string::npos && !s.name.starts_with('"');
  if (job.name_given) set(w, "batch_name", plain ? condor_literal(s.name) : "\"" + condor_literal(s.name) + "\"");
  resources(w);
  std::string index = "Process";
  if (s.array && (s.array->indices.front() != 0 || regular_step(s.array->indices) != 1)) index = "ArrayIndex";
  files(w, index);
  if (!s.account.empty()) set_value(w, "account", "accounting_group", s.account);
  if (!job.chdir.empty()) set_value(w, "chdir", "initialdir", job.chdir);
  std::string own;  // the job's id and index, where asked for
  if (!variables.id.empty()) own = std::string(variables.id) + "=$(Cluster).$(Process)";
  if (s.array && !variables.index.empty())
    own += (own.empty() ? "" : " ") + std::string(variables.index) + "=$(" + index + ")";
  environment(w, own);
  if (s.priority != 0) set(w, "priority", std::to_string(s.priority));
  mail(w);
  if (!s.partition.empty()) w.lack("partition", "--partition " + s.partition, "queues (it matches machines instead)");
  for (const auto& d : s.dependencies)
    w.lack("dependency", "--dependency " + std::string(to_string(d.kind)) + ":" + std::to_string(d.job_id),
           "dependencies outside DAGMan");
  if (!s.array) {
    w.add("queue");
  } else {
    if (s.array->max_running > 0) set(w, "max_materialize", std::to_string(s.array->max_running));
    std::string list;
    for (auto i : s.array->indices) list += (list.empty() ? "" : ", ") + std::to_string(i);
    w.add(index == "Process" ? "queue " + std::to_string(s.array->indices.size()) : "queue ArrayIndex in (" + list + ")");
  }
  w.lose_unsaid({.handled = {"mail-type", "mail-user"}});
  return std::move(w).done();
}

}  // namespace yard::jobtext
