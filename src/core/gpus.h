// GPU counts as sbatch takes them: --gpus N or TYPE:N, and --gres gpu[:TYPE][:N] (the
// count defaults to 1). Only GPUs are understood among generic resources.
#pragma once

#include <string>

#include "core/result.h"

namespace yard {

// The number of GPUs asked for by --gpus (`gpus`, wins when given) or --gres (`gres`);
// 0 when neither is given. Errors name the flag and the value.
Result<int> parse_gpu_request(const std::string& gpus, const std::string& gres);

// --gres as sbatch takes it, a comma-separated list: the GPU entry (gpu[:TYPE][:N]) and
// the others ("nvme:1"), which only a Slurm with those resources can give.
struct GresRequest {
  std::string gpu;    // "" when none
  std::string other;  // the other entries, comma-separated, as given
};
Result<GresRequest> split_gres(const std::string& gres);

}  // namespace yard
