// Slurm's script language: #SBATCH lines, read by core/batch_directives.h (the words
// every other language is said in) and written by slurm_writer.cpp.
#pragma once

#include <string_view>

#include "jobtext/script_language.h"

namespace yard {

inline constexpr std::string_view kSlurmTitle = "Slurm";

// Registers "slurm" (yard_language() in this folder's CMakeLists.txt): the first language, whose reader reads
// a script that has no directives of any kind.
void register_slurm_language(ScriptLanguages& languages);

namespace jobtext {
class Writer;
// slurm_writer.cpp: the job's #SBATCH lines.
Directives write_slurm(const Job& job);
// What the Slurm backend's script shares with write_slurm: the job-wide lines of its shape
// and place, then, after the caller's own job-wide lines, the heterogeneous components
// (each line after a hetjob line is that component's).
void write_slurm_job(Writer& w);
void write_slurm_components(Writer& w);
}  // namespace jobtext

}  // namespace yard
