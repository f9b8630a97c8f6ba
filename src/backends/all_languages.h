// Every script language of this build, each registering from its folder with one
// yard_language() call in its CMakeLists.txt (all_languages.cpp is generated from them).
#pragma once

#include "jobtext/script_language.h"

namespace yard {

// Built once, on first use.
const ScriptLanguages& all_script_languages();

}  // namespace yard
