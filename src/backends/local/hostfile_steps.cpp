#include "backends/local/hostfile_steps.h"

#include <unistd.h>

#include <cstdlib>
#include <set>

#include "backends/local/step_hosts.h"
#include "backends/local/steps_entry.h"
#include "backends/mpirun_argv.h"
#include "core/file_text.h"
#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

// Its node file, written where the job runs, then the job; the node file's name in the
// scheduler's variable and YARD_NODEFILE. The job's exit status is the script's.
constexpr const char* kWithNodeFile =
    "nodes=$(mktemp) || exit 1; printf '%s\\n' $YARD_STEP_SLOTS > \"$nodes\"; unset YARD_STEP_SLOTS; "
    "export YARD_NODEFILE=\"$nodes\" \"$YARD_STEP_HOSTFILE_VARIABLE=$nodes\"; unset YARD_STEP_HOSTFILE_VARIABLE; "
    "\"$@\"; rc=$?; rm -f \"$nodes\"; exit $rc";

bool host_name(std::string_view h) {
  return !h.empty() && h.size() <= 255 &&
         h.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:") == std::string_view::npos;
}

}  // namespace

int HostfileAllocation::nodes() const { return static_cast<int>(std::set<std::string>(slots.begin(), slots.end()).size()); }

Result<HostfileAllocation> parse_hostfile(std::string_view text, const std::string& job_id, std::string_view origin) {
  HostfileAllocation a;
  a.job_id = job_id;
  std::size_t number = 0;
  for (std::string_view line : split(text, '\n')) {
    ++number;
    line = trim(line);
    if (line.empty()) continue;
    if (!host_name(line))
      return err(std::string(origin) + ":" + std::to_string(number) + ": " + excerpt(std::string(line)) +
                 " is not a host name");
    a.slots.emplace_back(line);
  }
  if (a.slots.empty()) return err(std::string(origin) + ": no host in it");
  return a;
}

Result<HostfileAllocation> find_hostfile_allocation(const HostfileScheduler& s, const std::string& configured) {
  if (!configured.empty())
    return err("allocation: " + configured + ": " + s.backend + " runs inside " + s.allocation_kind +
               " only (start the daemon in one), which the scheduler describes to that job alone");
  const char* id = std::getenv(s.id_variable.c_str());
  const char* file = std::getenv(s.hostfile_variable.c_str());
  if (!id || !*id) return HostfileAllocation{};
  if (!file || !*file) return err(s.id_variable + " is set but " + s.hostfile_variable + " is not");
  auto text = read_file(file);
  if (!text) return err(s.hostfile_variable + ": " + text.error());
  return parse_hostfile(*text, id, file);
}

void plan_hostfile_step(LaunchPlan& plan, const JobSpec& spec, const HostfileAllocation& alloc,
                        const HostfileScheduler& s, const std::string& here, bool as_root) {
  const auto hosts = task_hosts(plan, spec, alloc.slots);
  const std::string first = hosts.empty() ? alloc.slots.front() : hosts.front();
  if (spec.launcher == "mpirun") {
    plan.argv = mpirun_mpmd_argv(spec);
    plan.argv.insert(plan.argv.begin() + 1, {"--host", mpirun_hosts(hosts)});
    if (!s.mpirun_agent.empty()) set_env(plan.env, "OMPI_MCA_plm_rsh_agent", s.mpirun_agent);
    if (as_root) {
      set_env(plan.env, "OMPI_ALLOW_RUN_AS_ROOT", "1");
      set_env(plan.env, "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
  } else {
    std::string slots;
    for (const auto& h : slot_hosts(plan, alloc.slots)) slots += (slots.empty() ? "" : " ") + h;
    std::vector<std::string> job{"sh", "-c", kWithNodeFile, "sh"};
    job.insert(job.end(), plan.argv.begin(), plan.argv.end());
    if (first == here || first == "localhost") {
      set_env(plan.env, "YARD_STEP_SLOTS", slots.empty() ? first : slots);
      set_env(plan.env, "YARD_STEP_HOSTFILE_VARIABLE", s.hostfile_variable);
      plan.argv = std::move(job);
    } else {
      // The launcher starts it there with the allocation's environment: the job's own
      // goes along on the command line, and its directory.
      std::vector<std::string> argv = s.remote_launch;
      argv.insert(argv.end(), {first, "env"});
      for (const auto& e : plan.env) argv.push_back(e);
      argv.insert(argv.end(), {"YARD_STEP_SLOTS=" + (slots.empty() ? first : slots),
                               "YARD_STEP_HOSTFILE_VARIABLE=" + s.hostfile_variable, "sh", "-c",
                               "cd " + bash_quote(plan.workdir) + " || exit 1; exec \"$@\"", "sh"});
      argv.insert(argv.end(), job.begin(), job.end());
      plan.argv = std::move(argv);
    }
  }
  // The scheduler confines the job to its slots; memory is not watched here.
  plan.pus.clear();
  plan.mem_limit_bytes = 0;
  plan.memory_poll = false;
}

Result<std::unique_ptr<Backend>> open_hostfile_steps(const BackendContext& c, const HostfileScheduler& s,
                                                     const IndirectConfig& config) {
  std::string problem;
  std::optional<HostedBackends> hosted;
  auto alloc = find_hostfile_allocation(s, config.allocation);
  if (!alloc) {
    problem = alloc.error();
  } else if (!alloc->slots.empty()) {  // a job host of its own, only when there is an allocation
    auto started = HostedBackends::start();
    if (!started) return Error{started.failure()};
    hosted = std::move(*started);
    Machine m;
    m.cpus = static_cast<int>(alloc->slots.size());
    m.nodes = alloc->nodes();
    m.mem_bytes = std::uint64_t{1} << 50;  // the scheduler's memory is not what limits the steps
    m.job_limit = config.step_job_limit;
    m.kill_grace_s = c.machine.kill_grace_s;
    auto b = std::make_unique<LocalBackend>(c.store, m, c.state_dir, c.user);
    const bool as_root = ::geteuid() == 0;
    b->serve_as(s.backend, [alloc = *alloc, s, as_root, here = c.machine.hostname](LaunchPlan& plan, const JobSpec& spec) {
      plan_hostfile_step(plan, spec, alloc, s, here, as_root);
    });
    hosted->add(std::move(b));
  }
  StepsEntrySettings steps{s.backend, s.allocation_kind, "start the daemon inside " + s.allocation_kind, "",
                           config.command_timeout_s};
  return std::unique_ptr<Backend>(std::make_unique<StepsEntry>(std::move(steps), nullptr, std::move(hosted), std::move(problem)));
}

}  // namespace yard
