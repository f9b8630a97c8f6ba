// `yard routes move FROM TO`: the pending jobs of one backend sent to another, keeping
// their yard ids, events and dependencies. Exactly once: a job moves only while nothing of
// it has reached a scheduler (Backend::release), its record is moved in the daemon's
// transaction, and the backend it goes to takes it from the store.
#include "backends/backend_registry.h"
#include "routes/routes.h"
#include "store/store.h"

namespace yard {

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
  const std::string detail = "moved from " + source->name() + " to " + target->name() + " (yard routes move)";
  std::vector<JobMove> out;
  for (const auto& job : *jobs) {
    auto stays = [&](std::string why) { out.push_back({job.id, std::move(why)}); };
    if (job.state != JobState::Pending) {
      stays(job.state == JobState::Running ? "running" : "in state " + std::string(to_string(job.state)));
      continue;
    }
    auto spec = store.spec(job.spec_id);
    if (!spec) {
      stays("its spec cannot be read: " + spec.error());
      continue;
    }
    JobSpec moved = std::move(*spec);
    if (routes) retarget(*routes, moved, source->name(), target->name());
    moved.backend = target->name();
    if (auto s = refuse_unhonoured_options(moved, target->name(), [&](std::string_view o) { return target->honours(o); });
        !s) {
      stays(s.error());
      continue;
    }
    if (auto s = target->check(moved, now); !s) {
      stays("backend " + target->name() + " would refuse it: " + s.error());
      continue;
    }
    if (auto why = source->release(job.id, dry_run); !why.empty() || dry_run) {
      stays(why);
      continue;
    }
    if (auto s = store.move_job(job.id, moved, detail, now); !s) {
      (void)source->adopt(job, now);  // it stays where it was
      stays("its record could not be moved: " + s.error());
      continue;
    }
    auto record = store.job(job.id);
    if (!record || !*record) {
      stays("moved, but its record cannot be read back: " + (record ? std::string("gone") : record.error()));
      continue;
    }
    if (auto s = target->adopt(**record, now); !s) {
      stays("moved, but backend " + target->name() + " did not take it: " + s.error());
      continue;
    }
    out.push_back({job.id, ""});
  }
  return out;
}

}  // namespace yard
