// Every script language of this build: one line per scheduler in all_languages.cpp, each
// registering from its folder (jobtext/script_language.h).
#pragma once

#include "jobtext/script_language.h"

namespace yard {

// Built once, on first use.
const ScriptLanguages& all_script_languages();

}  // namespace yard
