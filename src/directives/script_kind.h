// Which scheduler's directives a batch script carries, and reading the kind chosen: the
// one choice `yard submit` (--directives) and `yard translate` (--from) share. The kinds
// by the names both commands take: slurm (#SBATCH), sge (#$), oar (#OAR), pbs (#PBS;
// torque is the same), lsf (#BSUB), flux (`# flux:`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "directives/sge_directives.h"  // TranslatedDirectives

namespace yard {

// The kinds of directives `script` has, in the order above (#SBATCH lines that cannot be
// read do not count: reading them as slurm then says why).
std::vector<std::string> directive_kinds(std::string_view script, std::string_view origin);

// The kind to read: `chosen` (torque is pbs), else the one kind the script has (slurm
// when it has none); a script with several and no choice is an error naming them and the
// option that chooses (`choose_with`: "--directives", "--from").
Result<std::string> script_kind(std::string_view script, std::string_view origin, std::string_view chosen,
                                std::string_view choose_with);

// The script's directives of `kind` in sbatch's words, with the reader's warnings (none
// for #SBATCH); the directives' `kind` says whose they are ("" for #SBATCH, "#$", "#OAR",
// "#PBS", "#BSUB", "Flux"). `is_directory` says whether an output path names a directory.
Result<TranslatedDirectives> read_directives_of(std::string_view kind, std::string_view script, std::string_view origin,
                                                bool (*is_directory)(const std::string&));

}  // namespace yard
