#include "backends/sge/sge_language.h"

#include "backends/sge/sge_directives.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

class SgeLanguage : public ScriptLanguage {
 public:
  std::string_view name() const override { return "sge"; }
  std::string_view title() const override { return kSgeTitle; }
  std::string_view directive_word() const override { return "#$"; }
  std::string_view settings_file() const override { return "sge.yaml"; }
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
  jobtext::Directives write(const jobtext::Job& job, const std::string&) const override {
    return jobtext::within_bounds(job, [](const jobtext::Job& b) { return jobtext::write_sge(b); });
  }
};

}  // namespace

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
