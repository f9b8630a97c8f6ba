// Flux's script language: `# flux:` directives read as flux batch reads them
// (flux_directives.h, RFC 36) and written by flux_writer.cpp.
#pragma once

#include <string_view>

#include "jobtext/script_language.h"

namespace yard {

inline constexpr std::string_view kFluxTitle = "Flux";

// Registers "flux" (yard_language() in this folder's CMakeLists.txt).
void register_flux_language(ScriptLanguages& languages);

namespace jobtext {
Directives write_flux(const Job& job);  // flux_writer.cpp: # flux:
}  // namespace jobtext

}  // namespace yard
