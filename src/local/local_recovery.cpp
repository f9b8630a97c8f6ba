// LocalBackend at daemon start: the ledger rebuilt from the store, running jobs adopted
// from their run records (their host outlived the daemon) or settled, pending ones queued
// with their dependencies (docs/ARCHITECTURE.md, The job host and crash survival).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <unordered_set>

#include "local/local_backend.h"

namespace yard {

Status LocalBackend::adopt(const JobRecord& r, std::unordered_map<std::int64_t, int>& records) {
  auto alloc = Allocation::from_json(r.alloc);
  Allocation a = alloc ? *alloc : Allocation{};
  auto requeue = [&](const char* why) {
    Transition t;
    t.reason = why;
    set_state(r.id, JobState::Pending, t);
    JobRecord p = r;
    p.state = JobState::Pending;
    return p;
  };
  auto found = records.find(r.id);
  const int slot = found == records.end() ? -1 : found->second;
  if (found != records.end()) records.erase(found);  // what is left is released by recover()
  const std::string path = slot >= 0 ? records_.path(slot) : std::string();
  int fd = slot >= 0 ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0) {
    records_.release(slot);
    // Marked RUNNING, but the daemon stopped before creating the record: never launched.
    enqueue_pending(requeue("requeued: the daemon stopped before launching it"));
    return {};
  }
  // Watched before the lock is tested, so an end between the two is not missed.
  if (inotify_fd_ < 0) inotify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (inotify_fd_ < 0) return err(std::string("inotify: ") + std::strerror(errno));
  const int wd = ::inotify_add_watch(inotify_fd_, path.c_str(), IN_CLOSE_WRITE);
  const bool alive = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  // A hand-off whose predecessor still runs, or waits itself (adopted before it, see
  // recover()), holds the predecessor's CPUs, not CPUs of its own.
  const RunRecord first_look = parse_run_record(read_record_file(path));
  Running* pred = nullptr;
  if (alive && first_look.after > 0)
    if (auto p = running_.find(first_look.after); p != running_.end() && p->second.successor == 0) pred = &p->second;
  if (!pred) pool_.claim(a);
  if (r.array_job_id) queue_.element_running(*r.array_job_id, r.array_max_running);
  Running run;
  run.id = r.id;
  run.slot = slot;
  run.alloc = a;
  run.adopted = true;
  if (pred) {
    pred->successor = r.id;
    run.predecessor = pred->id;
    run.owns_alloc = false;
    run.handed_at = clock_.wall();
  }
  run.array_job_id = r.array_job_id.value_or(0);
  run.spec_id = r.spec_id;
  run.view = RunningJobView{r.id, account_of(r.spec_id), r.start_time.value_or(0), r.cpus, r.walltime_s};
  if (alive && wd >= 0) {
    // Its host (of an earlier daemon) holds the record: it supervises the job still.
    run.watch = wd;
    by_watch_[wd] = r.id;
    running_[r.id] = std::move(run);
    return {};
  }
  if (wd >= 0) ::inotify_rm_watch(inotify_fd_, wd);
  if (alive) return err("cannot watch run record " + path + ": " + std::strerror(errno));
  RunRecord rec = parse_run_record(read_record_file(path));
  if (!rec.outcome && rec.supervisor_pid == 0) {
    // The record exists but no host ever wrote to it: never launched.
    if (!pred) pool_.release(a);
    if (r.array_job_id) queue_.element_ended(*r.array_job_id);
    records_.release(slot);
    enqueue_pending(requeue("requeued: the daemon stopped before launching it"));
    return {};
  }
  running_[r.id] = std::move(run);
  finalize(r.id, rec);
  return {};
}

Status LocalBackend::recover() {
  // The ledger: the policy's accounts plus every charge of this machine's jobs so far
  // (those of batch schedulers are theirs to share out: `yard accounts --by target`).
  auto usage = store_.usage(name_);
  if (!usage) return usage.failure();
  scheduler_.accounts() = sched::Accounts::from_config(scheduler_.config());
  for (auto& c : *usage)
    scheduler_.accounts().charge(c.account, c.core_seconds, static_cast<sched::Time>(c.time));
  auto active = store_.active_jobs_of(name_);
  if (!active) return active.failure();
  auto records = records_.scan();
  // Predecessors before their hand-offs: usually ids grow along a chain, but an element
  // handed back may later be handed behind a younger one.
  std::vector<const JobRecord*> running;
  std::unordered_map<std::int64_t, std::int64_t> after;
  for (auto& r : *active)
    if (r.state == JobState::Running && mine(r)) {
      running.push_back(&r);
      if (auto f = records.find(r.id); f != records.end())
        after[r.id] = parse_run_record(read_record_file(records_.path(f->second))).after;
    }
  std::unordered_set<std::int64_t> waiting;
  for (auto* r : running) waiting.insert(r->id);
  while (!running.empty()) {
    std::vector<const JobRecord*> later;
    for (auto* r : running) {
      if (waiting.count(after[r->id]) && after[r->id] != r->id) {
        later.push_back(r);
        continue;
      }
      waiting.erase(r->id);
      if (auto s = adopt(*r, records); !s) return s;
    }
    if (later.size() == running.size()) {  // a cycle no daemon writes: in id order
      for (auto* r : later) waiting.erase(r->id);
      for (auto* r : later)
        if (auto s = adopt(*r, records); !s) return s;
      later.clear();
    }
    running = std::move(later);
  }
  for (auto& [job, slot] : records) records_.release(slot);  // records of jobs settled before
  // Dependencies, judged on the parents' states after adoption settled them.
  auto edges = store_.dependencies_of_active();
  if (!edges) return edges.failure();
  std::unordered_map<std::int64_t, JobState> parent_state;
  std::unordered_map<std::int64_t, std::vector<std::pair<Dependency, JobState>>> deps;
  for (auto& e : *edges) {
    auto it = parent_state.find(e.parent_id);
    if (it == parent_state.end()) {
      auto p = store_.job(e.parent_id);
      JobState st = p && p->has_value() ? (*p)->state : JobState::Unknown;
      it = parent_state.emplace(e.parent_id, st).first;
    }
    deps[e.job_id].push_back({Dependency{e.kind, e.parent_id}, it->second});
  }
  auto again = store_.active_jobs_of(name_);
  if (!again) return again.failure();
  ParentElements elements;
  for (auto& r : *again) {
    if (r.state != JobState::Pending || !mine(r)) continue;
    if (r.held) queue_.hold(r.id);  // before it is queued: it waits aside until released
    if (!pending_.count(r.id)) enqueue_pending(r);
    // A try waiting out its retry policy's backoff when the daemon stopped goes on waiting.
    if (r.retry_not_before > clock_.wall()) retry_at_[r.id] = r.retry_not_before;
    auto spec = spec_for(r.spec_id);
    add_dependencies(r.id, for_element(deps[r.id], r.array_index, elements), spec && *spec && (*spec)->dependency_any);
  }
  return {};
}

}  // namespace yard
