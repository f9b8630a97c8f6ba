// `yard routes move FROM TO`: the pending jobs of one backend sent to another, keeping
// their yard ids, events and dependencies. Exactly once: a job moves only while nothing of
// it has reached a scheduler (Backend::release), its record is moved in the daemon's
// transaction, and the backend it goes to takes it from the store.
#include "backends/backend_registry.h"

#include <iostream>

#include "routes/routes.h"
#include "store/store.h"

namespace yard {

namespace {

// `spec` as it would go to `target` from `source`, or why it cannot.
Result<JobSpec> spec_for_target(const Routes* routes, JobSpec spec, const Backend& source, const Backend& target,
                                double now) {
  if (routes) retarget(*routes, spec, source.name(), target.name());
  spec.backend = target.name();
  if (auto s = refuse_unhonoured_options(spec, target.name(), [&](std::string_view o) { return target.honours(o); }); !s)
    return s.failure();
  if (auto s = target.check(spec, now); !s) return err("backend " + target.name() + " would refuse it: " + s.error());
  return spec;
}

// The job's record moved to `target`, which takes it; why not, or "".
std::string move_record(Store& store, std::int64_t id, const JobSpec& spec, Backend& source, Backend& target,
                        double now) {
  const std::string detail = "moved from " + source.name() + " to " + target.name() + " (yard routes move)";
  if (auto s = store.move_job(id, spec, detail, now); !s) return "its record could not be moved: " + s.error();
  auto record = store.job(id);
  if (!record || !*record) return "moved, but its record cannot be read back";
  if (auto s = target.adopt(**record, now); !s) return "moved, but backend " + target.name() + " did not take it: " + s.error();
  return "";
}

}  // namespace

Result<std::vector<Backends::JobMove>> Backends::move(Store& store, const std::string& from, const std::string& to,
                                                      bool dry_run, double now) const {
  Backend* source = find(from);
  Backend* target = find(to);
  if (!source) return err("unknown backend '" + from + "' (known: " + names() + ")");
  if (!target) return err("unknown backend '" + to + "' (known: " + names() + ")");
  if (source == target) return err("nothing to move: " + from + " is " + to);
  auto jobs = store.active_jobs_of(source->name());
  if (!jobs) return jobs.failure();
  const Routes* routes = routes_ ? &routes_->current() : nullptr;
  std::vector<JobMove> out;
  for (const auto& job : *jobs) {
    auto stays = [&](std::string why) { out.push_back({job.id, std::move(why), false}); };
    if (job.state != JobState::Pending) {
      stays(job.state == JobState::Running ? "running" : "in state " + std::string(to_string(job.state)));
      continue;
    }
    auto spec = store.spec(job.spec_id);
    if (!spec) {
      stays("its spec cannot be read: " + spec.error());
      continue;
    }
    auto moved = spec_for_target(routes, std::move(*spec), *source, *target, now);
    if (!moved) {
      stays(moved.error());
      continue;
    }
    const Release r = source->release(job.id, target->name(), dry_run);
    if (r.outcome == Release::Stays) {
      stays(r.why);
      continue;
    }
    if (r.outcome == Release::Leaving || dry_run) {
      out.push_back({job.id, "", r.outcome == Release::Leaving});
      continue;
    }
    if (auto why = move_record(store, job.id, *moved, *source, *target, now); !why.empty()) {
      if (why.rfind("its record", 0) == 0) (void)source->adopt(job, now);  // not moved: it stays where it was
      stays(why);
      continue;
    }
    out.push_back({job.id, "", false});
  }
  return out;
}

void Backends::complete_moves(Store& store, double now) const {
  const Routes* routes = routes_ ? &routes_->current() : nullptr;
  for (const auto& source : all_) {
    for (auto id : source->take_released()) {
      auto job = store.job(id);
      if (!job || !*job) continue;
      const JobRecord& rec = **job;
      auto spec = store.spec(rec.spec_id);
      Backend* target = find(rec.moving_to);
      // Its scheduler let it go: it goes where it was moving, or, if that cannot take it
      // now, back to its own backend to be submitted again. Never nowhere.
      Result<JobSpec> moved = err("backend '" + rec.moving_to + "' is gone");
      if (spec && target) moved = spec_for_target(routes, *spec, *source, *target, now);
      std::string why = moved ? move_record(store, id, *moved, *source, *target, now) : moved.error();
      if (why.empty()) continue;
      std::cerr << "yard daemon: job " << id << " could not move to " << rec.moving_to << " (" << why
                << "): submitted to " << source->name() << " again" << std::endl;
      if (spec) {
        spec->backend = source->name();
        (void)move_record(store, id, *spec, *source, *source, now);
      }
    }
  }
}

}  // namespace yard
