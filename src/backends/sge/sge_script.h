// The Grid Engine batch script of a job: #$ directives, then the shared bash wrapper
// (backends/job_wrapper.h), which also opens the job's output files itself. Every user
// value is quoted or checked; the script is saved beside the job and can be rerun by
// hand (qsub FILE).
#pragma once

#include <string>

#include "backends/dialect.h"
#include "core/array_spec.h"
#include "core/result.h"

namespace yard {

// What differs between Grid Engine sites (sge.yaml).
struct SgeSettings {
  // The parallel environment for jobs of more than one slot on one node, and for jobs
  // over several nodes (its allocation rule spreads them). Empty: none; such jobs are
  // refused.
  std::string pe_single_node = "smp";
  std::string pe_multi_node = "mpi";
  // The consumable complex that counts GPUs (sites name it: gpu, gpus, cuda...). Empty:
  // the cluster has none; a job asking for GPUs is refused.
  std::string gpu_resource;
  // The qmaster's accounting flush interval and a margin (reporting_params
  // accounting_flush_time, 15 s unless the site set it): how long a record may lag
  // behind the job's end.
  double accounting_lag_s = 20;
};

Result<std::string> sge_batch_script(const JobSpec& spec, const SubmitContext& ctx, const SgeSettings& settings);

// An ArraySpec as qsub -t text ("1-9:2"): Grid Engine takes one range with a step, from 1.
Result<std::string> sge_task_range(const ArraySpec& array);

}  // namespace yard
