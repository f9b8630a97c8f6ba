// The Torque commands the backend runs, as argv vectors.
#pragma once

#include <string>
#include <vector>

#include "core/job_action.h"

namespace yard {

std::vector<std::string> torque_qsub_argv(const std::string& script_path);
// The whole queue, ended jobs included while the server keeps them (keep_completed),
// array subjobs each on its own (-t), in one XML document: Torque's qstat asks the
// server once per id given, so ids would cost one round trip each.
std::vector<std::string> torque_qstat_argv();
// qdel takes "12", a subjob "12[3]" and a whole array "12[]" as they are.
std::vector<std::string> torque_qdel_argv(const std::vector<std::string>& native_ids);
// qhold -h u / qrls -h u: a user's hold (state H, Hold_Types u), its owner's to release;
// qrerun is an operator's: empty for the requeues.
std::vector<std::string> torque_action_argv(JobAction action, const std::vector<std::string>& native_ids);

}  // namespace yard
