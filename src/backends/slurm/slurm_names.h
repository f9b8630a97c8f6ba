// Native Slurm job names that carry the Switchyard UID: "yard-<uid>" or
// "yard-<uid>-<name>". The user's own name is kept by yard; the native copy is only
// for people reading squeue, so it is reduced to characters that need no quoting
// anywhere (#SBATCH lines, squeue's '|'-separated output, file names via %x).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace yard {

inline constexpr std::string_view kSlurmNamePrefix = "yard-";
// Slurm accepts long names, but squeue and sacct users read them: keep them short.
inline constexpr std::size_t kSlurmNameMaxUserPart = 64;

std::string slurm_native_name(std::string_view uid, std::string_view job_name);
std::optional<std::string> slurm_uid_from_native_name(std::string_view native_name);

}  // namespace yard
