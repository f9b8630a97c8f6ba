#include "backends/slurm/slurm_language.h"

namespace yard {
namespace {

class SlurmLanguage : public ScriptLanguage {
 public:
  std::string_view name() const override { return "slurm"; }
  std::string_view title() const override { return kSlurmTitle; }
  std::string_view directive_word() const override { return "#SBATCH"; }
  std::string_view settings_file() const override { return "slurm.yaml"; }
  bool has_directives(std::string_view script, std::string_view origin) const override {
    auto d = read_batch_directives(script, origin);
    return d && (!d->lines.empty() || !d->components.empty());
  }
  Result<TranslatedDirectives> read_directives(std::string_view script, std::string_view origin,
                                               IsDirectory) const override {
    auto d = read_batch_directives(script, origin);
    if (!d) return d.failure();
    return TranslatedDirectives{std::move(*d), {}, {}};
  }
  // sbatch refuses a script without a #! line.
  bool needs_interpreter_line() const override { return true; }
  std::string_view submit_dir_variable() const override { return "SLURM_SUBMIT_DIR"; }
  bool is_directive_line(std::string_view line) const override {
    return directive_in_column_one(line, "#SBATCH", true);
  }
  // sbatch counts in 32 and 64 bits: the job is written as it is.
  jobtext::Directives write(const jobtext::Job& job, const WriteContext&) const override {
    return jobtext::write_slurm(job);
  }
};

}  // namespace

void register_slurm_language(ScriptLanguages& languages) { languages.add(std::make_unique<SlurmLanguage>()); }

}  // namespace yard
