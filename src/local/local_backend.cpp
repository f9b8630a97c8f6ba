#include "local/local_backend.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "core/size.h"
#include "local/launch_plan.h"
#include "local/run_record.h"
#include "store/sqlite.h"

namespace yard {
namespace {

// A reused record file is emptied when it grows past this.
constexpr off_t kRecordFileMax = 64 * 1024;

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

void log_error(const std::string& what) { std::cerr << "yard daemon: " << what << std::endl; }

}  // namespace

double wall_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

LocalBackend::LocalBackend(Store& store, Machine machine, std::string state_dir, std::string user)
    : store_(store),
      machine_(std::move(machine)),
      state_dir_(std::move(state_dir)),
      user_(std::move(user)),
      pool_(machine_),
      scheduler_(sched::PolicyConfig{}, machine_.cpus),
      records_(state_dir_ + "/run", "local") {
  std::error_code ec;
  std::filesystem::create_directories(state_dir_ + "/run", ec);
  std::filesystem::create_directories(state_dir_ + "/scripts", ec);
}

LocalBackend::~LocalBackend() {
  for (auto& [id, r] : running_)
    if (r.host_pidfd >= 0) ::close(r.host_pidfd);
  if (inotify_fd_ >= 0) ::close(inotify_fd_);
}

std::string LocalBackend::script_path(std::int64_t spec_id) const {
  return state_dir_ + "/scripts/" + std::to_string(spec_id) + ".sh";
}

Result<std::shared_ptr<const JobSpec>> LocalBackend::spec_for(std::int64_t spec_id) {
  if (auto it = specs_.find(spec_id); it != specs_.end()) return it->second;
  auto s = store_.spec(spec_id);
  if (!s) return Error{s.error()};
  auto p = std::make_shared<const JobSpec>(std::move(*s));
  specs_[spec_id] = p;
  return p;
}

void LocalBackend::use_policy(sched::PolicyConfig config) {
  scheduler_ = LocalScheduler(std::move(config), machine_.cpus);
}

bool LocalBackend::mine(const JobRecord& r) {
  if (component_ < 0) return true;
  auto spec = spec_for(r.spec_id);
  return spec && std::max(0, (*spec)->het_group) == component_;
}

std::string LocalBackend::account_of(std::int64_t spec_id) {
  auto spec = spec_for(spec_id);
  return scheduler_.account_of(spec ? (*spec)->account : std::string());
}

QueuedJob LocalBackend::queued(const JobRecord& r) {
  return QueuedJob{r.id,
                   r.priority,
                   r.submit_time,
                   r.cpus,
                   static_cast<std::uint64_t>(r.mem_bytes),
                   r.gpus,
                   r.array_job_id.value_or(0),
                   r.array_max_running,
                   account_of(r.spec_id),
                   r.walltime_s,
                   r.uid,
                   r.spec_id,
                   r.array_index};
}

void LocalBackend::set_state(std::int64_t id, JobState to, const Transition& t, const UsageCharge* charge) {
  sql::Transaction tx(store_.db());
  auto s = store_.transition(id, to, t, wall_now());
  if (s && charge) s = store_.add_usage(*charge);
  if (s) s = tx.commit();
  if (!s) log_error("job " + std::to_string(id) + ": " + s.error());
}

UsageCharge LocalBackend::charge(const RunningJobView& v, double end) {
  const double seconds = v.start_time > 0 ? std::max(0.0, end - v.start_time) : 0.0;
  UsageCharge c{v.id, v.account, end, seconds * v.cpus};
  scheduler_.accounts().charge(c.account, c.core_seconds, static_cast<sched::Time>(end));
  return c;
}

Result<std::vector<std::int64_t>> LocalBackend::submit(JobSpec spec) {
  if (spec.backend.empty()) spec.backend = "local";
  if (spec.backend != name_) return err("unknown backend '" + spec.backend + "' (this one is " + name_ + ")");
  if (auto s = spec.validate(); !s) return Error{s.error()};
  if (spec.launcher == "mpirun" && name_ == "local")
    return err("--launcher mpirun runs inside a Slurm allocation: submit with --backend slurm-steps");
  // Components are co-scheduled by a batch scheduler; one machine (or one allocation, for
  // direct mode's steps) has nothing to co-schedule them across, and summing them would
  // hide that the job asked for different partitions. (MPMD app contexts are summed.)
  if (!spec.components.empty() && spec.launcher.empty())
    return err("a heterogeneous job (" + std::to_string(spec.components.size() + 1) +
               " components, separated by ':' or '#SBATCH hetjob') cannot run on backend '" + name_ + "'" +
               (name_ == "local" ? ", which is one machine" : ", whose steps share one allocation") +
               ": submit it with --backend slurm, or as one component");
  // An MPMD job's app contexts share one allocation: the sum of their resources.
  const auto& r = spec.res;
  if (!pool_.could_ever_fit(spec.total_cpus(), spec.total_mem_bytes(), spec.total_gpus()))
    return err("the job asks for " + std::to_string(spec.total_cpus()) + " CPUs, " + format_bytes(spec.total_mem_bytes()) +
               " and " + std::to_string(spec.total_gpus()) + " GPUs, but this machine offers " + std::to_string(machine_.cpus) +
               " CPUs, " + format_bytes(machine_.mem_bytes) + " and " + std::to_string(machine_.gpus) +
               " GPUs (a larger node can be declared in the local config file)");
  if (r.nodes > machine_.nodes)
    return err("--nodes=" + std::to_string(r.nodes) + ": backend " + name_ + " has " + std::to_string(machine_.nodes) +
               (machine_.nodes == 1 ? " node" : " nodes"));

  sql::Transaction tx(store_.db());
  if (!tx.begun()) return Error{tx.begun().error()};
  auto ids = store_.insert_jobs(spec, wall_now());
  if (!ids) return ids;
  auto first = store_.job(ids->front());
  if (!first || !first->has_value()) return err("submitted job vanished from the store");
  const JobRecord& rec = **first;
  if (!spec.script.empty()) {
    const std::string path = script_path(rec.spec_id);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << spec.script;
    f.close();
    if (!f || ::chmod(path.c_str(), 0700) != 0) return err("cannot save the job script to " + path);
  }
  if (auto s = tx.commit(); !s) return Error{s.error()};
  specs_[rec.spec_id] = std::make_shared<const JobSpec>(spec);

  // Parent states, looked up once for the whole array.
  std::vector<std::pair<Dependency, JobState>> dep_states;
  for (auto& d : spec.dependencies) {
    auto p = store_.job(d.job_id);
    dep_states.push_back({d, p && p->has_value() ? (*p)->state : JobState::Unknown});
  }
  // Every element's own record (its uid and index), read in one query for the array.
  auto records = ids->size() == 1 ? Result<std::vector<JobRecord>>(std::vector<JobRecord>{rec})
                                   : store_.jobs({ids->front()});
  if (!records) return Error{records.error()};
  for (const JobRecord& element : *records) {
    enqueue_pending(element);
    add_dependencies(element.id, dep_states);
  }
  return ids;
}

void LocalBackend::enqueue_pending(const JobRecord& r) { pending_[r.id] = queued(r); }

void LocalBackend::add_dependencies(std::int64_t id, const std::vector<std::pair<Dependency, JobState>>& parents) {
  auto v = deps_.add(id, parents);
  for (auto r : v.ready) queue_.push(pending_[r]);
  for (auto d : v.doomed) {
    cancel_doomed(d);
    resolve_dependents(d, JobState::Cancelled);
  }
}

void LocalBackend::cancel_doomed(std::int64_t id) {
  Transition t;
  t.reason = "DependencyNeverSatisfied";
  t.end_time = wall_now();
  set_state(id, JobState::Cancelled, t);
  pending_.erase(id);
}

Result<std::vector<std::int64_t>> LocalBackend::cancel(const std::vector<std::int64_t>& ids) {
  auto jobs = store_.jobs(ids);
  if (!jobs) return Error{jobs.error()};
  for (auto id : ids) {
    bool found = false;
    for (auto& j : *jobs) found = found || j.id == id || j.array_job_id == id;
    if (!found) return err("no job " + std::to_string(id));
  }
  std::vector<std::int64_t> acted;
  for (auto& j : *jobs) {
    if (auto it = running_.find(j.id); it != running_.end()) {
      signal_job(it->second, cancel_signal());  // the host reports CANCELLED
      it->second.cancel_sent = true;
      acted.push_back(j.id);
    } else if (pending_.count(j.id)) {
      queue_.remove(j.id);
      deps_.remove(j.id);
      pending_.erase(j.id);
      Transition t;
      t.reason = "cancelled while pending";
      t.end_time = wall_now();
      set_state(j.id, JobState::Cancelled, t);
      resolve_dependents(j.id, JobState::Cancelled);
      acted.push_back(j.id);
    }
  }
  return acted;
}

void LocalBackend::resolve_dependents(std::int64_t id, JobState state) {
  std::vector<std::pair<std::int64_t, JobState>> work{{id, state}};
  while (!work.empty()) {
    auto [parent, st] = work.back();
    work.pop_back();
    auto v = deps_.parent_ended(parent, st);
    for (auto r : v.ready)
      if (auto it = pending_.find(r); it != pending_.end()) queue_.push(it->second);
    for (auto d : v.doomed) {
      cancel_doomed(d);
      work.push_back({d, JobState::Cancelled});
    }
  }
}

void LocalBackend::plan_starts() {
  // A hand-off not started yet holds nothing: its predecessor's slot and CPUs are counted.
  int holding = 0;
  for (auto& [id, r] : running_) holding += r.owns_alloc;
  for (auto& p : planned_) holding += p.after == 0;
  int slots = INT_MAX;
  if (machine_.job_limit > 0) slots = machine_.job_limit - holding;
  if (slots <= 0) return;
  std::vector<RunningJobView> views;
  views.reserve(running_.size() + planned_.size());
  for (auto& [id, r] : running_)
    if (r.owns_alloc) views.push_back(r.view);
  for (auto& p : planned_)
    if (p.after == 0) views.push_back(p.view);
  auto pass = scheduler_.pass(queue_, views, pool_, slots, wall_now());
  for (auto id : pass.preempt) {
    auto it = running_.find(id);
    if (it == running_.end() || it->second.requeueing) continue;
    // The host stops the job and reports PENDING.
    if (signal_job(it->second, preempt_signal())) it->second.requeueing = true;
  }
  for (auto& s : pass.start) {
    queue_.started(s.id);
    const QueuedJob q = pending_[s.id];
    pending_.erase(s.id);
    std::shared_ptr<const JobSpec> spec;
    if (auto sp = spec_for(q.spec_id)) spec = *sp;
    if (!spec) {
      Transition t;
      t.reason = "job record or spec missing at launch";
      t.end_time = wall_now();
      set_state(s.id, JobState::Failed, t);
      pool_.release(s.alloc);
      continue;
    }
    planned_.push_back(plan_for(q, s.alloc, *spec, wall_now()));
  }
  plan_handoffs();
}

LocalBackend::Planned LocalBackend::plan_for(const QueuedJob& q, const Allocation& alloc, const JobSpec& spec,
                                             double start) {
  Transition t;
  t.start_time = start;
  const std::optional<std::int64_t> array_job_id =
      q.array_job_id ? std::optional<std::int64_t>(q.array_job_id) : std::nullopt;
  Planned p{q.id, q.spec_id, q.array_job_id, alloc,
            make_launch_plan(spec, JobIdentity{q.id, q.uid, array_job_id, q.array_index}, alloc, machine_,
                             script_path(q.spec_id), user_),
            RunningJobView{q.id, q.account, start, q.cpus, q.walltime_s}};
  if (wrap_) wrap_(p.plan, spec);
  t.alloc = alloc.to_json();
  t.stdout_path = p.plan.stdout_path;
  t.stderr_path = p.plan.stderr_path;
  set_state(q.id, JobState::Running, t);
  return p;
}

bool LocalBackend::signal_job(Running& r, int sig) {
  if (!r.adopted) return host_ && host_->signal_job(r.id, sig);
  if (r.host_pidfd < 0) {
    // The host of an earlier daemon: its pid is in the record. Opened, then checked that
    // the record is still locked (its host alive), so the pid cannot be another's.
    const std::string path = records_.path(r.slot);
    RunRecord rec = parse_run_record(read_record_file(path));
    // A hand-off not started yet waits in the host of the first of its chain that runs.
    for (auto p = running_.find(r.predecessor); rec.supervisor_pid <= 0 && p != running_.end();
         p = running_.find(p->second.predecessor))
      rec.supervisor_pid = parse_run_record(read_record_file(records_.path(p->second.slot))).supervisor_pid;
    if (rec.supervisor_pid <= 0) return false;
    int pidfd = pidfd_open(rec.supervisor_pid);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    const bool locked = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    if (fd >= 0) ::close(fd);
    if (!locked) {
      if (pidfd >= 0) ::close(pidfd);
      return false;
    }
    r.host_pidfd = pidfd;
  }
  return r.host_pidfd >= 0 && signal_host(r.host_pidfd, sig, r.id);
}

void LocalBackend::launch() {
  auto planned = std::move(planned_);
  planned_.clear();
  for (auto& p : planned) {
    auto fail = [&](const std::string& why) {
      Transition t;
      t.reason = why;
      t.end_time = wall_now();
      set_state(p.id, JobState::Failed, t);
      if (p.after == 0) {
        pool_.release(p.alloc);
      } else if (auto pred = running_.find(p.after); pred != running_.end()) {
        pred->second.successor = 0;  // its CPUs stay the predecessor's
      }
      if (p.array_job_id) queue_.element_ended(p.array_job_id);
      resolve_dependents(p.id, JobState::Failed);
    };
    if (!host_) {
      fail("no job host to run it");
      continue;
    }
    if (p.after) {
      auto pred = running_.find(p.after);
      if (pred == running_.end() || pred->second.successor != 0) {
        // Its predecessor could not be started (or is taken): back to the queue, with
        // no CPUs of its own.
        Transition t;
        t.reason = "requeued: the job it was to follow did not start";
        set_state(p.id, JobState::Pending, t);
        if (p.array_job_id) queue_.element_ended(p.array_job_id);
        if (auto r = store_.job(p.id); r && r->has_value()) {
          pending_[p.id] = queued(**r);
          queue_.push(pending_[p.id]);
        }
        continue;
      }
      pred->second.successor = p.id;
    }
    const int slot = records_.acquire();
    const std::string path = records_.path(slot);
    // Appended to what earlier jobs wrote (a job_id= line starts a new record): freeing
    // the file's blocks for every job costs a synchronous discard on some filesystems.
    int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_APPEND | O_CLOEXEC, 0600);
    struct stat st{};
    const bool ok = fd >= 0 && ::flock(fd, LOCK_EX) == 0 && ::fstat(fd, &st) == 0 &&
                    (st.st_size < kRecordFileMax || ::ftruncate(fd, 0) == 0) &&
                    append_record(fd, "job_id=" + std::to_string(p.id) + "\n" +
                                          (p.after ? "after=" + std::to_string(p.after) + "\n" : std::string()));
    if (!ok) {
      const std::string why = std::strerror(errno);
      if (fd >= 0) ::close(fd);
      records_.release(slot);
      fail("cannot create run record " + path + ": " + why);
      continue;
    }
    auto sent = host_->launch(p.id, p.plan, fd, p.after);
    ::close(fd);
    if (!sent) {
      records_.release(slot);
      fail(sent.error());
      continue;
    }
    Running run;
    run.id = p.id;
    run.slot = slot;
    run.alloc = std::move(p.alloc);
    run.array_job_id = p.array_job_id;
    run.spec_id = p.spec_id;
    run.view = p.view;
    if (p.after) {
      run.predecessor = p.after;
      run.owns_alloc = false;
      run.handed_at = wall_now();
    }
    running_[p.id] = std::move(run);
  }
}

