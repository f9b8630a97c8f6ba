#include "backends/oar/oar_steps.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "backends/command_runner.h"
#include "backends/local/step_hosts.h"
#include "backends/mpirun_argv.h"
#include "backends/oar/oar_parse.h"
#include "core/file_text.h"
#include "core/text.h"

namespace yard {
namespace {

// A POSIX sh word for `value` (the node's sh reads it, not bash: no $'..').
std::string sh_word(std::string_view value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

// On the node: the job in a session and process group of its own (setsid: dash has no job
// control without a terminal), its input closed, its node file
// written first; a watchdog reads oarsh's input (kept open on this side while the job
// runs) and kills that group when it closes: the job was cancelled or timed out here,
// or this side died. The node's exit status (128+N for a signal) is the job's.
std::string remote_script(const LaunchPlan& plan, const std::vector<std::string>& hosts, const std::string& job_id) {
  std::string nodes;
  for (const auto& h : hosts) nodes += " " + sh_word(h);
  std::string env;
  for (const auto& e : plan.env)
    if (!starts_with(e, "OAR_")) env += " " + sh_word(e);
  std::string argv;
  for (const auto& a : plan.argv) argv += " " + sh_word(a);
  const std::string grace = std::to_string(std::max(1, plan.kill_grace_s));
  return "exec 3<&0; cd " + sh_word(plan.workdir) + " || exit 1; nodes=$(mktemp) || exit 1; printf '%s\\n'" + nodes +
         " > \"$nodes\"; setsid env" + env + " OAR_JOB_ID=" + sh_word(job_id) + " OAR_JOBID=" + sh_word(job_id) +
         " OAR_NODEFILE=\"$nodes\" YARD_NODEFILE=\"$nodes\" sh -c 'exec \"$@\"' sh" + argv +
         " </dev/null 3<&- & job=$!; { cat <&3 >/dev/null; kill -TERM -$job; sleep " + grace +
         "; kill -KILL -$job; } >/dev/null 2>&1 & exec 3<&-; wait $job; rc=$?; rm -f \"$nodes\"; exit $rc";
}

// Here: oarsh with its input a FIFO that a sleeping writer holds open until oarsh ends
// (or until the job host kills this whole process tree, cancelling the job).
constexpr const char* kLocalScript =
    "d=$(mktemp -d) && mkfifo \"$d/in\" || exit 1; sleep 2147483647 > \"$d/in\" & keep=$!; "
    "oarsh \"$1\" \"$2\" < \"$d/in\"; rc=$?; kill $keep 2>/dev/null; rm -rf \"$d\"; exit $rc";

}  // namespace

void plan_oar_step(LaunchPlan& plan, const JobSpec& spec, const OarAllocation& alloc, bool as_root) {
  const auto hosts = task_hosts(plan, spec, alloc.slots);
  if (spec.launcher == "mpirun") {
    plan.argv = mpirun_mpmd_argv(spec);
    plan.argv.insert(plan.argv.begin() + 1, {"--host", mpirun_hosts(hosts)});
    set_env(plan.env, "OMPI_MCA_plm_rsh_agent", "oarsh");  // reaches the other hosts as the job's user
    if (as_root) {
      set_env(plan.env, "OMPI_ALLOW_RUN_AS_ROOT", "1");
      set_env(plan.env, "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
  } else {
    // Each of the job's cores once in its node file, as OAR_NODEFILE lists an OAR job's.
    std::vector<std::string> cores = slot_hosts(plan, alloc.slots);
    if (cores.empty()) cores = hosts;
    const std::string remote = "exec sh -c " + sh_word(remote_script(plan, cores, alloc.job_id));
    plan.argv = {"sh", "-c", kLocalScript, "sh", hosts.empty() ? alloc.slots.front() : hosts.front(), remote};
  }
  set_env(plan.env, "OAR_JOB_ID", alloc.job_id);  // oarsh finds the allocation by it
  // OAR confines the job to its cores and GPUs on the node; memory is not watched here.
  plan.pus.clear();
  plan.mem_limit_bytes = 0;
  plan.memory_poll = false;
  std::erase_if(plan.env, [](const std::string& e) { return starts_with(e, "CUDA_VISIBLE_DEVICES="); });
}

Result<OarAllocation> find_oar_allocation(const IndirectConfig& config, const std::string& gpu_resource,
                                          std::string& id) {
  if (config.allocation == "pilot")
    return err("oar.yaml: allocation: pilot is Slurm's only; give the id of an OAR job (allocation: ID)");
  id = config.allocation;
  const char* inside = std::getenv("OAR_JOB_ID");
  if (id.empty() && inside) id = inside;
  if (id.empty()) return OarAllocation{};
  // Inside the job, its own files say it all (the node may have no OAR client).
  const char* props = std::getenv("OAR_RESOURCE_PROPERTIES_FILE");
  if (inside && id == inside && props) {
    if (auto text = read_file(props)) return parse_oar_resources(*text, id, gpu_resource);
  }
  auto stat = run_command(oarstat_allocation_argv(id), config.command_timeout_s);
  if (!stat.ok()) return err("allocation " + id + ": oarstat failed (" + stat.summary() + ")");
  auto jobs = parse_oarstat_json(stat.out);
  if (!jobs) return err("allocation " + id + ": " + jobs.error());
  auto it = std::find_if(jobs->begin(), jobs->end(), [&](const NativeStatus& s) { return s.native_id == id; });
  if (it == jobs->end()) return err("allocation " + id + ": OAR knows no such job of yours");
  if (it->raw_state != "Running") return err("allocation " + id + " is " + it->raw_state + ", not Running");
  auto res = run_command(oarstat_resources_argv(id), config.command_timeout_s);
  if (!res.ok()) return err("allocation " + id + ": oarstat -p failed (" + res.summary() + ")");
  return parse_oar_resources(res.out, id, gpu_resource);
}

std::unique_ptr<LocalBackend> make_oar_steps(Store& store, const OarAllocation& alloc, const IndirectConfig& config,
                                             const Machine& host, const std::string& state_dir, const std::string& user) {
  Machine m;
  m.cpus = static_cast<int>(alloc.slots.size());
  m.nodes = alloc.nodes();
  m.gpus = alloc.gpus;
  m.mem_bytes = std::uint64_t{1} << 50;  // OAR's memory is not what limits the steps
  m.job_limit = config.step_job_limit;
  m.kill_grace_s = host.kill_grace_s;
  auto b = std::make_unique<LocalBackend>(store, m, state_dir, user);
  const bool as_root = ::geteuid() == 0;
  b->serve_as(kOarStepsBackend, [alloc, as_root](LaunchPlan& plan, const JobSpec& spec) {
    plan_oar_step(plan, spec, alloc, as_root);
  });
  return b;
}

}  // namespace yard
