// Submitting: what a submission is checked for, a unit's script and submit command, and what
// the command answered.
#include "backends/indirect_backend.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "backends/indirect_shared.h"
#include "core/file_text.h"
#include "backends/output_paths.h"
#include "core/clock.h"
#include "core/text.h"

namespace yard {

using namespace indirect;  // NOLINT: this file's own helpers

SubmitContext IndirectBackend::probe_context() {
  SubmitContext probe;
  probe.uid = "yd0000000000000000";
  probe.stdout_path = "/dev/null";
  return probe;
}

std::vector<std::string> IndirectBackend::approximations(const JobSpec& spec) const {
  std::vector<std::string> out;
  SubmitContext probe = probe_context();
  probe.nearest = &out;
  if (!dialect_.batch_script(spec, probe)) out.clear();  // refused: check() says why
  return out;
}

Result<SubmitContext> IndirectBackend::context_for(const Unit& u, const JobSpec& spec, std::string& wait,
                                                   std::string& doomed) {
  SubmitContext ctx;
  ctx.uid = u.uid;
  ctx.job_id = u.head;
  auto paths = output_paths(spec, u.head, u.is_array, user_);
  ctx.stdout_path = paths.native_out;
  ctx.stderr_path = paths.native_err;
  if (spec.dependency_any && !spec.dependencies.empty()) return any_dependency(spec, ctx, wait, doomed);
  for (auto& d : spec.dependencies) {
    std::string native;
    const auto pu = units_.find(d.job_id);
    const auto pm = members_.find(d.job_id);
    const bool active = (pu != units_.end() && !pu->second.members.empty()) || pm != members_.end();
    // A parent that may be tried again: its first try's end is not its end.
    const bool retried = pu != units_.end() && pu->second.may_retry && !pu->second.members.empty();
    if (active && (!dialect_.expresses(d.kind) || retried)) {
      if (d.kind == DependencyKind::After) {  // met once the parent runs: held here till then
        auto parent = store_.job(d.job_id);
        if (!parent) return parent.failure();
        if (parent->has_value() && (*parent)->state == JobState::Running) continue;
      }
      wait = "waiting for job " + std::to_string(d.job_id) + (d.kind == DependencyKind::After ? " to start" : " to end") +
             (retried ? " (it may be tried again)"
                      : " (" + std::string(to_string(d.kind)) + ": " + std::string(dialect_.name()) +
                            " cannot hold a job on that itself)");
      return ctx;
    }
    if (!active) {
      // The parent has ended: judge the dependency here (the scheduler may have
      // forgotten the parent already, or cannot express it).
      auto parent = store_.job(d.job_id);
      if (!parent) return parent.failure();
      if (!parent->has_value()) return err("dependency on unknown job " + std::to_string(d.job_id));
      switch (evaluate(d.kind, (*parent)->state)) {
        case DependencyVerdict::Satisfied: continue;
        case DependencyVerdict::NeverSatisfied: doomed = "DependencyNeverSatisfied"; return ctx;
        case DependencyVerdict::Waiting:
          // Another backend's job (a flow's step run elsewhere): held here until it ends.
          wait = "waiting for job " + std::to_string(d.job_id) + " of backend '" + (*parent)->backend + "' to " +
                 (d.kind == DependencyKind::After ? "start" : "end");
          return ctx;
      }
    }
    bool whole_array = false;
    if (pu != units_.end()) {
      native = pu->second.native_base;  // a whole array, or a single job
      whole_array = pu->second.is_array;
      if (native.empty()) {
        wait = "waiting for job " + std::to_string(d.job_id) + " to be submitted";
        return ctx;
      }
      if (pu->second.is_array && dialect_.array_dependency_by_elements()) {
        // On each element still active (those ended have met an afterany already).
        for (auto member : pu->second.members) ctx.dependencies.push_back({d.kind, members_.at(member).native_id, false});
        continue;
      }
    } else if (pm != members_.end()) {
      native = pm->second.native_id;
      if (native.empty()) {
        wait = "waiting for job " + std::to_string(d.job_id) + " to be submitted";
        return ctx;
      }
    }
    ctx.dependencies.push_back({d.kind, native, whole_array});
  }
  return ctx;
}

// sbatch's '?' (any one of the dependencies): judged here whatever the scheduler, as few
// can say it. The job is submitted, with no dependency of the scheduler's, once one
// parent has what it waits for (its start, its end, its success); doomed when none can.
Result<SubmitContext> IndirectBackend::any_dependency(const JobSpec& spec, SubmitContext ctx, std::string& wait,
                                                      std::string& doomed) {
  bool none_can = true;
  std::string ids;
  for (auto& d : spec.dependencies) {
    auto parent = store_.job(d.job_id);
    if (!parent) return parent.failure();
    if (!parent->has_value()) return err("dependency on unknown job " + std::to_string(d.job_id));
    const DependencyVerdict v = evaluate(d.kind, (*parent)->state);
    if (v == DependencyVerdict::Satisfied) return ctx;
    none_can = none_can && v == DependencyVerdict::NeverSatisfied;
    ids += (ids.empty() ? "" : ", ") + std::to_string(d.job_id);
  }
  if (none_can)
    doomed = "DependencyNeverSatisfied";
  else
    wait = "waiting for one of jobs " + ids + " (--dependency with '?')";
  return ctx;
}

void IndirectBackend::plan_submission(Unit& u, double now) {
  if (u.user_held) {  // its reason says so (yard hold); a release submits it
    u.held = true;
    u.next_try = now + kIdleWakeup;
    return;
  }
  auto spec = spec_of_try(u);
  if (!spec) {
    fail_unit(u, spec.error(), now);
    return;
  }
  std::string wait, doomed;
  auto ctx = context_for(u, *spec, wait, doomed);
  if (!ctx) {
    fail_unit(u, ctx.error(), now);
    return;
  }
  if (!wait.empty()) {  // on a parent: its submission, its start or its end
    hold(u, wait, now + 1);
    return;
  }
  if (!doomed.empty()) {
    for (auto id : std::vector<std::int64_t>(u.members)) {
      Transition t;
      t.reason = doomed;
      t.end_time = now;
      finish(members_.at(id), JobState::Cancelled, t, now);
    }
    return;
  }
  if (auto why = throttled(u, now); !why.empty()) {
    hold(u, why, now + std::max(1.0, submits_.wait_s(now)));
    return;
  }
  u.held = false;
  ctx->avoid_nodes = avoided_nodes(u);
  auto script = dialect_.batch_script(*spec, *ctx);
  if (!script) {
    fail_unit(u, script.error(), now);
    return;
  }
  // Saved beside the job: it can be read and rerun by hand.
  const std::string path = script_path(u);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  // Close-on-exec (write_whole_file): a command another thread starts meanwhile must not hold
  // it open for writing, or a scheduler that runs it in place would find it busy.
  if (auto w = write_whole_file(path, *script, 0700); !w) {
    log(dialect_.name(), "cannot write batch script: " + w.error());
    retry_later(u, now);
    return;
  }
  ::chmod(path.c_str(), 0700);
  auto submission = dialect_.submission(*spec, *ctx, path);
  if (!submission) {
    fail_unit(u, submission.error(), now);
    return;
  }
  if (!submission->companion.empty()) {
    if (auto w = write_whole_file(companion_path(path), submission->companion, 0644); !w) {
      log(dialect_.name(), w.error());
      retry_later(u, now);
      return;
    }
  }
  // Noted before the command runs (this transaction commits before dispatch()): after a
  // crash, the job is looked up by its UID instead of being submitted again.
  for (auto id : u.members)
    if (auto s = store_.note_submit_attempt(id); !s) {
      log(dialect_.name(), s.error());
      return;
    }
  u.phase = Unit::Phase::Submitting;
  queued_ += u.members.size();
  submits_.try_take(now);
  InFlight what;
  what.head = u.head;
  // In the job's directory, which the scheduler takes for the job's (a launching
  // directory must be one the job's user can enter on the node: not whatever directory
  // the daemon was started from). One the daemon cannot enter here (made on the nodes
  // only) leaves the submission in the daemon's /, and the wrapper's own cd decides.
  const bool enterable = !spec->workdir.empty() && ::access(spec->workdir.c_str(), X_OK) == 0;
  plan(Kind::Submit, std::move(submission->argv), what, enterable ? spec->workdir : "",
       dialect_.submit_reads_script_on_stdin() ? path : "");
}

void IndirectBackend::hold(Unit& u, const std::string& why, double until) {
  u.held = true;
  u.next_try = until;
  if (why == u.waiting_for) return;
  u.waiting_for = why;
  for (auto id : u.members)
    if (auto s = store_.set_pending_reason(id, why); !s) log(dialect_.name(), s.error());
}

std::string IndirectBackend::throttled(const Unit& u, double now) {
  const std::string name(dialect_.name());
  // Nothing sent to a scheduler that does not answer (the probes tell when it does); the
  // text stays the same while it is down, so that it is written once.
  if (!health_.down_why.empty())
    return "held by yard: " + name + " is down (its calls fail; `yard routes` says why); submitted once it answers again";
  // A unit bigger than the limit (an array) goes alone when nothing else is queued.
  if (config_.max_queued > 0 && queued_ > 0 &&
      queued_ + u.members.size() > static_cast<std::size_t>(config_.max_queued))
    return "held by yard: " + std::to_string(config_.max_queued) + " jobs in " + name + "'s queue (max_queued in " +
           name + ".yaml)";
  if (submits_.wait_s(now) > 0)
    return "held by yard: at most " + format_rate(config_.submits_per_second) + " submissions (submit_rate in " +
           name + ".yaml)";
  return "";
}

void IndirectBackend::note_waiting(const Unit& u, const std::string& why) {
  // Shown as the jobs' REASON while they wait: the user sees why nothing happens.
  // A submission that may have gone through is looked up (its history may lag) before it
  // is sent again: the REASON says which of the two the job waits for.
  const std::string next = u.phase == Unit::Phase::ToFind
                               ? "looking it up in " + std::string(dialect_.name()) + "'s records before submitting again"
                               : "trying again in " + std::to_string(static_cast<long>(u.backoff)) + " s";
  const std::string reason =
      "not submitted yet: " + std::string(dialect_.name()) + ": " + first_lines(why) + "; " + next;
  for (auto id : u.members)
    if (auto s = store_.set_pending_reason(id, reason); !s) log(dialect_.name(), s.error());
}

void IndirectBackend::apply_submit(Unit& u, const CommandResult& r, double now) {
  u.phase = Unit::Phase::ToSubmit;
  if (r.ok()) {
    auto native = dialect_.parse_submit(r.out);
    if (native) {
      set_native(u, *native, u.is_array ? dialect_.element_ids_from_submit(r.out) : std::vector<std::string>{});
      return;
    }
    log(dialect_.name(), "unexpected answer to a submission: " + native.error());
    u.phase = Unit::Phase::ToFind;
    retry_later(u, now);
    note_waiting(u, "unexpected answer to the submission: " + native.error());
    return;
  }
  if (r.not_started) {
    fail_unit(u, std::string(dialect_.name()) + ": " + r.err, now);
    return;
  }
  if (r.timed_out || dialect_.transient_failure(r.exit_code, r.err)) {
    // A submission that timed out may have gone through: look it up before retrying.
    u.phase = Unit::Phase::ToFind;
    retry_later(u, now);
    const std::string why = first_lines(r.err.empty() ? r.out : r.err);
    note_waiting(u, r.timed_out ? "the submission timed out" : why.empty() ? r.summary() : why);
    return;
  }
  std::string why = first_lines(r.err.empty() ? r.out : r.err);
  if (dialect_.refused_for_a_dependency(r.err)) {
    // Its parent ended as the dependency forbids between yard's look and the submission
    // (the scheduler refused it): it will never run, as a job yard holds back would not.
    log(dialect_.name(), "job " + std::to_string(u.head) + ": " + why);
    for (auto id : std::vector<std::int64_t>(u.members)) {
      Transition t;
      t.reason = "DependencyNeverSatisfied";
      t.end_time = now;
      finish(members_.at(id), JobState::Cancelled, t, now);
    }
    return;
  }
  fail_unit(u, "rejected by " + std::string(dialect_.name()) + ": " + (why.empty() ? r.summary() : why), now);
}

void IndirectBackend::set_native(Unit& u, const std::string& base, const std::vector<std::string>& elements) {
  changed_ = true;
  u.native_base = base;
  u.waiting_for.clear();
  u.phase = Unit::Phase::Submitted;
  for (auto id : u.members)
    if (auto s = store_.set_pending_reason(id, ""); !s) log(dialect_.name(), s.error());
  u.backoff = 0;
  // An element's position among the array's indices, for schedulers that number them so.
  std::vector<std::int64_t> indices;
  if (u.is_array) {
    if (auto spec = store_.spec(u.spec_id); spec && spec->array) indices = spec->array->indices;
    else log(dialect_.name(), "job " + std::to_string(u.head) + ": its array's indices cannot be read");
  }
  for (auto id : u.members) {
    auto& m = members_.at(id);
    std::size_t position = 0;
    if (m.index) {
      auto at = std::lower_bound(indices.begin(), indices.end(), *m.index);
      position = static_cast<std::size_t>(at - indices.begin());
    }
    if (!u.is_array || !m.index) m.native_id = dialect_.job_id(base);
    else if (elements.size() == indices.size() && position < elements.size()) m.native_id = elements[position];
    else m.native_id = dialect_.element_id(base, *m.index, position);
    m.known_from_tag = next_tag_;
    by_native_[m.native_id] = id;
    if (auto s = store_.set_native_id(id, m.native_id); !s) log(dialect_.name(), s.error());
  }
}

Status IndirectBackend::check(JobSpec spec) const {
  spec.backend = std::string(dialect_.name());
  if (auto s = spec.validate(); !s) return s;
  if (auto s = array_within_limit(spec); !s) return s;
  for (auto& d : spec.dependencies) {
    auto parent = store_.job(d.job_id);
    if (!parent) return parent.failure();
    if (!parent->has_value()) return err("dependency on unknown job " + std::to_string(d.job_id));
    // Another backend's job is waited for here, the job held until it ends
    // (context_for), but not element by element.
    if ((*parent)->backend != spec.backend && d.kind == DependencyKind::AfterCorr)
      return err("--dependency aftercorr:" + std::to_string(d.job_id) + ": job " + std::to_string(d.job_id) +
                 " runs on backend '" + (*parent)->backend + "': element by element needs the same backend");
    // Element by element needs the scheduler's own (Slurm's aftercorr): judged here it
    // would wait for the whole parent array.
    if (d.kind == DependencyKind::AfterCorr && !dialect_.expresses(d.kind))
      return err("--dependency aftercorr:" + std::to_string(d.job_id) + ": backend " + spec.backend +
                 " cannot hold an array's elements one by one on another array's");
  }
  // Everything the batch script needs is checked now, so bad input fails the submit
  // command instead of a job later.
  const SubmitContext probe = probe_context();
  if (auto s = dialect_.batch_script(spec, probe); !s) return s.failure();
  if (auto s = dialect_.submission(spec, probe, "/nonexistent/" + probe.uid + ".sh"); !s) return s.failure();
  return {};
}

}  // namespace yard
