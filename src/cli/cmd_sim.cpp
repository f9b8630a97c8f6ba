#include "cli/cmd_sim.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "sched/policy.h"
#include "sched/policy_config.h"
#include "sim/policy_sim.h"
#include "sim/jobs_csv.h"
#include "sim/metrics.h"
#include "sim/simulator.h"
#include "sim/svg_plot.h"
#include "sim/swf_reader.h"
#include "sim/workload.h"

namespace yard {

namespace {

constexpr int kBadInput = 2;

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

void print_human(std::ostream& out, const SimOptions& o, sim::Procs machine, const sim::Metrics& m) {
  out << "trace                 " << o.trace << '\n'
      << "policy                " << (o.config.empty() ? o.policy : "config " + o.config) << " on "
      << machine << " processors\n"
      << "jobs                  " << m.jobs << '\n'
      << "avg wait              " << fixed(m.avg_wait_s, 1) << " s\n"
      << "avg bounded slowdown  " << fixed(m.avg_bounded_slowdown, 3) << " (threshold "
      << sim::kSlowdownThreshold << " s)\n"
      << "max wait              " << m.max_wait_s << " s\n"
      << "utilization           " << fixed(100.0 * m.utilization, 2) << " %\n"
      << "makespan              " << m.makespan_s << " s ("
      << fixed(static_cast<double>(m.makespan_s) / 86400.0, 1) << " days)\n";
}

}  // namespace

int run_sim(const SimOptions& o, std::ostream& out, std::ostream& err) {
  if (o.config.empty() == o.policy.empty()) {
    err << "yard sim: give either --policy or --config\n";
    return kBadInput;
  }
  std::optional<sched::PolicyConfig> config;
  if (!o.config.empty()) {
    auto loaded = sched::load_policy_config(o.config);
    if (!loaded) {
      err << "yard sim: " << loaded.error() << '\n';
      return kBadInput;
    }
    config = std::move(*loaded);
  }
  const auto policy = config ? std::optional(config->policy()) : sched::policy_by_name(o.policy);
  if (!policy) {
    err << "yard sim: unknown policy '" << o.policy << "' (accepted: " << sched::policy_names()
        << ")\n";
    return kBadInput;
  }
  if (o.procs < 0) {
    err << "yard sim: --procs must be a positive number of processors\n";
    return kBadInput;
  }
  auto trace = sim::read_swf(o.trace, {o.lenient});
  if (!trace) {
    const bool malformed = trace.error().rfind("line ", 0) == 0;
    err << "yard sim: " << o.trace << ": " << trace.error()
        << (malformed && !o.lenient ? " (--lenient skips malformed lines)\n" : "\n");
    return kBadInput;
  }
  if (trace->skipped_lines > 0) {
    err << "yard sim: skipped " << trace->skipped_lines << " malformed line(s); first: "
        << trace->first_skipped << '\n';
  }
  // An explicit --procs wins over the header, for what-if studies on another machine size.
  sim::Procs machine = o.procs > 0 ? o.procs : trace->max_procs.value_or(0);
  if (machine <= 0) {
    err << "yard sim: " << o.trace << " has no MaxProcs header: give the machine size with --procs N\n";
    return kBadInput;
  }
  std::vector<sim::SimJob> jobs;
  Result<sim::SimResult> result = yard::err("not simulated");
  std::optional<std::size_t> preemptions;
  if (config) {
    // Under a config the machine is the sum of its pools.
    auto pools = sim::pool_sizes(*config, machine);
    auto policy_jobs = pools ? sim::policy_jobs_from_swf(*trace, *config, *pools, o.first)
                             : Result<std::vector<sim::PolicyJob>>(yard::err(pools.error()));
    if (!policy_jobs) {
      err << "yard sim: " << policy_jobs.error() << '\n';
      return kBadInput;
    }
    auto simulated = sim::simulate_policy(*policy_jobs, *config, *pools);
    if (!simulated) {
      err << "yard sim: " << simulated.error() << '\n';
      return kBadInput;
    }
    jobs = sim::sim_jobs(*policy_jobs);
    machine = 0;
    for (const sched::Pool& p : *pools) machine += p.cores();
    preemptions = simulated->preemptions;
    result = std::move(simulated->result);
  } else {
    jobs = sim::jobs_from_swf(*trace, machine, o.first);
    result = sim::simulate(jobs, machine, *policy);
  }
  if (!result) {
    err << "yard sim: " << result.error() << '\n';
    return kBadInput;
  }
  if (!o.jobs_csv.empty()) {
    if (Status st = sim::write_jobs_csv_file(o.jobs_csv, jobs, *result); !st) {
      err << "yard sim: " << st.error() << '\n';
      return kBadInput;
    }
  }
  if (!o.plot.empty()) {
    sim::PlotOptions plot;
    plot.title = (o.config.empty() ? o.policy : o.config) + " on " + std::to_string(machine) + " processors: " + o.trace;
    if (Status st = sim::write_svg_plot_file(o.plot, jobs, *result, machine, plot); !st) {
      err << "yard sim: " << st.error() << '\n';
      return kBadInput;
    }
  }
  const sim::Metrics m = sim::compute_metrics(jobs, *result, machine);
  if (o.json) {
    nlohmann::json j = {{"jobs", m.jobs},
                        {"avg_wait_s", m.avg_wait_s},
                        {"avg_bounded_slowdown", m.avg_bounded_slowdown},
                        {"max_wait_s", m.max_wait_s},
                        {"utilization", m.utilization},
                        {"makespan_s", m.makespan_s}};
    if (preemptions) j["preemptions"] = *preemptions;
    out << j.dump() << '\n';
  } else {
    print_human(out, o, machine, m);
    if (preemptions) out << "preemptions           " << *preemptions << '\n';
  }
  return 0;
}

void add_sim_command(CLI::App& app) {
  auto options = std::make_shared<SimOptions>();
  CLI::App* sim = app.add_subcommand(
      "sim", "Replay a Standard Workload Format trace (plain or .gz) under a scheduling policy");
  sim->add_option("trace", options->trace, "SWF trace file (plain or gzip)")->required();
  sim->add_option("--policy", options->policy, "fcfs|easy|conservative|sjbf");
  sim->add_option("--config", options->config,
                  "policy config (YAML: tiers, fair-share, accounts, pools), instead of --policy");
  sim->add_option("--procs", options->procs,
                  "machine size in processors (default: the trace's MaxProcs header)");
  sim->add_option("--first", options->first, "simulate only the first N jobs");
  sim->add_flag("--json", options->json, "print the metrics as one JSON object");
  sim->add_option("--jobs-csv", options->jobs_csv,
                  "write job_id,submit,start,run,procs,est per job to FILE");
  sim->add_option("--plot", options->plot, "draw utilization and queue length to FILE.svg");
  sim->add_flag("--lenient", options->lenient, "skip malformed trace lines instead of failing");
  sim->callback([options] {
    const int rc = run_sim(*options, std::cout, std::cerr);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace yard
