// LSF's script language: #BSUB directives read as bsub reads them (lsf_directives.h) and
// written by lsf_writer.cpp.
#pragma once

#include <string_view>

#include "jobtext/script_language.h"

namespace yard {

// lsf.yaml's own keys (the backend reads them).
inline constexpr SettingDoc kLsfSettings[] = {
    {"gpus", "true when the site's LSF schedules GPUs (-gpu)", "false: GPUs refused"},
};

inline constexpr std::string_view kLsfTitle = "LSF";

// Registers "lsf" (yard_language() in this folder's CMakeLists.txt).
void register_lsf_language(ScriptLanguages& languages);

namespace jobtext {
class Writer;
Directives write_lsf(const Job& job);  // lsf_writer.cpp: #BSUB
// What the LSF backend's scripts share with write_lsf: the job's shape (-n, -R "span[...]
// rusage[mem=...]", -gpu, -W), -q and -P; the backend writes its own name and array
// indices, output and dependencies (on native ids).
void write_lsf_place(Writer& w);
}  // namespace jobtext

}  // namespace yard
