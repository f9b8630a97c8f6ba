#include "backends/oar/oar_language.h"

#include <algorithm>

#include "backends/oar/oar_directives.h"
#include "core/shell_quote.h"  // excerpt
#include "core/text.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

class OarLanguage : public ScriptLanguage {
 public:
  std::string_view name() const override { return "oar"; }
  std::string_view title() const override { return kOarTitle; }
  std::string_view directive_word() const override { return "#OAR"; }
  std::string_view settings_file() const override { return "oar.yaml"; }
  std::span<const SettingDoc> own_settings() const override { return kOarSettings; }
  bool has_directives(std::string_view script, std::string_view) const override { return has_oar_directives(script); }
  Result<TranslatedDirectives> read_directives(std::string_view script, std::string_view origin,
                                               IsDirectory) const override {
    auto d = read_oar_directives(script, origin);
    if (d) d->directives.kind = "#OAR";
    return d;
  }
  bool is_directive_line(std::string_view line) const override { return directive_in_column_one(line, "#OAR", false); }
  // oarsub -S reads every #OAR line, not only those before the first command, and none
  // at all when the script's first line is not a comment (it reads from the second on).
  bool reads_after_commands() const override { return true; }
  bool reads_lines_of(std::string_view script) const override { return script.starts_with("#"); }
  std::string_view opening_comment() const override { return "# OAR job (oarsub -S reads the #OAR lines below)\n"; }
  jobtext::Directives write(const jobtext::Job& job, const WriteContext&) const override {
    return jobtext::within_bounds(job, jobtext::write_oar);
  }
};

}  // namespace

std::string oar_cannot(std::string_view option, std::string_view why) {
  return std::string(option) + ": backend oar cannot run this job: " + std::string(why);
}

Status oar_directive_word(std::string_view value, std::string_view what) {
  auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_.-").find(c) != std::string_view::npos;
  };
  if (value.empty() || value[0] == '-' || !std::all_of(value.begin(), value.end(), plain))
    return err(std::string(what) + " " + excerpt(value) +
               " for backend oar: OAR names are letters, digits and _ . - (not starting with -)");
  return {};
}

Result<std::string> oar_resource_request(const JobSpec& spec, const OarSettings& settings) {
  const Resources& r = spec.res;
  if (auto s = oar_directive_word(settings.host_resource, "host resource (host_resource in oar.yaml)"); !s)
    return err(s.error());
  const std::int64_t cores = r.total_cpus();
  if (cores % r.nodes != 0)
    return err(oar_cannot("--ntasks/--cpus-per-task", std::to_string(cores) + " CPUs cannot be spread evenly over " +
                                                      std::to_string(r.nodes) +
                                                      " nodes (OAR gives each host the same number of cores)"));
  const std::int64_t per_host = cores / r.nodes;
  std::string out = "/" + settings.host_resource + "=" + std::to_string(r.nodes);
  if (r.gpus > 0) {
    if (settings.gpu_resource.empty())
      return err(oar_cannot("--gpus", "this cluster has no GPU resource (set gpu_resource in oar.yaml to the name of "
                                  "its GPU resource type)"));
    if (auto s = oar_directive_word(settings.gpu_resource, "GPU resource (gpu_resource in oar.yaml)"); !s)
      return err(s.error());
    if (r.gpus % r.nodes != 0)
      return err(oar_cannot("--gpus", std::to_string(r.gpus) + " GPUs cannot be spread evenly over " +
                                      std::to_string(r.nodes) + " nodes"));
    const std::int64_t gpus_per_host = r.gpus / r.nodes;
    if (per_host % gpus_per_host != 0)
      return err(oar_cannot("--gpus", std::to_string(per_host) + " cores per node cannot be shared evenly by " +
                                      std::to_string(gpus_per_host) +
                                      " GPUs (OAR gives each GPU the same number of cores)"));
    out += "/" + settings.gpu_resource + "=" + std::to_string(gpus_per_host) + "/core=" +
           std::to_string(per_host / gpus_per_host);
  } else {
    out += "/core=" + std::to_string(per_host);
  }
  if (r.walltime_s > 0) out += ",walltime=" + jobtext::hms(r.walltime_s);
  return out;
}

void register_oar_language(ScriptLanguages& languages) { languages.add(std::make_unique<OarLanguage>()); }

}  // namespace yard
