#include "backends/pbs/pbs_language.h"

#include "backends/pbs/pbs_directives.h"
#include "core/text.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

class PbsLanguage : public ScriptLanguage {
 public:
  std::string_view name() const override { return "pbs"; }
  std::string_view title() const override { return kPbsTitle; }
  std::string_view directive_word() const override { return "#PBS"; }
  std::string_view settings_file() const override { return "pbs.yaml"; }
  std::span<const SettingDoc> own_settings() const override { return kPbsSettings; }
  bool has_directives(std::string_view script, std::string_view) const override { return has_pbs_directives(script); }
  Result<TranslatedDirectives> read_directives(std::string_view script, std::string_view origin,
                                               IsDirectory is_directory) const override {
    auto d = read_pbs_directives(script, origin, is_directory);
    if (d) d->directives.kind = "#PBS";
    return d;
  }
  std::string_view submit_dir_variable() const override { return "PBS_O_WORKDIR"; }
  bool is_directive_line(std::string_view line) const override {
    const std::string_view t = trim(line);
    return starts_with(t, "#PBS") && (t.size() == 4 || t[4] == ' ' || t[4] == '\t' || t[4] == '-');
  }
  // qsub reads on past a line starting with ':'.
  bool is_command(std::string_view line) const override {
    return ScriptLanguage::is_command(line) && line[0] != ':';
  }
  bool joins_continued_lines() const override { return true; }
  // qsub reads directives up to its first command, which may come after sbatch's (a ':' line).
  std::vector<int> directives_in_body(std::string_view body, int first_number) const override {
    std::vector<int> out;
    int number = first_number;
    for (std::string_view line : split(body, '\n')) {
      if (is_command(line)) break;
      if (is_directive_line(line)) out.push_back(number);
      ++number;
    }
    return out;
  }
  jobtext::Directives write(const jobtext::Job& job, const WriteContext&) const override {
    return jobtext::within_bounds(job, jobtext::write_pbs);
  }
  std::vector<std::string> translate_examples() const override {
    return {"yard translate --to pbs job.sh > job.pbs        # an sbatch script for qsub",
            "yard translate --to slurm --from pbs -o job.slurm job.pbs"};
  }
};

// Torque reads PBS's scripts; it differs in the resources a writer asks for.
class TorqueLanguage : public PbsLanguage {
 public:
  std::string_view name() const override { return "torque"; }
  std::string_view title() const override { return kTorqueTitle; }
  std::string_view family() const override { return "pbs"; }
  std::string_view settings_file() const override { return "torque.yaml"; }
  std::span<const SettingDoc> own_settings() const override { return kTorqueSettings; }
  jobtext::Directives write(const jobtext::Job& job, const WriteContext&) const override {
    return jobtext::within_bounds(job, jobtext::write_torque);
  }
  std::vector<std::string> translate_examples() const override { return {}; }
};

}  // namespace

void register_pbs_languages(ScriptLanguages& languages) {
  languages.add(std::make_unique<PbsLanguage>());
  languages.add(std::make_unique<TorqueLanguage>());
}

}  // namespace yard
