#include "backends/sge/sge_language.h"

#include <cstdlib>
#include <filesystem>

#include "backends/sge/sge_directives.h"
#include "core/yaml_file.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

class SgeLanguage : public ScriptLanguage {
 public:
  std::string_view name() const override { return "sge"; }
  std::string_view title() const override { return kSgeTitle; }
  std::string_view directive_word() const override { return "#$"; }
  std::string_view settings_file() const override { return "sge.yaml"; }
  std::span<const SettingDoc> own_settings() const override { return kSgeSettings; }
  bool has_directives(std::string_view script, std::string_view) const override { return has_sge_directives(script); }
  Result<TranslatedDirectives> read_directives(std::string_view script, std::string_view origin,
                                               IsDirectory is_directory) const override {
    auto d = read_sge_directives(script, origin, is_directory);
    if (d) d->directives.kind = "#$";
    return d;
  }
  bool is_directive_line(std::string_view line) const override { return directive_in_column_one(line, "#$", true); }
  // qsub reads every #$ line of the script, not only those before the first command.
  bool reads_after_commands() const override { return true; }
  // With the site's parallel environments and GPU complex, where its sge.yaml says them.
  jobtext::Directives write(const jobtext::Job& job, const WriteContext& where) const override {
    SgeSettings settings;
    std::string unread;
    if (!where.settings_dir.empty()) {
      auto site = read_sge_settings(where.settings_dir + "/sge.yaml");
      if (site) settings = std::move(*site);
      else unread = site.error();
    }
    auto d = jobtext::within_bounds(job, [&](const jobtext::Job& b) { return jobtext::write_sge(b, settings); });
    if (!unread.empty()) d.losses.insert(d.losses.begin(), {0, unread, "the site's settings, unread: Grid Engine's defaults used"});
    return d;
  }
};

}  // namespace

Result<SgeSettings> sge_settings_from(const std::map<std::string, std::string>& values, const std::string& path) {
  SgeSettings settings;
  if (auto it = values.find("pe_single_node"); it != values.end()) settings.pe_single_node = it->second;
  if (auto it = values.find("pe_multi_node"); it != values.end()) settings.pe_multi_node = it->second;
  if (auto it = values.find("gpu_resource"); it != values.end()) settings.gpu_resource = it->second;
  if (auto it = values.find("accounting_lag"); it != values.end()) {
    char* end = nullptr;
    const double lag = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0' || !(lag >= 0 && lag <= 3600))
      return err(path + ": accounting_lag: expected seconds from 0 to 3600, got '" + it->second + "'");
    settings.accounting_lag_s = lag;
  }
  return settings;
}

Result<SgeSettings> read_sge_settings(const std::string& path) {
  if (!std::filesystem::exists(path)) return SgeSettings{};
  auto doc = load_yaml(path);
  if (!doc) return doc.failure();
  std::map<std::string, std::string> values;
  try {
    if (!doc->IsMap() && !doc->IsNull()) return err(path + ": expected a mapping of settings");
    if (doc->IsMap()) {
      for (auto kv : *doc)
        for (const auto& setting : kSgeSettings) {
          const std::string_view key = setting.key;
          if (kv.first.as<std::string>() != key) continue;
          if (!kv.second.IsScalar()) return err(yaml_where(path, kv.second) + ": " + std::string(key) + ": expected a value");
          values[std::string(key)] = kv.second.as<std::string>();
        }
    }
  } catch (const YAML::Exception& e) {
    return err(yaml_error(path, e));
  }
  return sge_settings_from(values, path);
}

std::string sge_cannot(std::string_view option, std::string_view why) {
  return std::string(option) + ": backend sge cannot run this job: " + std::string(why);
}

Result<std::string> sge_task_range(const ArraySpec& array) {
  const auto& ix = array.indices;
  if (ix.empty()) return err("--array: no indices");
  if (ix.front() < 1)
    return err(sge_cannot("--array", "Grid Engine numbers array tasks from 1 (got index " + std::to_string(ix.front()) + ")"));
  const std::int64_t step = ix.size() > 1 ? ix[1] - ix[0] : 1;
  for (std::size_t i = 1; i < ix.size(); ++i)
    if (ix[i] - ix[i - 1] != step)
      return err(sge_cannot("--array", "Grid Engine takes one range with a step (like 1-99:2), not a list of indices"));
  std::string out = std::to_string(ix.front()) + "-" + std::to_string(ix.back());
  if (step != 1) out += ":" + std::to_string(step);
  return out;
}

void register_sge_language(ScriptLanguages& languages) { languages.add(std::make_unique<SgeLanguage>()); }

}  // namespace yard
