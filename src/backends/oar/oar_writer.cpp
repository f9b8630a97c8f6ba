// Writes a job as #OAR lines (oarsub -S reads them from the second line on, one option a
// line, the value the rest of the line: nothing is quoted):
//   -n NAME   -l /nodes=N[/gpu=G]/core=C,walltime=H:MM:SS: as yard's OAR backend asks
//     (oar_script.h): every CPU a core, cores and GPUs the same on each node, a GPU's cores
//     below it; tasks of several CPUs are their cores (a loss when C > 1); what does not
//     divide evenly is rounded up (a loss)
//   -q QUEUE  --project ACCOUNT  -d DIR   -O/-E files (%jobid% %jobname% %arrayid% %arrayindex%;
//     a path whose own text holds one is written as it is, a loss)
//   array  --array N (OAR numbers elements 1..N; other indices are renumbered, a loss)
//   dependencies  -a ID each (OAR waits for any end: afterok and afternotok are a loss)
//   OAR's job types  -t TYPE
// Lost: memory (OAR gives memory with the cores), stderr going with stdout (OAR writes
// it to a file of its own), an array's throttle, --export, mail, priority, requeueing,
// QOS, components, sbatch's other options.
#include "backends/oar/oar_language.h"  // oar_resource_request, kOarTitle
#include "core/text.h"
#include "backends/oar/oar_directives.h"  // oar_path_words
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

// A value oarsub takes as the rest of its line: no newline, no blanks at its ends.
void value(Writer& w, std::string_view option, const std::string& flag, const std::string& v) {
  if (v.empty() || trim(v).size() != v.size() || v.find('\n') != std::string::npos)
    return w.lose(option, "--" + std::string(option) + " '" + v + "'", "an #OAR line cannot hold blanks at its ends; left out");
  w.add(flag + " " + v);
}

void resources(Writer& w) {
  JobSpec spec = w.job.spec;
  Resources& r = spec.res = w.res();
  if (r.cpus_per_task > 1)
    w.lose("cpus-per-task", "--cpus-per-task " + std::to_string(r.cpus_per_task),
           "OAR counts cores: " + tasks_of_cpus(r) + ", written as " + std::to_string(r.total_cpus()) + " cores");
  if (r.mem_bytes || r.mem_per_cpu_bytes) w.lack(r.mem_bytes ? "mem" : "mem-per-cpu", memory_option(r), "memory request");
  r.ntasks = static_cast<int>(r.total_cpus()), r.cpus_per_task = 1;
  const OarSettings settings{"nodes", "gpu"};
  auto request = oar_resource_request(spec, settings);
  for (int tries = 0; !request && tries < 3; ++tries) {
    const std::string why = request.error().substr(request.error().find("cannot run this job: ") + 21);
    if (r.ntasks % r.nodes != 0) {
      w.lose("ntasks", "--ntasks " + std::to_string(r.ntasks), why + "; rounded up");
      r.ntasks = (r.ntasks + r.nodes - 1) / r.nodes * r.nodes;
    } else if (r.gpus % r.nodes != 0) {
      w.lose("gpus", "--gpus " + std::to_string(r.gpus), why + "; rounded up");
      r.gpus = (r.gpus + r.nodes - 1) / r.nodes * r.nodes;
    } else {
      w.lose("gpus", "--gpus " + std::to_string(r.gpus), why + "; the cores are asked for without their GPUs");
      r.gpus = 0;
    }
    request = oar_resource_request(spec, settings);
  }
  if (!request) return;
  std::string text = *request;
  if (text == "/nodes=1/core=1" || text.starts_with("/nodes=1/core=1,")) text = text.substr(15);  // OAR's default
  if (text.starts_with(",")) text = text.substr(1);
  if (!text.empty()) w.add("-l " + text);
}

void files(Writer& w) {
  const JobSpec& s = w.job.spec;
  const TokenMap tokens = [](char c, std::string&) -> std::optional<std::string> {
    if (c == 'j') return "%jobid%";
    if (c == 'x') return "%jobname%";
    if (c == 'A') return "%arrayid%";
    if (c == 'a') return "%arrayindex%";
    return std::nullopt;
  };
  const auto& words = oar_path_words();
  if (!s.stdout_path.empty()) value(w, "output", "-O", target_path(w, "output", s.stdout_path, tokens, "%", words));
  if (!s.stderr_path.empty()) value(w, "error", "-E", target_path(w, "error", s.stderr_path, tokens, "%", words));
  else if (!s.stdout_path.empty())
    w.lose("output", "--output " + s.stdout_path, "OAR writes stderr to a file of its own (OAR.%jobid%.stderr), not with stdout");
}

}  // namespace

Directives write_oar(const Job& job) {
  Writer w(job, kOarTitle, "#OAR", false);
  const JobSpec& s = job.spec;
  if (job.name_given) value(w, "job-name", "-n", s.name);
  resources(w);
  if (!s.partition.empty()) value(w, "partition", "-q", s.partition);
  if (!s.account.empty()) value(w, "account", "--project", s.account);
  if (!job.chdir.empty()) value(w, "chdir", "-d", job.chdir);
  files(w);
  if (s.array) {
    const auto& ix = s.array->indices;
    if (ix.front() != 1 || regular_step(ix) != 1)
      w.lose("array", "--array " + idset(ix), "OAR numbers an array's elements 1 to N; written as --array " + std::to_string(ix.size()));
    if (s.array->max_running > 0)
      w.lack("array", "--array %" + std::to_string(s.array->max_running), "limit on an array's running elements");
    w.add("--array " + std::to_string(ix.size()));
  }
  all_for_any(w);
  for (const auto& d : s.dependencies) {
    if (d.kind != DependencyKind::AfterAny)
      w.lose("dependency", "--dependency " + std::string(to_string(d.kind)) + ":" + std::to_string(d.job_id),
             "OAR waits for a job's end however it ends (-a); written as afterany");
    w.add("-a " + std::to_string(d.job_id));
  }
  for (const auto& t : s.job_types) value(w, "job-type", "-t", t);
  if (job.exports != "ALL") w.lack("export", "--export " + job.exports, "way to choose the job's environment");
  w.lose_unsaid({.job_types = true, .priority = false, .handled = {}});
  return std::move(w).done();
}

}  // namespace yard::jobtext
