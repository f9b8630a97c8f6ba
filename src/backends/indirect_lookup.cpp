// After a crash: finding by their UID the jobs whose submission may have happened.
#include "backends/indirect_backend.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "backends/indirect_shared.h"
#include "backends/output_paths.h"
#include "core/clock.h"
#include "core/text.h"

namespace yard {

using namespace indirect;  // NOLINT: this file's own helpers

void IndirectBackend::plan_lookups(const std::vector<std::int64_t>& heads, double now) {
  std::vector<std::int64_t> in_queue, in_history;
  for (auto h : heads) (units_.at(h).phase == Unit::Phase::ToFindInHistory ? in_history : in_queue).push_back(h);
  if (!in_queue.empty() && !find_in_flight_ && background_.try_take(now)) {
    InFlight what;
    what.heads = in_queue;
    for (auto h : in_queue) {
      units_.at(h).phase = Unit::Phase::FindingInQueue;
      units_.at(h).queue_looked_at = now;
    }
    find_in_flight_ = true;
    plan(Kind::Find, dialect_.find_argv(), what);
  }
  // Not before the history has caught up with what the queue listing no longer showed.
  const double lag = dialect_.history_lag_s();
  in_history.erase(std::remove_if(in_history.begin(), in_history.end(),
                                  [&](std::int64_t h) { return now < units_.at(h).queue_looked_at + lag; }),
                   in_history.end());
  if (in_history.empty() || find_history_in_flight_) return;
  std::vector<std::string> names;
  double since = now;
  for (auto h : in_history) {
    const Unit& u = units_.at(h);
    auto spec = store_.spec(u.spec_id);
    names.push_back(dialect_.native_name(u.uid, spec ? spec->name : ""));
    since = std::min(since, u.submit_time);
  }
  auto argv = dialect_.find_history_argv(names, since);
  if (argv.empty()) {
    // A scheduler without a history: the listing decided, it never got there.
    for (auto h : in_history) units_.at(h).phase = Unit::Phase::ToSubmit;
    return;
  }
  if (!background_.try_take(now)) return;
  InFlight what;
  what.heads = in_history;
  for (auto h : in_history) units_.at(h).phase = Unit::Phase::FindingInHistory;
  find_history_in_flight_ = true;
  plan(Kind::FindHistory, std::move(argv), what);
}

std::optional<std::unordered_map<std::string, std::string>> IndirectBackend::found_by_uid(
    const std::vector<std::int64_t>& heads, const CommandResult& r, bool queue_format) {
  // Looked up again next step if this one tells nothing (never submitted on a failed one).
  for (auto h : heads) {
    auto u = units_.find(h);
    if (u == units_.end()) continue;
    if (u->second.phase == Unit::Phase::FindingInQueue) u->second.phase = Unit::Phase::ToFind;
    if (u->second.phase == Unit::Phase::FindingInHistory) u->second.phase = Unit::Phase::ToFindInHistory;
  }
  if (!r.ok()) return std::nullopt;  // looked up again next step; never submitted on a failed look-up
  auto statuses = queue_format ? dialect_.parse_poll(r.out) : dialect_.parse_history(r.out);
  if (!statuses && queue_format) statuses = dialect_.parse_history(r.out);
  if (!statuses) {
    log(dialect_.name(), "cannot read the look-up output: " + statuses.error());
    return std::nullopt;
  }
  std::unordered_map<std::string, std::string> base_by_uid;
  for (auto& s : *statuses)
    if (auto uid = dialect_.uid_from_native_name(s.name)) {
      // The newest submission of a UID (a preempted job may have been submitted again):
      // ids grow, compared as numbers.
      std::string base = s.submission_id.empty() ? native_base_of(s.native_id) : s.submission_id;
      auto& known = base_by_uid[*uid];
      if (known.empty() || base.size() > known.size() || (base.size() == known.size() && base > known))
        known = std::move(base);
    }
  return base_by_uid;
}

void IndirectBackend::apply_find(const std::vector<std::int64_t>& heads, const CommandResult& r) {
  auto found = found_by_uid(heads, r, true);
  if (!found) return;
  const auto& base_by_uid = *found;
  for (auto h : heads) {
    auto u = units_.find(h);
    if (u == units_.end()) continue;
    if (auto it = base_by_uid.find(u->second.uid); it != base_by_uid.end() && it->second != u->second.ended_try) {
      log(dialect_.name(), "job " + std::to_string(h) + " was submitted before the restart as " + it->second +
                               "; tracking it");
      set_native(u->second, it->second);
    } else {
      u->second.phase = Unit::Phase::ToFindInHistory;  // gone from the queue already? the history tells
    }
  }
}

void IndirectBackend::apply_find_history(const std::vector<std::int64_t>& heads, const CommandResult& r) {
  auto found = found_by_uid(heads, r, false);
  if (!found) return;
  const auto& base_by_uid = *found;
  for (auto h : heads) {
    auto u = units_.find(h);
    if (u == units_.end()) continue;
    // Its last try that ended is not the next (a try found is the newest of its UID).
    if (auto it = base_by_uid.find(u->second.uid); it != base_by_uid.end() && it->second != u->second.ended_try) {
      log(dialect_.name(), "job " + std::to_string(h) + " was submitted before the restart as " + it->second +
                               " and has left the queue; its record is in the history");
      set_native(u->second, it->second);
    } else {
      u->second.phase = Unit::Phase::ToSubmit;  // in neither: it never reached the scheduler, submit it
    }
  }
}

}  // namespace yard
