// PBS's script language, and Torque's: #PBS directives read as qsub reads them
// (pbs_directives.h: one reader for both) and written for PBS Pro / OpenPBS
// (pbs_writer.cpp) or for Torque (torque_writer.cpp), which differ in their resources.
#pragma once

#include <string_view>

#include "jobtext/script_language.h"

namespace yard {

inline constexpr std::string_view kPbsTitle = "PBS Pro";
inline constexpr std::string_view kTorqueTitle = "Torque";

// pbs.yaml's and torque.yaml's own keys (the backends read them; yard translate does not).
inline constexpr SettingDoc kPbsSettings[] = {
    {"gpu_resource", "the chunk resource counting a chunk's GPUs (ngpus on most sites)", "none: GPUs refused"},
};
inline constexpr SettingDoc kTorqueSettings[] = {
    {"gpus", "true when the nodes count GPUs (nodes=N:ppn=P:gpus=G)", "false: GPUs refused"},
};

// Registers "pbs" and "torque" (yard_language() in this folder's CMakeLists.txt).
void register_pbs_languages(ScriptLanguages& languages);

namespace jobtext {
class Writer;
Directives write_pbs(const Job& job);     // pbs_writer.cpp: #PBS for PBS Pro / OpenPBS
// What the PBS Pro backend's scripts share with write_pbs: the job's shape (-l select,
// place), -q, -A, -l walltime, -J, -p; the backend writes its own name, output and
// dependencies (on native ids).
void write_pbs_resources(Writer& w);
// The same for the Torque backend: -l nodes=N:ppn=P[:gpus=G], mem, pmem, -n, -q, -A,
// -l walltime, -t, -p.
void write_torque_resources(Writer& w);
Directives write_torque(const Job& job);  // torque_writer.cpp: #PBS for Torque
}  // namespace jobtext

}  // namespace yard
