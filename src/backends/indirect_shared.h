// What the indirect backend's files share (indirect_backend.cpp: its lifecycle and loop;
// indirect_submission.cpp: submitting; indirect_tracking.cpp: status and history;
// indirect_lookup.cpp: finding a job again by its UID after a crash).
#pragma once

#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "backends/dialect.h"

namespace yard::indirect {

inline constexpr int kMaxSubmissionsInFlight = 4;  // so status calls still get their turn
inline constexpr double kIdleWakeup = 3600;
// A requeue under way, stored as the job's moving_to (a move to the same backend, in
// effect) so that a daemon restarted meanwhile finishes it (indirect_requeue.cpp).
inline constexpr const char* kRequeueMark = "(requeue)";
inline constexpr const char* kRequeueHoldMark = "(requeue, then held)";

inline void log(std::string_view backend, const std::string& what) {
  std::cerr << "yard daemon: " << backend << ": " << what << std::endl;
}

// "123", "123_4", "123_[4-9]", "123+1" (Slurm), "123.4" (another scheduler's) -> "123".
inline std::string native_base_of(std::string_view native_id) {
  return std::string(native_id.substr(0, native_id.find_first_of("_+[.")));
}

// Statuses by native id. A heterogeneous job is one yard job tracked by its base id N
// (what the submit command returns), but the scheduler lists its components as N+0,
// N+1, ...: component 0, where the job's command runs and whose exit code is the job's,
// also answers for N. (Slurm starts and ends all components together; one that cannot
// run makes the submission fail.) In order: the last record of a requeued job wins.
std::unordered_map<std::string, const NativeStatus*> by_native_id(const std::vector<NativeStatus>& statuses);

// At most `max_chars` of `text`, without trailing blank lines: a command's output in a reason.
std::string first_lines(const std::string& text, std::size_t max_chars = 400);

// The nodes a job's tries failed on, with the times each did, as the store keeps them
// (JobRecord::failed_on: "node=2,other=1"), and back (indirect_retry.cpp).
std::string failed_on_text(const std::map<std::string, int>& failed_on);
std::map<std::string, int> failed_on_of(std::string_view text);

}  // namespace yard::indirect
