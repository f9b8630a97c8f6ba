#include "backends/slurm/slurm_states.h"

#include <array>
#include <string_view>

#include "core/text.h"

namespace yard {
namespace {

struct Row {
  std::string_view slurm;
  JobState state;
  // Kept in the detail because our state alone would hide it.
  bool keep_name;
};

// Why some rows are what they are:
// - COMPLETING: the job's processes are ending (epilog, KillWait); it may still end
//   as CANCELLED or TIMEOUT, so it is not final yet.
// - SUSPENDED/STOPPED hold their allocation and resume: Running, not Pending.
// - REQUEUED/REQUEUE_HOLD/REQUEUE_FED: the job will run again (or waits for release).
// - PREEMPTED: nobody the user knows stopped the job and its work is unfinished; a
//   retry policy must see it as a failure, not as the user's own cancellation.
//   (With PreemptMode=REQUEUE Slurm shows the job PENDING again instead.)
// - DEADLINE: killed because --deadline could no longer be met: a time limit.
// - BOOT_FAIL: the node never came up for the job: an infrastructure failure.
// - SPECIAL_EXIT: requeued on hold after an exit code the site flagged: failed.
// - REVOKED: a federated sibling that another cluster ran: not ours to run.
constexpr std::array<Row, 24> kRows{{
    {"PENDING", JobState::Pending, false},
    {"RUNNING", JobState::Running, false},
    {"COMPLETING", JobState::Running, true},
    {"COMPLETED", JobState::Completed, false},
    {"FAILED", JobState::Failed, false},
    {"CANCELLED", JobState::Cancelled, false},
    {"TIMEOUT", JobState::Timeout, false},
    {"OUT_OF_MEMORY", JobState::OutOfMemory, false},
    {"NODE_FAIL", JobState::NodeFail, false},
    {"PREEMPTED", JobState::Failed, true},
    {"REQUEUED", JobState::Pending, true},
    {"REQUEUE_HOLD", JobState::Pending, true},
    {"REQUEUE_FED", JobState::Pending, true},
    {"RESV_DEL_HOLD", JobState::Pending, true},
    {"BOOT_FAIL", JobState::NodeFail, true},
    {"DEADLINE", JobState::Timeout, true},
    {"SUSPENDED", JobState::Running, true},
    {"STOPPED", JobState::Running, true},
    {"CONFIGURING", JobState::Running, true},
    {"RESIZING", JobState::Running, true},
    {"SIGNALING", JobState::Running, true},
    {"STAGE_OUT", JobState::Running, true},
    {"SPECIAL_EXIT", JobState::Failed, true},
    {"REVOKED", JobState::Cancelled, true},
}};

void append(std::string& detail, std::string_view part) {
  if (part.empty()) return;
  if (!detail.empty()) detail += ", ";
  detail += part;
}

}  // namespace

MappedState map_slurm_state(const NativeStatus& s) {
  std::string_view raw = trim(s.raw_state);
  std::string_view word = raw;
  std::string_view by;  // "CANCELLED by 1000": who cancelled it
  if (auto sp = raw.find(' '); sp != std::string_view::npos) {
    word = raw.substr(0, sp);
    std::string_view rest = trim(raw.substr(sp + 1));
    if (word != "CANCELLED" || !starts_with(rest, "by ") || trim(rest.substr(3)).empty())
      return {JobState::Unknown, std::string(s.raw_state)};
    by = trim(rest.substr(3));
  }
  for (const auto& row : kRows) {
    if (row.slurm != word) continue;
    MappedState m{row.state, {}};
    if (row.keep_name) append(m.detail, row.slurm);
    if (!by.empty()) append(m.detail, "by uid " + std::string(by));
    if (row.state == JobState::Failed && s.signal && *s.signal != 0)
      append(m.detail, "signal " + std::to_string(*s.signal));
    else if (row.state == JobState::Failed && s.exit_code && *s.exit_code != 0)
      append(m.detail, "exit code " + std::to_string(*s.exit_code));
    // DependencyNeverSatisfied is kept like any reason: the job will never run, but
    // whether to cancel it is the engine's decision, not the parser's.
    if (!s.reason.empty()) append(m.detail, "reason " + s.reason);
    return m;
  }
  return {JobState::Unknown, std::string(s.raw_state)};
}

}  // namespace yard
