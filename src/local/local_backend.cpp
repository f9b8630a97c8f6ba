#include "local/local_backend.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <chrono>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "core/file_text.h"
#include "core/size.h"
#include "local/launch_plan.h"
#include "local/run_record.h"
#include "store/sqlite.h"

namespace yard {
namespace {

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

}  // namespace

LocalBackend::LocalBackend(Store& store, Machine machine, std::string state_dir, std::string user,
                           const Clock& clock)
    : store_(store),
      clock_(clock),
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

Status LocalBackend::save_script(std::int64_t spec_id, const std::string& script) const {
  if (script.empty()) return {};
  const std::string path = script_path(spec_id);
  // Close-on-exec (write_whole_file): a command another thread starts meanwhile (a scheduler's
  // listing) must not keep the script open for writing, or running it fails.
  const bool ok = write_whole_file(path, script, 0700).ok();
  if (!ok || ::chmod(path.c_str(), 0700) != 0) return unavailable("cannot save the job script to " + path);
  return {};
}

Result<std::shared_ptr<const JobSpec>> LocalBackend::spec_for(std::int64_t spec_id) {
  if (auto it = specs_.find(spec_id); it != specs_.end()) return it->second;
  auto s = store_.spec(spec_id);
  if (!s) return s.failure();
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

// sbatch's bare --exclusive: the job is given every CPU and GPU of its node, and only the
// memory it asked for (sbatch(1)); on this one machine nothing else runs beside it. Its
// `=user` and `=mcs` forms share the node with the same user's jobs: all of them here.
// Inside an allocation (the steps backends) a step's CPUs are its own already.
bool LocalBackend::whole_machine(std::int64_t spec_id) {
  if (name_ != "local") return false;
  auto spec = spec_for(spec_id);
  if (!spec || !*spec) return false;
  for (auto& [name, value] : (*spec)->slurm_options)
    if (name == "exclusive" && value.empty()) return true;
  return false;
}

QueuedJob LocalBackend::queued(const JobRecord& r) {
  const bool whole = whole_machine(r.spec_id);
  return QueuedJob{r.id,
                   r.priority,
                   r.submit_time,
                   whole ? std::max(r.cpus, machine_.cpus) : r.cpus,
                   static_cast<std::uint64_t>(r.mem_bytes),
                   whole ? std::max(r.gpus, machine_.gpus) : r.gpus,
                   r.array_job_id.value_or(0),
                   r.array_max_running,
                   account_of(r.spec_id),
                   r.walltime_s,
                   r.uid,
                   r.spec_id,
                   r.array_index};
}


Status LocalBackend::check(const JobSpec& spec) const {
  if (spec.backend != name_) return err("unknown backend '" + spec.backend + "' (this one is " + name_ + ")");
  if (auto s = spec.validate(); !s) return s;
  if (auto s = store_.check_dependencies(spec); !s) return s;
  std::error_code ec;
  if (name_ == "local" && !std::filesystem::is_directory(spec.workdir, ec))  // jobs run here, in it
    return err("--chdir: '" + spec.workdir + "' is not a directory");
  if (spec.launcher == "mpirun" && name_ == "local")
    return err("--launcher mpirun runs inside an allocation: submit with --backend slurm-steps (or your scheduler's other -steps backend)");
  // Components are co-scheduled by a batch scheduler; one machine (or one allocation, for
  // direct mode's steps) has nothing to co-schedule them across, and summing them would
  // hide that the job asked for different partitions. (MPMD app contexts are summed.)
  if (!spec.components.empty() && spec.launcher.empty())
    return err("a heterogeneous job (" + std::to_string(spec.components.size() + 1) +
               " components, separated by ':' or '#SBATCH hetjob') cannot run on backend '" + name_ + "'" +
               (name_ == "local" ? ", which is one machine" : ", whose steps share one allocation") +
               ": submit it with --backend slurm, or as one component");
  // An MPMD job's app contexts share one allocation: the sum of their resources. A
  // valid job larger than the machine is no parse error: as sbatch's "Requested node
  // configuration is not available", exit 1.
  const auto& r = spec.res;
  if (!pool_.could_ever_fit(spec.total_cpus(), spec.total_mem_bytes(), spec.total_gpus())) {
    // The local machine's size can be declared larger; a direct mode's is its allocation's,
    // whose memory is not counted (the steps share what the scheduler gave).
    const bool local = name_ == "local";
    return Error{"the job asks for " + std::to_string(spec.total_cpus()) + " CPUs, " + format_bytes(spec.total_mem_bytes()) +
                     " and " + std::to_string(spec.total_gpus()) + " GPUs, but " +
                     (local ? "this machine offers " + std::to_string(machine_.cpus) + " CPUs, " +
                                  format_bytes(machine_.mem_bytes) + " and " + std::to_string(machine_.gpus) +
                                  " GPUs (a larger node can be declared in the local config file)"
                            : "the allocation of backend " + name_ + " has " + std::to_string(machine_.cpus) + " CPUs and " +
                                  std::to_string(machine_.gpus) + " GPUs"),
                 ErrorKind::Unsatisfiable};
  }
  if (r.nodes > machine_.nodes)
    return Error{"--nodes=" + std::to_string(r.nodes) + ": backend " + name_ + " has " + std::to_string(machine_.nodes) +
                     (machine_.nodes == 1 ? " node" : " nodes"),
                 ErrorKind::Unsatisfiable};
  return {};
}

Result<std::vector<std::int64_t>> LocalBackend::submit(JobSpec spec) {
  if (spec.backend.empty()) spec.backend = kDefaultBackend;
  if (auto s = check(spec); !s) return s.failure();

  auto tx = store_.transaction();
  if (!tx.begun()) return tx.begun().failure();
  auto ids = store_.insert_jobs(spec, clock_.wall());
  if (!ids) return ids;
  auto first = store_.job(ids->front());
  if (!first || !first->has_value()) return err("submitted job vanished from the store");
  const JobRecord& rec = **first;
  if (auto s = save_script(rec.spec_id, spec.script); !s) return s.failure();
  if (auto s = tx.commit(); !s) return s.failure();
  specs_[rec.spec_id] = std::make_shared<const JobSpec>(spec);

  // Parent states, looked up once for the whole array.
  ParentStates dep_states;
  for (auto& d : spec.dependencies) {
    auto p = store_.job(d.job_id);
    dep_states.push_back({d, p && p->has_value() ? (*p)->state : JobState::Unknown});
  }
  // Every element's own record (its uid and index), read in one query for the array.
  auto records = ids->size() == 1 ? Result<std::vector<JobRecord>>(std::vector<JobRecord>{rec})
                                   : store_.jobs({ids->front()});
  if (!records) return records.failure();
  ParentElements elements;
  for (const JobRecord& element : *records) {
    enqueue_pending(element);
    add_dependencies(element.id, for_element(dep_states, element.array_index, elements), spec.dependency_any);
  }
  return ids;
}

void LocalBackend::enqueue_pending(const JobRecord& r) { pending_[r.id] = queued(r); }

Result<std::vector<std::int64_t>> LocalBackend::cancel(const std::vector<std::int64_t>& ids) {
  auto jobs = store_.jobs(ids);
  if (!jobs) return jobs.failure();
  for (auto id : ids) {
    bool found = false;
    for (auto& j : *jobs) found = found || j.id == id || j.array_job_id == id;
    if (!found) return err("no job " + std::to_string(id));
  }
  std::vector<std::int64_t> acted;
  // Later ids first: an array element handed off behind an earlier one (a chain runs in
  // id order) is cancelled before its predecessor is killed. The host reads the
  // predecessor's exit (SIGCHLD, a standard signal) before any queued real-time signal,
  // so a cancel sent after the kill could arrive once the hand-off had already started.
  std::sort(jobs->begin(), jobs->end(), [](const JobRecord& a, const JobRecord& b) { return a.id > b.id; });
  for (auto& j : *jobs) {
    if (auto it = running_.find(j.id); it != running_.end()) {
      signal_job(it->second, cancel_signal());  // the host reports CANCELLED
      it->second.cancel_sent = true;
      acted.push_back(j.id);
    } else if (pending_.count(j.id)) {
      queue_.remove(j.id);
      deps_.remove(j.id);
      const std::int64_t spec_id = pending_[j.id].spec_id;
      pending_.erase(j.id);
      Transition t;
      t.reason = "cancelled while pending";
      t.end_time = clock_.wall();
      set_state(j.id, JobState::Cancelled, t);
      mail_about(j.id, spec_id, JobState::Cancelled, 0);
      resolve_dependents(j.id, JobState::Cancelled);
      acted.push_back(j.id);
    }
  }
  return acted;
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
  auto pass = scheduler_.pass(queue_, views, pool_, slots, clock_.wall());
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
      t.end_time = clock_.wall();
      set_state(s.id, JobState::Failed, t);
      pool_.release(s.alloc);
      continue;
    }
    planned_.push_back(plan_for(q, s.alloc, *spec, clock_.wall()));
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
  // A job tried again with more time (its retry policy) has it in its record, not its spec.
  if (spec.retry && q.walltime_s > 0) p.plan.walltime_s = q.walltime_s;
  p.kind = handoff_kind(q);
  if (wrap_) wrap_(p.plan, spec);
  t.alloc = alloc.to_json();
  t.stdout_path = p.plan.stdout_path;
  t.stderr_path = p.plan.stderr_path;
  set_state(q.id, JobState::Running, t);
  mail_about(q.id, q.spec_id, JobState::Running, start - q.submit_time);
  for (auto r : deps_.parent_started(q.id).ready)  // --dependency=after
    if (auto it = pending_.find(r); it != pending_.end()) queue_.push(it->second);
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


void LocalBackend::cancel_all_running() {
  for (auto& [id, r] : running_) {
    signal_job(r, cancel_signal());
    r.cancel_sent = true;
  }
}

}  // namespace yard
