#include "directives/script_kind.h"

#include "directives/flux_directives.h"
#include "directives/lsf_directives.h"
#include "directives/oar_directives.h"
#include "directives/pbs_directives.h"

namespace yard {

std::vector<std::string> directive_kinds(std::string_view script, std::string_view origin) {
  std::vector<std::string> kinds;
  auto sbatch = read_batch_directives(script, origin);
  if (sbatch && (!sbatch->lines.empty() || !sbatch->components.empty())) kinds.push_back("slurm");
  if (has_sge_directives(script)) kinds.push_back("sge");
  if (has_oar_directives(script)) kinds.push_back("oar");
  if (has_pbs_directives(script)) kinds.push_back("pbs");
  if (has_lsf_directives(script)) kinds.push_back("lsf");
  if (has_flux_directives(script)) kinds.push_back("flux");
  return kinds;
}

Result<std::string> script_kind(std::string_view script, std::string_view origin, std::string_view chosen,
                                std::string_view choose_with) {
  if (!chosen.empty()) return std::string(chosen == "torque" ? "pbs" : chosen);
  const auto kinds = directive_kinds(script, origin);
  if (kinds.size() > 1) {
    std::string list;
    for (auto& k : kinds) list += (list.empty() ? "" : ", ") + k;
    return err(std::string(origin) + ": the script has directives of several schedulers (" + list +
               "): choose which to read with " + std::string(choose_with) + " " + kinds[0] + " (or another)");
  }
  return kinds.empty() ? std::string("slurm") : kinds[0];
}

Result<TranslatedDirectives> read_directives_of(std::string_view kind, std::string_view script, std::string_view origin,
                                                bool (*is_directory)(const std::string&)) {
  if (kind == "slurm") {
    auto sbatch = read_batch_directives(script, origin);
    if (!sbatch) return sbatch.failure();
    return TranslatedDirectives{std::move(*sbatch), {}};
  }
  if (kind != "sge" && kind != "pbs" && kind != "lsf" && kind != "flux" && kind != "oar")
    return err("unknown kind of directives '" + std::string(kind) + "' (slurm, sge, oar, pbs, torque, lsf, flux)");
  auto translated = kind == "sge"    ? read_sge_directives(script, origin, is_directory)
                    : kind == "pbs"  ? read_pbs_directives(script, origin, is_directory)
                    : kind == "lsf"  ? read_lsf_directives(script, origin, is_directory)
                    : kind == "flux" ? read_flux_directives(script, origin)
                                     : read_oar_directives(script, origin);
  if (!translated) return translated;
  translated->directives.kind = kind == "sge"    ? "#$"
                                : kind == "pbs"  ? "#PBS"
                                : kind == "lsf"  ? "#BSUB"
                                : kind == "flux" ? "Flux"
                                                 : "#OAR";
  return translated;
}

}  // namespace yard
