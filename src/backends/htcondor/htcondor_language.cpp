#include "backends/htcondor/htcondor_language.h"

#include "backends/htcondor/htcondor_reader.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

class HtcondorLanguage : public ScriptLanguage {
 public:
  std::string_view name() const override { return "htcondor"; }
  std::string_view title() const override { return kHtcondorTitle; }
  std::string_view directive_word() const override { return "submit description"; }
  std::string_view settings_file() const override { return "htcondor.yaml"; }
  bool reads_scripts() const override { return false; }
  bool has_directives(std::string_view, std::string_view) const override { return false; }
  Result<TranslatedDirectives> read_directives(std::string_view, std::string_view origin, IsDirectory) const override {
    return err(std::string(origin) + ": HTCondor describes a job in a submit description, not in a script's directives");
  }
  bool is_description(std::string_view text) const override { return is_submit_description(text); }
  Result<JobDescription> read_description(std::string_view text, std::string_view origin) const override {
    return read_submit_description(text, origin);
  }
  bool is_directive_line(std::string_view) const override { return false; }
  // condor_submit joins a line ending in a backslash to the next.
  bool joins_continued_lines() const override { return true; }
  bool writes_scripts() const override { return false; }
  jobtext::Directives write(const jobtext::Job& job, const WriteContext& where) const override {
    return jobtext::within_bounds(job, [&](const jobtext::Job& b) { return jobtext::write_htcondor(b, where.executable); });
  }
  std::vector<std::string> translate_examples() const override {
    return {"yard translate --to htcondor job.sh | condor_submit -",
            "yard translate --to htcondor -o job.sub job.sh && condor_submit job.sub   # job.sub names job.sh"};
  }
};

}  // namespace

void register_htcondor_language(ScriptLanguages& languages) { languages.add(std::make_unique<HtcondorLanguage>()); }

}  // namespace yard
