#include "backends/slurm/slurm_script.h"


#include "backends/batch_script.h"  // cannot_run
#include "backends/job_wrapper.h"
#include "backends/native_names.h"
#include "backends/slurm/slurm_language.h"
#include "backends/slurm/slurm_parse.h"
#include "backends/slurm/slurm_quote.h"
#include "core/output_pattern.h"
#include "core/uid.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

// A job tried again is kept off the nodes it failed on: added to the user's own
// --exclude, as sbatch reads only the last one given.
SbatchSettings with_avoided_nodes(SbatchSettings options, const std::vector<std::string>& avoid) {
  if (avoid.empty()) return options;
  std::string nodes;
  for (auto& n : avoid) nodes += (nodes.empty() ? "" : ",") + n;
  for (auto& [name, value] : options)
    if (name == "exclude") {
      value += (value.empty() ? "" : ",") + nodes;
      return options;
    }
  options.emplace_back("exclude", nodes);
  return options;
}

Result<std::string> dependency_text(const std::vector<SubmitContext::NativeDependency>& deps) {
  // Slurm's syntax, one clause per kind in first-seen order: afterok:1:2,afterany:3.
  std::vector<std::pair<DependencyKind, std::string>> clauses;
  for (auto& d : deps) {
    if (!is_slurm_job_id(d.native_id) || d.native_id.find('[') != std::string::npos)
      return err("dependency on native job id " + excerpt(d.native_id) + ", which is not a Slurm job id");
    // A het job's component is not a dependency target: the job as a whole is.
    std::string id = d.native_id.substr(0, d.native_id.find('+'));
    auto it = clauses.begin();
    while (it != clauses.end() && it->first != d.kind) ++it;
    if (it == clauses.end()) {
      clauses.emplace_back(d.kind, std::string(to_string(d.kind)));
      it = clauses.end() - 1;
    }
    it->second += ":" + id;
  }
  std::string out;
  for (auto& c : clauses) out += (out.empty() ? "" : ",") + c.second;
  return out;
}

}  // namespace

Result<std::string> slurm_output_pattern(std::string_view path, std::string_view job_name) {
  if (path.find('\\') != std::string_view::npos)
    return err("output path " + excerpt(path) +
               " contains a backslash: Slurm removes backslashes from output paths and then expands no pattern");
  std::string out;
  auto literal = [&](std::string_view s) {
    for (char c : s) out += c == '%' ? std::string("%%") : std::string(1, c);
  };
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      out += path[i];
      continue;
    }
    if (i + 1 == path.size()) {
      out += "%%";
      break;
    }
    // %3a: an array index zero-padded by Slurm (output_paths' native form writes it).
    if (const auto seq = read_pattern_sequence(path, i);
        seq.letter > i + 1 && seq.letter < path.size() && path[seq.letter] == 'a') {
      out += std::string(path.substr(i, seq.letter + 1 - i));
      i = seq.letter;
      continue;
    }
    const char c = path[++i];
    switch (c) {
      case 'j': case 'A': case 'a': case 'u': case '%':
        out += '%';
        out += c;
        break;
      case 'x': literal(job_name); break;
      default:
        out += "%%";
        out += c;
        break;
    }
  }
  return out;
}

Result<std::string> slurm_batch_script(const JobSpec& spec, const SubmitContext& ctx) {
  if (auto s = spec.validate(); !s) return err(s.error());
  if (!spec.launcher.empty())
    return err("--launcher " + spec.launcher + " runs in direct mode: submit with --backend slurm-steps");
  // The UID goes into the job name, a comment and a here-document delimiter.
  if (!is_uid(ctx.uid)) return err("batch script for Switchyard UID " + excerpt(ctx.uid) + ", which is not a UID");
  if (auto s = check_wrappable(spec); !s) return err(s.error());

  // The job's shape and place through Slurm's one writer (slurm_writer.cpp), as `yard
  // translate --to slurm` writes them; what it cannot say is a refusal here.
  jobtext::Job job;
  job.spec = spec;
  job.options = with_avoided_nodes(spec.slurm_options, ctx.avoid_nodes);
  jobtext::Writer w(job, kSlurmTitle, "#SBATCH", false);
  auto add = [&](std::string_view option, const std::string& value, std::string_view what) -> Status {
    auto v = directive_value(value, what);
    if (!v) return err(v.error());
    w.add("--" + std::string(option) + "=" + *v);
    return {};
  };
  if (auto s = add("job-name", native_job_name(ctx.uid, spec.name), "job name"); !s) return err(s.error());
  jobtext::write_slurm_job(w);
  if (!ctx.dependencies.empty()) {
    auto deps = dependency_text(ctx.dependencies);
    if (!deps) return err(deps.error());
    w.add("--dependency=" + *deps);
  }
  for (auto [path, option] : {std::pair{&ctx.stdout_path, "output"}, std::pair{&ctx.stderr_path, "error"}}) {
    if (path->empty()) continue;  // no --error: stderr goes with stdout
    auto p = slurm_output_pattern(*path, spec.name);
    if (!p) return err(p.error());
    if (auto s = add(option, *p, option == std::string_view("output") ? "stdout path" : "stderr path"); !s)
      return err(s.error());
  }
  if (auto s = add("chdir", spec.workdir, "working directory"); !s) return err(s.error());
  // The submitting process's environment (the daemon's) is not the job's: the job gets
  // exactly the spec's variables, set below, on top of what Slurm itself sets. Not with
  // --export=NONE (or NIL): then slurmd builds a login environment for every job, which
  // took seconds per job on a busy node (60 trivial jobs: 10.8 s against 1.5 s); the
  // script clears the inherited variables itself instead.
  w.add("--export=ALL");
  // sbatch also reads other schedulers' directive lines in a script, wherever they stand,
  // over the #SBATCH lines: the body of such a script, carried in the wrapper, would
  // otherwise change the job (a job name in them renames it; "mem=300mb" is refused).
  w.add("--ignore-pbs");
  jobtext::write_slurm_components(w);
  jobtext::Directives d = std::move(w).done();
  for (const auto& loss : d.losses)
    if (!loss.nearest) return err(cannot_run("slurm", loss.what, loss.why));

  std::string out = "#!/bin/bash\n";
  out += "# Switchyard job " + ctx.uid + "\n";
  out += d.text;
  out += "\n";

  WrapperStyle style;
  style.scheduler_variables = "SLURM_* | SLURMD_*";
  style.after_clear = "export SLURM_EXPORT_ENV=ALL\n";  // srun inside the job passes the job's environment on
  // An element's index under yard's name too, as every backend gives it.
  if (spec.array) style.after_clear += "export YARD_ARRAY_TASK_ID=\"$SLURM_ARRAY_TASK_ID\"\n";
  style.job_variables = job_variables(spec, ctx, "SLURM_ARRAY_TASK_ID", false);  // Slurm sets its own
  out += job_wrapper(spec, ctx.uid, style);
  return out;
}

}  // namespace yard
