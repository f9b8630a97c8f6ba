// LSF's script language: #BSUB directives read as bsub reads them (lsf_directives.h) and
// written by lsf_writer.cpp.
#pragma once

#include <string_view>

#include "jobtext/script_language.h"

namespace yard {

inline constexpr std::string_view kLsfTitle = "LSF";

// Registers "lsf" (backends/all_languages.cpp).
void register_lsf_language(ScriptLanguages& languages);

namespace jobtext {
Directives write_lsf(const Job& job);  // lsf_writer.cpp: #BSUB
}  // namespace jobtext

}  // namespace yard
