#include "backends/lsf/lsf_language.h"

#include "backends/lsf/lsf_directives.h"
#include "core/text.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

class LsfLanguage : public ScriptLanguage {
 public:
  std::string_view name() const override { return "lsf"; }
  std::string_view title() const override { return kLsfTitle; }
  std::string_view directive_word() const override { return "#BSUB"; }
  std::string_view settings_file() const override { return "lsf.yaml"; }
  std::span<const SettingDoc> own_settings() const override { return kLsfSettings; }
  bool has_directives(std::string_view script, std::string_view) const override { return has_lsf_directives(script); }
  Result<TranslatedDirectives> read_directives(std::string_view script, std::string_view origin,
                                               IsDirectory is_directory) const override {
    auto d = read_lsf_directives(script, origin, is_directory);
    if (d) d->directives.kind = "#BSUB";
    return d;
  }
  std::string_view submit_dir_variable() const override { return "LS_SUBCWD"; }
  // "#BSUB -x", "# BSUB -x": bsub allows blanks after the '#' and before the option.
  bool is_directive_line(std::string_view line) const override {
    std::string_view t = trim(line);
    if (t.empty() || t[0] != '#') return false;
    t = trim(t.substr(1));
    return starts_with(t, "BSUB") && starts_with(trim(t.substr(4)), "-");
  }
  bool joins_continued_lines() const override { return true; }
  // bsub reads every #BSUB line of the script.
  bool reads_after_commands() const override { return true; }
  jobtext::Directives write(const jobtext::Job& job, const WriteContext&) const override {
    return jobtext::within_bounds(job, jobtext::write_lsf);
  }
};

}  // namespace

void register_lsf_language(ScriptLanguages& languages) { languages.add(std::make_unique<LsfLanguage>()); }

}  // namespace yard