std::vector<int> LocalBackend::watched_fds() const {
  if (by_watch_.empty()) return {};
  return {inotify_fd_};
}

bool LocalBackend::job_ended(const Ended& report) {
  auto it = running_.find(report.job_id);
  if (it == running_.end() || it->second.adopted) return false;
  finalize(report.job_id, report.record);
  return true;
}

void LocalBackend::host_died() {
  std::vector<std::int64_t> ids;
  for (auto& [id, r] : running_)
    if (!r.adopted) ids.push_back(id);
  for (auto id : ids) finalize_from_file(id);
}

void LocalBackend::fd_ready(int fd) {
  if (fd != inotify_fd_ || fd < 0) return;
  alignas(inotify_event) char buf[4096];
  std::vector<std::int64_t> closed;
  ssize_t n;
  while ((n = ::read(inotify_fd_, buf, sizeof buf)) > 0) {
    for (char* p = buf; p < buf + n;) {
      auto* e = reinterpret_cast<inotify_event*>(p);
      if (auto w = by_watch_.find(e->wd); w != by_watch_.end() && (e->mask & IN_CLOSE_WRITE))
        closed.push_back(w->second);
      p += sizeof(inotify_event) + e->len;
    }
  }
  for (auto id : closed) {
    auto it = running_.find(id);
    if (it == running_.end()) continue;
    // The host closes a job's record once, after writing its outcome (or dies, closing all).
    int rfd = ::open(records_.path(it->second.slot).c_str(), O_RDONLY | O_CLOEXEC);
    const bool locked = rfd >= 0 && ::flock(rfd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    if (rfd >= 0) ::close(rfd);
    if (!locked) finalize_from_file(id);
  }
}

void LocalBackend::finalize_from_file(std::int64_t id) {
  auto it = running_.find(id);
  if (it == running_.end()) return;
  finalize(id, parse_run_record(read_record_file(records_.path(it->second.slot))));
}

void LocalBackend::finalize(std::int64_t id, const RunRecord& rec) {
  auto it = running_.find(id);
  if (it == running_.end()) return;
  Running run = std::move(it->second);
  running_.erase(it);
  if (run.host_pidfd >= 0) ::close(run.host_pidfd);
  if (run.watch >= 0) {
    ::inotify_rm_watch(inotify_fd_, run.watch);
    by_watch_.erase(run.watch);
  }
  records_.release(run.slot);
  // Hand-offs: a successor that was waiting for this job's CPUs has them now (the host
  // started it as this one ended), and the one behind it waits for a running job from
  // now on. A hand-off that ends without having had the CPUs (handed back, cancelled,
  // failed to start) leaves them with its predecessor, and whoever waited behind it
  // waits for that predecessor instead, as in the host.
  bool release = run.owns_alloc;
  auto next = running_.find(run.successor);
  if (next != running_.end() && next->second.predecessor != id) next = running_.end();
  if (run.owns_alloc) {
    if (next != running_.end()) {
      next->second.predecessor = 0;
      next->second.owns_alloc = true;
      release = false;
      if (auto after = running_.find(next->second.successor);
          after != running_.end() && after->second.predecessor == next->first)
        after->second.handed_at = wall_now();
    }
  } else {
    auto p = running_.find(run.predecessor);
    if (p != running_.end() && p->second.successor == id) p->second.successor = next != running_.end() ? next->first : 0;
    if (next != running_.end()) {
      next->second.predecessor = p != running_.end() ? p->first : 0;
      next->second.handed_at = wall_now();
    }
  }
  if (rec.start_time > 0) run.view.start_time = rec.start_time;  // the host's, not the plan's
  if (run.array_job_id && rec.job_pid > 0 && rec.outcome && rec.outcome->end_time > 0) {
    if (element_run_s_.size() > 1024) element_run_s_.clear();  // a hint, not a record
    element_run_s_[run.array_job_id] = std::max(0.0, rec.outcome->end_time - run.view.start_time);
  }
  const bool ran = rec.job_pid > 0;
  Transition t;
  if (ran && rec.start_time > 0) t.start_time = rec.start_time;
  JobState to;
  const bool never_started = !rec.outcome && rec.supervisor_pid == 0;
  if (never_started || (rec.outcome && rec.outcome->state == JobState::Pending)) {
    // Preempted: charged what it ran, and back in the queue with its id and submit time.
    // Never started (its host ended before taking it, or a hand-off handed back): back in
    // the queue as it was.
    if (never_started || !ran) {
      t.reason = never_started ? "requeued: the job host ended before starting it"
                               : "requeued: " + rec.outcome->reason;
      set_state(id, JobState::Pending, t);
    } else {
      t.reason = "preempted: requeued";
      t.exit_code = rec.outcome->exit_code;
      t.signal = rec.outcome->signal;
      const UsageCharge used = charge(run.view, rec.outcome->end_time > 0 ? rec.outcome->end_time : wall_now());
      set_state(id, JobState::Pending, t, &used);
    }
    if (release) pool_.release(run.alloc);
    if (run.array_job_id) queue_.element_ended(run.array_job_id);
    auto r = store_.job(id);
    if (r && r->has_value() && (*r)->state == JobState::Pending) {
      pending_[id] = queued(**r);
      queue_.push(pending_[id]);
    }
    return;
  }
  if (rec.outcome) {
    const RunOutcome& o = *rec.outcome;
    to = o.state;
    t.reason = o.reason;
    t.end_time = o.end_time;
    t.exit_code = o.exit_code;
    t.signal = o.signal;
    t.cpu_seconds = o.cpu_seconds;
    t.max_rss_bytes = o.max_rss_bytes;
  } else {
    // Its host died without a word: whatever is left of the job goes too.
    if (rec.job_pid > 0) ::killpg(rec.job_pid, SIGKILL);
    to = JobState::Lost;
    t.reason = "the job host ended without recording the job's outcome";
    t.end_time = wall_now();
  }
  const UsageCharge used = charge(run.view, t.end_time.value_or(wall_now()));
  t.never_started = rec.outcome && !ran;  // a hand-off cancelled before it started: no start, no usage
  set_state(id, to, t, ran ? &used : nullptr);
  if (release) pool_.release(run.alloc);
  if (run.array_job_id) queue_.element_ended(run.array_job_id);
  resolve_dependents(id, to);
}

void LocalBackend::cancel_all_running() {
  for (auto& [id, r] : running_) {
    signal_job(r, cancel_signal());
    r.cancel_sent = true;
  }
}

}  // namespace yard
