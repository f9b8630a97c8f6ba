#include "backends/series_steps.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>

#include "store/store.h"

namespace yard {
namespace {

Transition because(std::string why) {
  Transition t;
  t.reason = std::move(why);
  return t;
}

std::string carrier_words(std::int64_t carrier) { return "its series job " + std::to_string(carrier); }

// A step that had started ends as its carrier did, when the carrier ended without
// writing the step's end: out of time or memory, its node lost, cancelled.
JobState state_after(JobState carrier) {
  switch (carrier) {
    case JobState::Timeout:
    case JobState::OutOfMemory:
    case JobState::NodeFail:
    case JobState::Cancelled:
    case JobState::Lost:
      return carrier;
    default:
      return JobState::Failed;
  }
}

bool parse_native_id(const std::string& native, std::int64_t& carrier, std::string& file) {
  const auto space = native.find(' ');
  if (space == std::string::npos || space == 0) return false;
  try {
    carrier = std::stoll(native.substr(0, space));
  } catch (const std::exception&) {
    return false;
  }
  file = native.substr(space + 1);
  return !file.empty();
}

std::optional<std::string> read_small_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

SeriesStatus parse_series_status(const std::string& text) {
  SeriesStatus s;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    if (word == "skip") {
      s.skipped = true;
    } else if (word == "start") {
      double t = 0;
      if (in >> t) s.start = t;
      else in.clear();
    } else if (word == "end") {
      int status = 0;
      double t = 0;
      if (!(in >> status)) return s;  // a line cut short: not an end yet
      s.status = status;
      if (in >> t) s.end = t;
      else in.clear();
    }
  }
  return s;
}

std::string series_native_id(std::int64_t carrier, const std::string& status_file) {
  return std::to_string(carrier) + " " + status_file;
}

Status SeriesSteps::recover(double now) {
  by_carrier_.clear();
  auto active = store_.active_jobs_of(kName);
  if (!active) return active.failure();
  for (const auto& j : *active) {
    std::int64_t carrier = 0;
    std::string file;
    if (!parse_native_id(j.native_id, carrier, file)) {
      // Taken, never given a carrier: the request that took it failed before its end.
      if (auto s = store_.transition(j.id, JobState::Cancelled, because("its series job was never submitted"), now); !s)
        return s;
      continue;
    }
    by_carrier_[carrier].push_back({j.id, file, j.state == JobState::Running, ""});  // its log read when it starts
  }
  scanned_at_ = 0;
  return {};
}

Result<std::vector<std::int64_t>> SeriesSteps::submit(JobSpec spec, double now) {
  if (auto s = check(spec, now); !s) return s.failure();
  return std::vector<std::int64_t>{};
}

Status SeriesSteps::check(const JobSpec& spec, double now) const {
  (void)spec;
  (void)now;
  return Error{"backend series runs a flow's grouped steps (group: in a workflow file); it takes no job of its own",
               ErrorKind::Invalid};
}

Result<std::int64_t> SeriesSteps::take(JobSpec spec, double now) {
  spec.backend = kName;
  auto ids = store_.insert_jobs(spec, now);
  if (!ids) return ids.failure();
  if (ids->size() != 1) return Error{"a grouped step became " + std::to_string(ids->size()) + " jobs", ErrorKind::Internal};
  unassigned_[ids->front()] = spec.stdout_path;
  return ids->front();
}

Status SeriesSteps::carried_by(const std::vector<std::int64_t>& ids, std::int64_t carrier, const std::string& status_dir) {
  auto& steps = by_carrier_[carrier];
  for (std::size_t k = 0; k < ids.size(); ++k) {
    std::string log;
    if (auto taken = unassigned_.find(ids[k]); taken != unassigned_.end()) {
      log = std::move(taken->second);
      unassigned_.erase(taken);
    }
    const std::string file = status_dir + "/" + std::to_string(ids[k]);
    if (auto s = store_.set_native_id(ids[k], series_native_id(carrier, file)); !s) return s;
    if (auto s = store_.set_pending_reason(ids[k], "step " + std::to_string(k + 1) + " of " +
                                                       std::to_string(ids.size()) + " in " + carrier_words(carrier));
        !s)
      return s;
    steps.push_back({ids[k], file, false, std::move(log)});
  }
  return {};
}

std::vector<std::int64_t> SeriesSteps::take_carriers_to_cancel() { return std::exchange(carriers_to_cancel_, {}); }

Result<std::vector<std::int64_t>> SeriesSteps::cancel(const std::vector<std::int64_t>& ids, double now) {
  std::set<std::int64_t> asked(ids.begin(), ids.end());
  std::vector<std::int64_t> acted;
  // Taken by a request that failed before it submitted their carrier.
  for (auto id : ids)
    if (unassigned_.erase(id)) {
      if (auto st = store_.transition(id, JobState::Cancelled, because("its series job was never submitted"), now); !st)
        return st.failure();
      acted.push_back(id);
    }
  for (auto it = by_carrier_.begin(); it != by_carrier_.end();) {
    auto& [carrier, steps] = *it;
    bool stop_carrier = false;
    for (auto s = steps.begin(); s != steps.end();) {
      if (!asked.count(s->id)) {
        ++s;
        continue;
      }
      if (!s->started) {
        // The daemon and the carrier both create the file with O_EXCL: the first decides.
        const int fd = ::open(s->status_file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
          const bool written = ::write(fd, "skip\n", 5) == 5;
          ::close(fd);
          (void)written;  // created is what counts: the carrier skips a file it did not create
          if (auto st = end_step(*s, JobState::Cancelled, "cancelled before its turn in " + carrier_words(carrier), now); !st)
            return st.failure();
          acted.push_back(s->id);
          s = steps.erase(s);
          continue;
        }
      }
      // It has started since the last reading: stopping the carrier stops it, unless it
      // has already ended (its end is recorded at the next reading; the steps after it
      // are not the cancel's to stop).
      if (const auto text = read_small_file(s->status_file); !(text && parse_series_status(*text).status)) {
        stop_carrier = true;
        acted.push_back(s->id);
      }
      ++s;
    }
    if (stop_carrier || steps.empty()) carriers_to_cancel_.push_back(carrier);
    if (steps.empty()) it = by_carrier_.erase(it);
    else ++it;
  }
  return acted;
}

Status SeriesSteps::end_step(const Step& s, JobState state, const std::string& why, double now,
                             std::optional<std::int64_t> exit_code, std::optional<std::int64_t> signal,
                             std::optional<double> end_time) {
  Transition t;
  t.reason = why;
  t.end_time = end_time.value_or(now);
  t.exit_code = exit_code;
  t.signal = signal;
  return store_.transition(s.id, state, t, now);
}

Status SeriesSteps::follow(const JobRecord& carrier, std::vector<Step>& steps, double now) {
  const bool over = is_terminal(carrier.state);
  const std::string words = carrier_words(carrier.id) + " (" + std::string(to_string(carrier.state)) + ")";
  for (auto it = steps.begin(); it != steps.end();) {
    const auto text = read_small_file(it->status_file);
    if (!text) {
      if (!over) break;  // the carrier runs its steps in order: it has not come to this one
      if (auto s = end_step(*it, JobState::Cancelled, words + " ended before its turn", now); !s) return s;
      it = steps.erase(it);
      continue;
    }
    const SeriesStatus st = parse_series_status(*text);
    if (st.skipped) {
      // Cancelled by this daemon, which ended it then; unless it stopped before that was
      // committed: then it ends now.
      auto step = store_.job(it->id);
      if (!step) return step.failure();
      if (*step && !is_terminal((*step)->state))
        if (auto s = end_step(*it, JobState::Cancelled, "cancelled before its turn in " + carrier_words(carrier.id), now);
            !s)
          return s;
      it = steps.erase(it);
      continue;
    }
    if (st.start && !it->started) {
      Transition t;
      t.reason = "in " + carrier_words(carrier.id);
      t.start_time = *st.start;
      if (it->log.empty()) {  // a step found again after a restart
        auto step = store_.job(it->id);
        if (!step) return step.failure();
        if (*step)
          if (auto spec = store_.spec((*step)->spec_id); spec) it->log = spec->stdout_path;
      }
      if (!it->log.empty()) t.stdout_path = it->log;
      if (auto s = store_.transition(it->id, JobState::Running, t, now); !s) return s;
      it->started = true;
    }
    if (st.status) {
      const int status = *st.status;
      Status s;
      if (status == 0) s = end_step(*it, JobState::Completed, "", now, 0, std::nullopt, st.end);
      else if (status > 128) s = end_step(*it, JobState::Failed, "killed by signal " + std::to_string(status - 128), now,
                                          std::nullopt, status - 128, st.end);
      else s = end_step(*it, JobState::Failed, "exit code " + std::to_string(status), now, status, std::nullopt, st.end);
      if (!s) return s;
      it = steps.erase(it);
      continue;
    }
    if (!over) break;  // the step running now
    JobState ended = state_after(carrier.state);
    if (!it->started) {  // a start line cut short: it did start
      if (auto s = store_.transition(it->id, JobState::Running, because("in " + carrier_words(carrier.id)), now); !s)
        return s;
    }
    if (auto s = end_step(*it, ended, words + " ended while it ran", now); !s) return s;
    it = steps.erase(it);
  }
  return {};
}

void SeriesSteps::step(double now, bool start_new) {
  (void)start_new;  // a carrier's steps are started by the carrier
  if (by_carrier_.empty() || now < scanned_at_ + kScanS) return;
  scanned_at_ = now;
  for (auto it = by_carrier_.begin(); it != by_carrier_.end();) {
    auto carrier = store_.job(it->first);
    Status s;
    if (!carrier) {
      s = carrier.failure();
    } else if (!*carrier) {
      for (const auto& step : it->second)
        if (s = end_step(step, JobState::Lost, carrier_words(it->first) + " is gone from the store", now); !s) break;
      if (s) it->second.clear();
    } else if ((*carrier)->state != JobState::Pending) {
      s = follow(**carrier, it->second, now);
    }
    if (!s) {
      std::cerr << "yard daemon: series steps of job " << it->first << ": " << s.error() << std::endl;
      ++it;
      continue;
    }
    if (it->second.empty()) it = by_carrier_.erase(it);
    else ++it;
  }
}

double SeriesSteps::next_wakeup_s(double now) const {
  if (by_carrier_.empty()) return 3600;
  return std::max(0.0, scanned_at_ + kScanS - now);
}

}  // namespace yard
