#include "core/gpus.h"

#include <charconv>
#include <string_view>

namespace yard {

Result<int> parse_gpu_request(const std::string& gpus_flag, const std::string& gres) {
  std::string gpus = gpus_flag;
  if (!gres.empty() && gpus.empty()) {
    // Slurm's gpu[:type][:count]; the count defaults to 1.
    std::string_view g = gres;
    if (g != "gpu" && g.substr(0, 4) != "gpu:")
      return err("--gres: only GPUs are understood (gpu, gpu:N or gpu:TYPE:N), got '" + gres + "'");
    gpus = g == "gpu" ? "1" : std::string(g.substr(4));
    if (gpus.find(':') == std::string::npos && !gpus.empty() && !(gpus[0] >= '0' && gpus[0] <= '9')) gpus = "1";
  }
  if (gpus.empty()) return 0;
  std::string_view g = gpus;
  if (auto colon = g.rfind(':'); colon != std::string_view::npos) g = g.substr(colon + 1);
  int n = -1;
  auto [p, ec] = std::from_chars(g.data(), g.data() + g.size(), n);
  if (ec != std::errc() || p != g.data() + g.size() || n < 0)
    return err((gpus_flag.empty() ? "--gres: invalid value '" + gres : "--gpus: invalid value '" + gpus_flag) +
               "' (accepted: N or TYPE:N, N >= 0)");
  return n;
}

Result<GresRequest> split_gres(const std::string& gres) {
  GresRequest r;
  std::string_view rest = gres;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view entry = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (entry.empty()) return err("--gres: an empty entry in '" + gres + "'");
    if (entry == "gpu" || entry.substr(0, 4) == "gpu:") {
      if (!r.gpu.empty()) return err("--gres: two GPU entries in '" + gres + "'");
      r.gpu = entry;
    } else {
      r.other += (r.other.empty() ? "" : ",") + std::string(entry);
    }
  }
  return r;
}

}  // namespace yard
