#include "backends/slurm/slurm_script.h"

#include <cstdio>

#include "backends/job_wrapper.h"
#include "backends/native_names.h"
#include "backends/slurm/slurm_parse.h"
#include "backends/slurm/slurm_quote.h"
#include "core/checked.h"
#include "core/output_pattern.h"
#include "core/uid.h"

namespace yard {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

std::string mib(std::uint64_t bytes) { return std::to_string(ceil_div(bytes, kMiB)) + "M"; }

std::string walltime(std::int64_t s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", static_cast<long long>(s / 86400),
                static_cast<long long>(s / 3600 % 24), static_cast<long long>(s / 60 % 60),
                static_cast<long long>(s % 60));
  return buf;
}

class Directives {
 public:
  Status add(std::string_view option, std::string_view value, std::string_view what) {
    auto v = directive_value(value, what);
    if (!v) return err(v.error());
    text_ += "#SBATCH --" + std::string(option) + "=" + *v + "\n";
    return {};
  }
  void raw(std::string_view line) { text_ += line; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

Status resource_directives(Directives& d, const Resources& r, const std::string& partition) {
  std::vector<Status> st;
  st.push_back(d.add("nodes", std::to_string(r.nodes) + (r.max_nodes > r.nodes ? "-" + std::to_string(r.max_nodes) : ""),
                     "--nodes"));
  st.push_back(d.add("ntasks", std::to_string(r.ntasks), "--ntasks"));
  st.push_back(d.add("cpus-per-task", std::to_string(r.cpus_per_task), "--cpus-per-task"));
  if (r.mem_bytes) st.push_back(d.add("mem", mib(r.mem_bytes), "--mem"));
  if (r.mem_per_cpu_bytes) st.push_back(d.add("mem-per-cpu", mib(r.mem_per_cpu_bytes), "--mem-per-cpu"));
  // yard's GPU count is for the whole job, like sbatch --gpus. On one node that is
  // the generic resource count, which every Slurm with GPUs understands; --gpus needs
  // select/cons_tres and is only used where the count must be spread over nodes.
  // Other generic resources (--gres nvme:1) go with the GPUs' entry: one --gres line.
  const std::string other = r.other_gres.empty() ? "" : "," + r.other_gres;
  if (r.gpus > 0 && r.nodes == 1) {
    st.push_back(d.add("gres", "gpu:" + std::to_string(r.gpus) + other, "--gpus"));
  } else {
    if (r.gpus > 0) st.push_back(d.add("gpus", std::to_string(r.gpus), "--gpus"));
    if (!r.other_gres.empty()) st.push_back(d.add("gres", r.other_gres, "--gres"));
  }
  if (r.walltime_s > 0) st.push_back(d.add("time", walltime(r.walltime_s), "--time"));
  if (!partition.empty()) st.push_back(d.add("partition", partition, "partition"));
  for (auto& s : st)
    if (!s) return s;
  return {};
}

// A heterogeneous job: component 0's directives come first, with every job-wide one
// (name, account, output, dependency...: sbatch propagates them to the other
// components); each further component is a `#SBATCH hetjob` line and its own resource
// directives. Slurm also propagates --partition, --time and --mem to a component that
// does not set them. The job's command runs in component 0, as sbatch does.
// sbatch's other options, as the user gave them (a component's after its hetjob line).
Status passed_options(Directives& d, const SbatchSettings& options) {
  for (auto& [name, value] : options) {
    if (value.empty()) {
      d.raw("#SBATCH --" + name + "\n");
    } else if (auto s = d.add(name, value, "--" + name); !s) {
      return s;
    }
  }
  return {};
}

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

Status het_components(Directives& d, const JobSpec& spec) {
  for (std::size_t i = 0; i < spec.components.size(); ++i) {
    d.raw("#SBATCH hetjob\n");
    if (auto s = resource_directives(d, spec.components[i].res, spec.components[i].partition); !s)
      return err("component " + std::to_string(i + 1) + ": " + s.error());
    if (auto s = passed_options(d, spec.components[i].slurm_options); !s)
      return err("component " + std::to_string(i + 1) + ": " + s.error());
  }
  return {};
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

  const auto& r = spec.res;
  Directives d;
  std::vector<Status> st;
  st.push_back(d.add("job-name", native_job_name(ctx.uid, spec.name), "job name"));
  st.push_back(resource_directives(d, r, spec.partition));
  if (!spec.account.empty()) st.push_back(d.add("account", spec.account, "account"));
  if (!spec.qos.empty()) st.push_back(d.add("qos", spec.qos, "QOS"));
  if (spec.requeue) d.raw(*spec.requeue ? "#SBATCH --requeue\n" : "#SBATCH --no-requeue\n");
  st.push_back(passed_options(d, with_avoided_nodes(spec.slurm_options, ctx.avoid_nodes)));
  // sbatch --priority is for operators only. A user can only lower their own job's
  // priority, with --nice: a negative yard priority becomes that; a positive one has
  // no Slurm equivalent for a user and is left to the site's policy.
  if (spec.priority < 0) st.push_back(d.add("nice", std::to_string(-static_cast<long long>(spec.priority)), "priority"));
  if (spec.array) st.push_back(d.add("array", array_text(*spec.array), "array"));
  if (!ctx.dependencies.empty()) {
    auto deps = dependency_text(ctx.dependencies);
    if (!deps) return err(deps.error());
    st.push_back(d.add("dependency", *deps, "dependency"));
  }
  for (auto [path, option] : {std::pair{&ctx.stdout_path, "output"}, std::pair{&ctx.stderr_path, "error"}}) {
    if (path->empty()) continue;  // no --error: stderr goes with stdout
    auto p = slurm_output_pattern(*path, spec.name);
    if (!p) return err(p.error());
    st.push_back(d.add(option, *p, option == std::string_view("output") ? "stdout path" : "stderr path"));
  }
  if (auto mode = spec.open_mode())  // else the cluster's JobFileAppend decides, as for sbatch
    st.push_back(d.add("open-mode", *mode == OpenMode::Append ? "append" : "truncate", "--open-mode"));
  st.push_back(d.add("chdir", spec.workdir, "working directory"));
  // The submitting process's environment (the daemon's) is not the job's: the job gets
  // exactly the spec's variables, set below, on top of what Slurm itself sets. Not with
  // --export=NONE (or NIL): then slurmd builds a login environment for every job, which
  // took seconds per job on a busy node (60 trivial jobs: 10.8 s against 1.5 s); the
  // script clears the inherited variables itself instead.
  st.push_back(d.add("export", "ALL", "--export"));
  if (!spec.components.empty()) st.push_back(het_components(d, spec));
  for (auto& s : st)
    if (!s) return err(s.error());

  std::string out = "#!/bin/bash\n";
  out += "# Switchyard job " + ctx.uid + "\n";
  out += d.text();
  out += "\n";

  WrapperStyle style;
  style.scheduler_variables = "SLURM_* | SLURMD_*";
  style.after_clear = "export SLURM_EXPORT_ENV=ALL\n";  // srun inside the job passes the job's environment on
  // An element's index under yard's name too, as every backend gives it.
  if (spec.array) style.after_clear += "export YARD_ARRAY_TASK_ID=\"$SLURM_ARRAY_TASK_ID\"\n";
  out += job_wrapper(spec, ctx.uid, style);
  return out;
}

}  // namespace yard
