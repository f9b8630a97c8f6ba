#include "backends/sge/sge_states.h"

#include <string>
#include <string_view>

#include "core/text.h"

namespace yard {
namespace {

void append(std::string& detail, std::string_view part) {
  if (!detail.empty()) detail += ", ";
  detail += part;
}

// qstat's letters (sge_status(5) of 8.1.9): q queued, w waiting, h hold, r running,
// R restarted (and queued again, or running), t transferring, s suspended, S suspended by its queue, T suspended at a
// threshold, d being deleted, E error, z zombie (finished). A job in error (Eqw) stays
// in the queue, unable to start until an administrator clears it (qmod -cj): Pending,
// with the error in the detail. Suspended jobs hold their slots: Running, as Slurm's.
// A deleted job that still shows is stopping: its end comes from qacct.
MappedState map_letters(std::string_view code) {
  if (code.empty() || code.find_first_not_of("qwhrRtsSTdEz") != std::string_view::npos)
    return {JobState::Unknown, std::string(code)};
  auto has = [&](char c) { return code.find(c) != std::string_view::npos; };
  MappedState m;
  if (has('z')) return {JobState::Unknown, std::string(code)};  // finished: its record is in qacct
  const bool running = has('r') || has('t') || has('s') || has('S') || has('T');
  m.state = running ? JobState::Running : JobState::Pending;
  if (has('E')) append(m.detail, "error (" + std::string(code) + "): see qstat -j");
  if (has('h')) append(m.detail, "held");
  if (has('t')) append(m.detail, "transferring");
  if (has('R')) append(m.detail, "restarted");
  if (has('s') || has('S') || has('T')) append(m.detail, "suspended");
  if (has('d')) append(m.detail, "being deleted");
  if (!running && !has('q') && !has('E') && !has('h') && !has('w')) return {JobState::Unknown, std::string(code)};
  return m;
}

// qacct's "failed N": 0 the job ran to its exit (its status says how it went); 37 a
// limit the qmaster enforced (h_rt, h_cpu, h_vmem); 100 killed (qdel, or a signal to
// it); others failed to start or end (its words kept).
MappedState map_failed(long code, const NativeStatus& s) {
  if (code == 0) {
    if (s.exit_code && *s.exit_code == 0) return {JobState::Completed, {}};
    if (s.exit_code) return {JobState::Failed, "exit " + std::to_string(*s.exit_code)};
    return {JobState::Unknown, s.raw_state};
  }
  std::string detail = s.reason.empty() ? s.raw_state : s.raw_state + ": " + s.reason;
  if (code == 37) return {JobState::Timeout, detail};
  return {JobState::Failed, detail};
}

}  // namespace

MappedState map_sge_state(const NativeStatus& s) {
  const std::string_view raw = trim(s.raw_state);
  if (starts_with(raw, "failed ")) {
    const std::string_view n = raw.substr(7);
    if (!n.empty() && n.size() < 10 && n.find_first_not_of("0123456789") == std::string_view::npos)
      return map_failed(std::stol(std::string(n)), s);
    return {JobState::Unknown, s.raw_state};
  }
  MappedState m = map_letters(raw);
  if (m.state == JobState::Unknown) m.detail = s.raw_state;  // verbatim, spaces and all
  return m;
}

}  // namespace yard
