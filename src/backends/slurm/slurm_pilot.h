// A pilot batch job: the allocation yard obtains itself for direct mode (slurm.yaml
// `allocation: pilot` and a `pilot:` map). Only names, argv and the choice of a listing
// line: the daemon's Pilot (src/backends/slurm/pilot.h) runs the commands.
//
// The pilot's name carries a recognizable prefix, the user and a digest of the daemon's
// state directory ("yard-pilot-alice-1a2b3c4d"): after a crash of the daemon the pilot is
// found again by that name, never submitted twice; two daemons of one user (two state
// directories) have a pilot each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "backends/pilot_spec.h"

namespace yard {

inline constexpr std::string_view kSlurmPilotPrefix = "yard-pilot-";

std::string slurm_pilot_name(std::string_view user, std::string_view state_dir);
// sbatch of a job that holds its allocation until cancelled (or its time limit).
std::vector<std::string> pilot_sbatch_argv(const PilotSpec& spec, const std::string& name);
// The user's live jobs of that name (squeue, in parse_squeue's format).
std::vector<std::string> pilot_find_argv(const std::string& name);
// The id of a job named `name` that holds or waits for its allocation (PENDING,
// CONFIGURING, RUNNING), from a parse_squeue listing; the newest when several.
std::optional<std::string> live_pilot(const std::vector<NativeStatus>& listing, const std::string& name);

}  // namespace yard
