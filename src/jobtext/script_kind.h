// Which scheduler's directives a batch script carries, and reading the kind chosen: the
// one choice `yard submit` (--directives) and `yard translate` (--from) share, over the
// languages of the build (script_language.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jobtext/script_language.h"

namespace yard {

// The names of the languages whose directives `script` has, in the registry's order (a
// language told apart from its family's by name alone is never found here; #SBATCH lines
// that cannot be read do not count: reading them as slurm then says why).
std::vector<std::string> directive_kinds(const ScriptLanguages& languages, std::string_view script,
                                         std::string_view origin);

// The language to read: `chosen`, else the one the script has directives of (the first
// registered, #SBATCH's, when it has none); a script with several and no choice is an
// error naming them and the option that chooses (`choose_with`: "--directives", "--from").
// An unknown `chosen` is an error naming the known ones.
Result<const ScriptLanguage*> script_kind(const ScriptLanguages& languages, std::string_view script,
                                          std::string_view origin, std::string_view chosen,
                                          std::string_view choose_with);

}  // namespace yard
