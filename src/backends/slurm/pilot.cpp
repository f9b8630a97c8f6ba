#include "backends/slurm/pilot.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "core/clock.h"

#include "backends/slurm/slurm_errors.h"
#include "backends/slurm/slurm_parse.h"
#include "backends/slurm/slurm_pilot.h"

namespace yard {
namespace {

void log(const std::string& what) { std::cerr << "yard daemon: pilot: " << what << std::endl; }

constexpr double kReadyCheckFactor = 10;  // a running pilot is checked every 10 poll intervals

}  // namespace

Pilot::Pilot(PilotSpec spec, std::string name, double poll_interval_s, double command_timeout_s)
    : spec_(std::move(spec)), name_(std::move(name)), poll_s_(poll_interval_s), timeout_s_(command_timeout_s) {}

std::string Pilot::state() const {
  switch (phase_) {
    case Phase::Find: return "looking up";
    case Phase::Submit: return "submitting";
    case Phase::Wait: return slurm_state_.empty() ? "submitted" : slurm_state_;
    case Phase::Ready: return "RUNNING";
    case Phase::Refused: return "refused";
  }
  return "";
}

void Pilot::retry(double now) {
  backoff_ = backoff_ == 0 ? poll_s_ : std::min(backoff_ * 2, 60.0);
  next_ = now + backoff_;
}

void Pilot::step(double now) {
  for (auto& done : commands_.take_completed()) {
    in_flight_ = false;
    apply(done.result, now);
  }
  if (in_flight_ || now < next_ || phase_ == Phase::Refused) return;
  std::vector<std::string> argv;
  switch (phase_) {
    case Phase::Find: argv = pilot_find_argv(name_); break;
    case Phase::Submit: argv = pilot_sbatch_argv(spec_, name_); break;
    case Phase::Wait:
    case Phase::Ready: argv = scontrol_show_job_argv(job_id_); break;
    case Phase::Refused: return;
  }
  in_flight_ = true;
  commands_.post({0, std::move(argv), timeout_s_, "", ""});
}

void Pilot::apply(const CommandResult& r, double now) {
  switch (phase_) {
    case Phase::Find: {
      auto listing = r.ok() ? parse_squeue(r.out) : Result<std::vector<NativeStatus>>(err(r.summary()));
      if (!listing) {
        log("looking for " + name_ + " failed (" + listing.error() + "); trying again");
        retry(now);
        return;
      }
      backoff_ = 0;
      if (auto id = live_pilot(*listing, name_)) {
        job_id_ = *id;
        log("found " + name_ + " again: job " + job_id_);
        phase_ = Phase::Wait;
      } else {
        phase_ = Phase::Submit;
      }
      next_ = now;
      return;
    }
    case Phase::Submit: {
      if (r.ok()) {
        auto id = parse_sbatch_parsable(r.out);
        if (id) {
          job_id_ = *id;
          backoff_ = 0;
          log("submitted " + name_ + " as job " + job_id_);
          phase_ = Phase::Wait;
          next_ = now;
          return;
        }
      }
      if (r.ok() || r.timed_out || slurm_transient_failure(r.exit_code, r.err)) {
        // It may have gone through: look for it by name before submitting again.
        log("submitting " + name_ + " failed (" + r.summary() + "); looking it up, then trying again");
        phase_ = Phase::Find;
        retry(now);
        return;
      }
      problem_ = "Slurm refused the pilot job: " + r.summary();
      log(problem_);
      phase_ = Phase::Refused;
      return;
    }
    case Phase::Wait:
    case Phase::Ready: {
      auto alloc = r.ok() ? parse_scontrol_job(r.out) : Result<SlurmAllocation>(err(r.summary()));
      if (!alloc) {
        if (r.err.find("Invalid job id") != std::string::npos) {
          log("job " + job_id_ + " is gone; submitting a new pilot");
          phase_ = Phase::Submit;
          alloc_->job_id.clear();
          next_ = now;
          return;
        }
        log("reading job " + job_id_ + " failed (" + alloc.error() + "); trying again");
        retry(now);
        return;
      }
      backoff_ = 0;
      slurm_state_ = alloc->state;
      if (alloc->state == "RUNNING") {
        if (phase_ != Phase::Ready) {
          *alloc_ = *alloc;
          log("job " + job_id_ + " runs: " + std::to_string(alloc->cpus) + " cpus on " + alloc->node_list);
        }
        phase_ = Phase::Ready;
        next_ = now + poll_s_ * kReadyCheckFactor;
      } else if (alloc->state == "PENDING" || alloc->state == "CONFIGURING") {
        phase_ = Phase::Wait;
        next_ = now + poll_s_;
      } else {
        log("job " + job_id_ + " is " + alloc->state + "; submitting a new pilot");
        phase_ = Phase::Submit;
        alloc_->job_id.clear();
        next_ = now;
      }
      return;
    }
    case Phase::Refused: return;
  }
}

double Pilot::next_wakeup_s(double now) const {
  if (in_flight_ || phase_ == Phase::Refused) return 3600;
  return std::max(0.0, next_ - now);
}

void Pilot::cancel(double timeout_s) {
  // A submission still running as the daemon stops would leave a pilot nobody cancels:
  // its answer is waited for (at most timeout_s), then every job of the pilot's name, ours
  // alone by that name, is cancelled, its id known or not.
  const double deadline = monotonic_now() + timeout_s;
  while (in_flight_ && monotonic_now() < deadline) {
    pollfd p{commands_.event_fd(), POLLIN, 0};
    (void)::poll(&p, 1, static_cast<int>(std::max(0.0, deadline - monotonic_now()) * 1000) + 1);
    for (auto& done : commands_.take_completed()) {
      in_flight_ = false;
      apply(done.result, monotonic_now());
    }
  }
  if (job_id_.empty() && phase_ == Phase::Find && !in_flight_) return;  // none was ever submitted
  auto r = run_command({"scancel", "--user=" + std::to_string(::getuid()), "--name=" + name_},
                       std::max(1.0, deadline - monotonic_now()));
  log("cancelled " + (job_id_.empty() ? name_ : "job " + job_id_) + (r.ok() ? "" : " (scancel: " + r.summary() + ")"));
}

}  // namespace yard
