#include "backends/slurm/slurm_allocation.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "core/checked.h"
#include "core/size.h"
#include "core/text.h"

namespace yard {
namespace {

bool to_int(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

std::string excerpt(std::string_view s) {
  std::string t(s.substr(0, 60));
  return "'" + t + (s.size() > 60 ? "...'" : "'");
}

}  // namespace

std::vector<std::string> scontrol_show_job_argv(const std::string& job_id) {
  return {"scontrol", "show", "job", "-o", job_id};
}

namespace {

struct Line {
  SlurmAllocation a;
  std::string het_job_id;
  int het_offset = -1;
};

Result<Line> parse_line(std::string_view text) {
  // Key=Value words; values never contain spaces in -o output except the trailing
  // free-text fields (Command, WorkDir, ...), which are not read here.
  std::map<std::string_view, std::string_view> kv;
  for (auto word : split(text, ' ')) {
    auto eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    kv.emplace(word.substr(0, eq), word.substr(eq + 1));
  }
  auto need = [&](std::string_view key) -> Result<std::string_view> {
    auto it = kv.find(key);
    if (it == kv.end()) return err("scontrol show job: no " + std::string(key) + "= in " + excerpt(text));
    return it->second;
  };
  SlurmAllocation a;
  auto id = need("JobId");
  if (!id) return id.failure();
  a.job_id = std::string(*id);
  if (a.job_id.empty() || a.job_id.find_first_not_of("0123456789") != std::string::npos)
    return err("scontrol show job: JobId=" + a.job_id + " is not a job id in " + excerpt(text));
  auto state = need("JobState");
  if (!state) return state.failure();
  a.state = std::string(*state);
  auto nodes = need("NumNodes");
  if (!nodes) return nodes.failure();
  // A pending job's NumNodes may be a range ("2-2"); the allocation is known once running.
  auto n = nodes->substr(0, nodes->find('-'));
  if (!to_int(n, a.nodes)) return err("scontrol show job: NumNodes=" + std::string(*nodes) + " is not a number");
  auto cpus = need("NumCPUs");
  if (!cpus) return cpus.failure();
  auto c = cpus->substr(0, cpus->find('-'));
  if (!to_int(c, a.cpus)) return err("scontrol show job: NumCPUs=" + std::string(*cpus) + " is not a number");
  if (auto nl = kv.find("NodeList"); nl != kv.end() && nl->second != "(null)") a.node_list = std::string(nl->second);
  if (auto p = kv.find("Partition"); p != kv.end()) a.partition = std::string(p->second);
  Line line;
  if (auto h = kv.find("HetJobId"); h != kv.end()) {
    line.het_job_id = std::string(h->second);
    if (line.het_job_id.empty() || line.het_job_id.find_first_not_of("0123456789") != std::string::npos)
      return err("scontrol show job: HetJobId=" + line.het_job_id + " is not a job id in " + excerpt(text));
    auto off = kv.find("HetJobOffset");
    if (off == kv.end() || !to_int(off->second, line.het_offset))
      return err("scontrol show job: HetJobId without a HetJobOffset number in " + excerpt(text));
  }
  // TRES=cpu=8,mem=4000M,node=2,billing=8,gres/gpu=2
  if (auto tres = kv.find("TRES"); tres != kv.end()) {
    for (auto item : split(tres->second, ',')) {
      auto eq = item.find('=');
      if (eq == std::string_view::npos) continue;
      auto key = item.substr(0, eq), value = item.substr(eq + 1);
      if (key == "mem") {
        auto m = parse_memory_size(value);
        if (!m) return err("scontrol show job: TRES mem=" + std::string(value) + ": " + m.error());
        a.mem_bytes = *m;
      } else if (key == "gres/gpu") {
        if (!to_int(value, a.gpus)) return err("scontrol show job: TRES gres/gpu=" + std::string(value) + " is not a number");
      }
    }
  }
  line.a = std::move(a);
  return line;
}

}  // namespace

Result<SlurmAllocation> parse_scontrol_job(std::string_view text) {
  text = trim(text);
  if (text.empty()) return err("scontrol show job: empty output");
  std::vector<Line> lines;
  for (auto l : split(text, '\n')) {
    if (trim(l).empty()) continue;
    auto line = parse_line(trim(l));
    if (!line) return line.failure();
    lines.push_back(std::move(*line));
  }
  if (lines.size() == 1 && lines[0].het_job_id.empty()) return lines[0].a;
  // A heterogeneous allocation: one line per component, all of one HetJobId.
  const std::string het = lines[0].het_job_id;
  std::vector<SlurmAllocation> parts(lines.size());
  std::vector<bool> seen(lines.size(), false);
  for (auto& l : lines) {
    if (l.het_job_id.empty() || l.het_job_id != het)
      return err("scontrol show job: " + std::to_string(lines.size()) +
                 " lines that are not the components of one heterogeneous job (HetJobId " +
                 (het.empty() ? std::string("missing") : het) + " and " +
                 (l.het_job_id.empty() ? std::string("missing") : l.het_job_id) + ")");
    const auto k = static_cast<std::size_t>(l.het_offset);
    if (k >= parts.size() || seen[k])
      return err("scontrol show job: heterogeneous job " + het + ": HetJobOffset " + std::to_string(l.het_offset) +
                 " is repeated or out of range 0-" + std::to_string(parts.size() - 1));
    seen[k] = true;
    parts[k] = std::move(l.a);
  }
  SlurmAllocation a = parts[0];
  a.job_id = het;
  for (auto& p : parts)
    if (p.state != "RUNNING") {
      a.state = p.state;
      break;
    }
  a.components = std::move(parts);
  return a;
}

std::vector<std::string> srun_step_argv(const SlurmAllocation& alloc, const JobSpec& spec, const std::string& step_name,
                                        const std::vector<std::string>& argv) {
  const auto& r = spec.res;
  std::vector<std::string> a = {"srun",
                                "--jobid=" + alloc.job_id,
                                "--exact",
                                "--ntasks=" + std::to_string(r.ntasks),
                                "--cpus-per-task=" + std::to_string(r.cpus_per_task),
                                "--nodes=" + std::to_string(r.nodes),
                                "--job-name=" + step_name,
                                "--kill-on-bad-exit=1",
                                "--quiet"};
  if (!alloc.components.empty()) a.push_back("--het-group=" + std::to_string(std::max(0, spec.het_group)));
  // Memory: what the job asked for, else an even share would be a guess; srun's default
  // (the allocation's per-CPU default) applies then.
  constexpr std::uint64_t kMiB = 1 << 20;
  if (r.mem_bytes > 0) a.push_back("--mem=" + std::to_string(ceil_div(r.mem_bytes, kMiB)) + "M");
  else if (r.mem_per_cpu_bytes > 0)
    a.push_back("--mem-per-cpu=" + std::to_string(ceil_div(r.mem_per_cpu_bytes, kMiB)) + "M");
  if (r.gpus > 0) a.push_back("--gres=gpu:" + std::to_string(r.gpus));
  a.push_back("--");
  a.insert(a.end(), argv.begin(), argv.end());
  return a;
}

std::vector<std::string> mpirun_environment(const SlurmAllocation& alloc, const JobSpec& spec,
                                            const std::string& step_name, bool as_root) {
  const int nodes = std::max(alloc.nodes, 1);
  // Slots per node as Slurm writes them: the allocation's CPUs spread over its nodes,
  // e.g. 8 on 2 nodes "4(x2)", 9 on 2 nodes "5(x1),4(x1)".
  const int q = alloc.cpus / nodes, r = alloc.cpus % nodes;
  std::string per_node;
  if (r > 0) per_node = std::to_string(q + 1) + "(x" + std::to_string(r) + ")";
  if (nodes - r > 0) per_node += (per_node.empty() ? "" : ",") + std::to_string(q) + "(x" + std::to_string(nodes - r) + ")";
  // mpirun starts one daemon per node with srun; the ranks are its children, so that
  // step holds the job's CPUs (spread over the nodes) and is named like any yard step.
  // The job was validated: its CPUs in all fit an int (kMaxJobCount).
  const int cpus = static_cast<int>((spec.total_cpus() + nodes - 1) / nodes);
  // Open MPI splits the srun arguments at spaces: the name keeps only plain characters.
  std::string name = step_name;
  for (char& c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
      c = '_';
  std::vector<std::string> env = {
      "SLURM_JOB_ID=" + alloc.job_id,
      "SLURM_JOBID=" + alloc.job_id,
      "SLURM_NODELIST=" + alloc.node_list,
      "SLURM_JOB_NODELIST=" + alloc.node_list,
      "SLURM_NNODES=" + std::to_string(nodes),
      "SLURM_JOB_NUM_NODES=" + std::to_string(nodes),
      "SLURM_TASKS_PER_NODE=" + per_node,
      "OMPI_MCA_plm_slurm_args=--exact --cpus-per-task=" + std::to_string(cpus) + " --job-name=" + name,
  };
  if (as_root) {
    env.push_back("OMPI_ALLOW_RUN_AS_ROOT=1");
    env.push_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1");
  }
  return env;
}

}  // namespace yard
