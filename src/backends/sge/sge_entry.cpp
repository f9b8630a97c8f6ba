#include "backends/sge/sge_entry.h"

#include "backends/indirect_entry.h"
#include "backends/sge/sge_dialect.h"

namespace yard {
namespace {

// sge.yaml: the engine's settings (poll_interval, lost_after, ...) and the site's
// parallel environments and GPU complex (sge_script.h).
Result<std::unique_ptr<Backend>> open_sge(const BackendContext& c) {
  auto config = load_indirect_config(c.config_dir + "/sge.yaml", {"pe_single_node", "pe_multi_node", "gpu_resource"});
  if (!config) return Error{config.failure()};
  SgeSettings settings;
  const auto& own = config->scheduler_settings;
  if (auto it = own.find("pe_single_node"); it != own.end()) settings.pe_single_node = it->second;
  if (auto it = own.find("pe_multi_node"); it != own.end()) settings.pe_multi_node = it->second;
  if (auto it = own.find("gpu_resource"); it != own.end()) settings.gpu_resource = it->second;
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<SgeDialect>(c.user, std::move(settings)), std::move(*config)));
}

}  // namespace

void register_sge_backend(BackendRegistry& registry) { registry.add("sge", open_sge); }

}  // namespace yard
