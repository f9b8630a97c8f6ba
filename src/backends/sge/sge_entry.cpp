#include "backends/sge/sge_entry.h"

#include <cstdlib>

#include "backends/indirect_entry.h"
#include "backends/sge/sge_dialect.h"

namespace yard {
namespace {

// sge.yaml: the engine's settings (poll_interval, lost_after, ...) and the site's
// parallel environments and GPU complex (sge_script.h).
Result<std::unique_ptr<Backend>> open_sge(const BackendContext& c) {
  auto config = load_indirect_config(c.config_dir + "/sge.yaml",
                                     {"pe_single_node", "pe_multi_node", "gpu_resource", "accounting_lag"});
  if (!config) return Error{config.failure()};
  SgeSettings settings;
  const auto& own = config->scheduler_settings;
  if (auto it = own.find("pe_single_node"); it != own.end()) settings.pe_single_node = it->second;
  if (auto it = own.find("pe_multi_node"); it != own.end()) settings.pe_multi_node = it->second;
  if (auto it = own.find("gpu_resource"); it != own.end()) settings.gpu_resource = it->second;
  if (auto it = own.find("accounting_lag"); it != own.end()) {
    char* end = nullptr;
    const double lag = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0' || !(lag >= 0 && lag <= 3600))
      return err(c.config_dir + "/sge.yaml: accounting_lag: expected seconds from 0 to 3600, got '" + it->second + "'");
    settings.accounting_lag_s = lag;
  }
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<SgeDialect>(c.user, std::move(settings)), std::move(*config)));
}

}  // namespace

void register_sge_backend(BackendRegistry& registry) { registry.add("sge", open_sge); }

}  // namespace yard
