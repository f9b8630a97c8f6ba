#include "jobtext/script_kind.h"

namespace yard {

std::vector<std::string> directive_kinds(const ScriptLanguages& languages, std::string_view script,
                                         std::string_view origin) {
  std::vector<std::string> kinds;
  for (const auto& l : languages.all())
    if (l->reads_scripts() && l->family() == l->name() && l->has_directives(script, origin))
      kinds.emplace_back(l->name());
  return kinds;
}

Result<const ScriptLanguage*> script_kind(const ScriptLanguages& languages, std::string_view script,
                                          std::string_view origin, std::string_view chosen,
                                          std::string_view choose_with) {
  if (!chosen.empty()) {
    const ScriptLanguage* l = languages.find(chosen);
    if (!l || !l->reads_scripts())
      return err("unknown kind of directives '" + std::string(chosen) + "' (" + joined(languages.script_names()) + ")");
    return l;
  }
  const auto kinds = directive_kinds(languages, script, origin);
  if (kinds.size() > 1)
    return err(std::string(origin) + ": the script has directives of several schedulers (" + joined(kinds) +
               "): choose which to read with " + std::string(choose_with) + " " + kinds[0] + " (or another)");
  if (kinds.empty()) {
    if (languages.all().empty()) return err("no script language is registered");
    return languages.all().front().get();
  }
  return languages.find(kinds[0]);
}

}  // namespace yard
