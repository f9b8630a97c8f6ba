#include "backends/flux/flux_language.h"

#include "backends/flux/flux_directives.h"
#include "core/text.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

class FluxLanguage : public ScriptLanguage {
 public:
  std::string_view name() const override { return "flux"; }
  std::string_view title() const override { return kFluxTitle; }
  std::string_view directive_word() const override { return "# flux:"; }
  std::string_view settings_file() const override { return "flux.yaml"; }
  bool has_directives(std::string_view script, std::string_view) const override { return has_flux_directives(script); }
  Result<TranslatedDirectives> read_directives(std::string_view script, std::string_view origin,
                                               IsDirectory) const override {
    auto d = read_flux_directives(script, origin);
    if (d) d->directives.kind = "Flux";
    return d;
  }
  // A sentinel before an option.
  bool is_directive_line(std::string_view line) const override {
    auto s = flux_sentinel(line);
    return s && starts_with(trim(s->rest), "-");
  }
  // A script's group of directives may follow commands (RFC 36).
  bool directives_follow_commands() const override { return true; }
  bool reads_after_commands() const override { return true; }
  // flux batch refuses any sentinel line after the group of directives.
  std::vector<int> directives_in_body(std::string_view body, int first_number) const override {
    std::vector<int> out;
    int number = first_number;
    for (std::string_view line : split(body, '\n')) {
      if (flux_sentinel(line)) out.push_back(number);
      ++number;
    }
    return out;
  }
  // Any sentinel is one to flux batch, even in a comment kept as it is.
  bool keeps_comment(std::string_view line) const override { return !flux_sentinel(line); }
  jobtext::Directives write(const jobtext::Job& job, const WriteContext&) const override {
    return jobtext::within_bounds(job, jobtext::write_flux);
  }
};

}  // namespace

void register_flux_language(ScriptLanguages& languages) { languages.add(std::make_unique<FluxLanguage>()); }

}  // namespace yard
