#include "local/process_tracking.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/file_text.h"
#include "local/proc_scan.h"

namespace yard {
namespace {

namespace fs = std::filesystem;

std::vector<pid_t> procs_of(const std::string& group) {
  std::istringstream in(read_file_or_empty(group + "/cgroup.procs"));
  std::vector<pid_t> out;
  pid_t p;
  while (in >> p) out.push_back(p);
  return out;
}

struct Mount {
  std::string dir, type, options;
};

std::vector<Mount> mounts() {
  std::istringstream in(read_file_or_empty("/proc/self/mounts"));
  std::vector<Mount> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    Mount m;
    std::string source;
    if (words >> source >> m.dir >> m.type >> m.options) out.push_back(std::move(m));
  }
  return out;
}

bool has_option(const std::string& options, const std::string& name) {
  return ("," + options + ",").find("," + name + ",") != std::string::npos;
}

// The path of this process's cgroup in the v2 hierarchy ("0::/a/b" in /proc/self/cgroup).
std::string own_v2_path() {
  std::istringstream in(read_file_or_empty("/proc/self/cgroup"));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("0::", 0) == 0) return line.substr(3);
  return {};
}

// Whether a process can be made, joined and left in `base`: a child joins a probe group
// and exits; the probe is removed.
bool usable(const std::string& base) {
  if (::mkdir(base.c_str(), 0755) != 0 && errno != EEXIST) return false;
  const std::string probe = base + "/probe-" + std::to_string(::getpid());
  if (::mkdir(probe.c_str(), 0755) != 0 && errno != EEXIST) return false;
  bool ok = false;
  int fd = ::open((probe + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    pid_t child = ::fork();
    if (child == 0) ::_exit(::write(fd, "0", 1) == 1 ? 0 : 1);
    int status = 0;
    ok = child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    ::close(fd);
  }
  ::rmdir(probe.c_str());
  return ok;
}

// Removes the empty groups of hosts that are gone (left by one that was killed).
void remove_stale(const std::string& base) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(base, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 2 || name[0] != 'h') continue;
    const pid_t owner = static_cast<pid_t>(std::atol(name.c_str() + 1));
    if (owner > 0 && owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH) ::rmdir(e.path().c_str());
  }
}

std::string marker(std::int64_t job_id) { return "YARD_JOB_ID=" + std::to_string(job_id); }

// Under Subreaper: the host's children marked as job `job_id`'s, and their descendants.
std::vector<pid_t> marked_orphans(std::int64_t job_id, pid_t leader,
                                  const std::unordered_map<pid_t, std::vector<pid_t>>& tree) {
  std::vector<pid_t> out;
  auto it = tree.find(::getpid());
  if (it == tree.end()) return out;
  const std::string mark = marker(job_id);
  for (pid_t c : it->second) {
    if (c == leader || !environment_has(c, mark)) continue;
    out.push_back(c);
    for (pid_t d : descendants(tree, c)) out.push_back(d);
  }
  return out;
}

std::vector<pid_t> subreaper_members(pid_t leader, std::int64_t job_id) {
  const auto tree = children_by_parent();
  std::vector<pid_t> out = leader > 0 ? descendants(tree, leader) : std::vector<pid_t>{};
  for (pid_t p : marked_orphans(job_id, leader, tree)) out.push_back(p);
  return out;
}

}  // namespace

std::string_view tracking_name(Tracking t) {
  switch (t) {
    case Tracking::Cgroup2: return "cgroup2";
    case Tracking::Cgroup1: return "cgroup1";
    case Tracking::Subreaper: return "subreaper";
  }
  return "subreaper";
}

ProcessTracker ProcessTracker::detect() {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  const char* forced = std::getenv("YARD_PROCESS_TRACKING");
  const std::string want = forced ? forced : "";
  auto wanted = [&](Tracking t) { return want.empty() || want == tracking_name(t); };
  const auto all = mounts();
  if (wanted(Tracking::Cgroup2))
    for (const auto& m : all) {
      if (m.type != "cgroup2") continue;
      std::vector<std::string> bases{m.dir + "/switchyard-jobs"};
      const std::string own = own_v2_path();
      if (!own.empty() && own != "/") bases.push_back(m.dir + own + "/switchyard-jobs");  // a delegated subtree
      for (const auto& b : bases)
        if (usable(b)) {
          remove_stale(b);
          return ProcessTracker(Tracking::Cgroup2, b);
        }
    }
  if (wanted(Tracking::Cgroup1))
    for (const char* controller : {"pids", "freezer"})
      for (const auto& m : all)
        if (m.type == "cgroup" && has_option(m.options, controller) && usable(m.dir + "/switchyard-jobs")) {
          remove_stale(m.dir + "/switchyard-jobs");
          return ProcessTracker(Tracking::Cgroup1, m.dir + "/switchyard-jobs");
        }
  if (!want.empty() && want != "subreaper")
    std::cerr << "yard job host: process tracking '" << want << "' is not possible here; using subreaper" << std::endl;
  return ProcessTracker(Tracking::Subreaper, "");
}

ProcessTracker::~ProcessTracker() {
  for (auto& g : pool_) discard(g);
  for (auto& e : draining_) discard(e.group);
}

void ProcessTracker::give_back(TrackedGroup& g) {
  if (g.path.empty()) return;
  if (mode_ == Tracking::Cgroup2 && populated(g) < 0) discard(g);  // removed from under us
  else pool_.push_back(std::move(g));
}

void ProcessTracker::discard(TrackedGroup& g) {
  if (g.procs_fd >= 0) ::close(g.procs_fd);
  if (g.events_fd >= 0) ::close(g.events_fd);
  g.procs_fd = g.events_fd = -1;
  if (!g.path.empty()) ::rmdir(g.path.c_str());
}

TrackedGroup ProcessTracker::acquire() {
  if (mode_ == Tracking::Subreaper) return {};
  if (!pool_.empty()) {
    // Found empty at its last job's end (one removed from under us since is found at the
    // end of the job it served, and not pooled again).
    TrackedGroup g = std::move(pool_.back());
    pool_.pop_back();
    return g;
  }
  TrackedGroup g;
  g.path = base_ + "/h" + std::to_string(::getpid()) + "-" + std::to_string(made_++);
  if (::mkdir(g.path.c_str(), 0755) != 0 && errno != EEXIST) return {};
  g.procs_fd = ::open((g.path + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (mode_ == Tracking::Cgroup2) g.events_fd = ::open((g.path + "/cgroup.events").c_str(), O_RDONLY | O_CLOEXEC);
  if (g.procs_fd < 0 || (mode_ == Tracking::Cgroup2 && g.events_fd < 0)) {
    discard(g);
    return {};
  }
  return g;
}

void ProcessTracker::signal(const TrackedGroup& g, pid_t leader, std::int64_t job_id, int sig) const {
  // The leader's own process group had it from the caller's killpg: a signal the job
  // traps (--signal's warning) must arrive once, or its handler runs twice.
  auto send = [&](pid_t p) {
    if (leader <= 0 || ::getpgid(p) != leader) ::kill(p, sig);
  };
  if (mode_ == Tracking::Subreaper) {
    for (pid_t p : subreaper_members(leader, job_id)) send(p);
  } else if (!g.path.empty()) {
    for (pid_t p : procs_of(g.path)) send(p);
  }
}

void ProcessTracker::end(TrackedGroup g, std::int64_t job_id) {
  Ending e{std::move(g), job_id, 0};
  if (mode_ == Tracking::Subreaper) {
    const auto tree = children_by_parent();
    auto left = marked_orphans(job_id, 0, tree);
    if (left.empty()) return;  // the usual case: nothing escaped the process group
    for (pid_t p : left) ::kill(p, SIGKILL);
  } else if (e.group.path.empty()) {
    return;  // it had no group (one could not be made)
  } else if (mode_ == Tracking::Cgroup2) {
    // The usual case, one read: nothing outlived the leader.
    if (const int p = populated(e.group); p <= 0) {
      if (p == 0) pool_.push_back(std::move(e.group));
      else discard(e.group);  // removed from under us (its job was not tracked): not pooled again
      return;
    }
    int fd = ::open((e.group.path + "/cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::write(fd, "1", 1) != 1) signal(e.group, 0, job_id, SIGKILL);  // before Linux 5.14
    if (fd >= 0) ::close(fd);
  } else {
    signal(e.group, 0, job_id, SIGKILL);
  }
  if (empty_now(e)) {
    give_back(e.group);
    return;
  }
  draining_.push_back(std::move(e));
}

bool ProcessTracker::empty_now(const Ending& e) const {
  if (mode_ == Tracking::Subreaper) return marked_orphans(e.job_id, 0, children_by_parent()).empty();
  if (mode_ == Tracking::Cgroup2) return populated(e.group) <= 0;
  return procs_of(e.group.path).empty();
}

int ProcessTracker::populated(const TrackedGroup& g) {
  char buf[256];
  const ssize_t n = g.events_fd >= 0 ? ::pread(g.events_fd, buf, sizeof buf - 1, 0) : -1;
  if (n <= 0) return -1;
  buf[n] = 0;
  return std::strstr(buf, "populated 0") != nullptr ? 0 : 1;
}

bool ProcessTracker::drain() {
  for (std::size_t i = 0; i < draining_.size();) {
    Ending& e = draining_[i];
    const bool emptied = empty_now(e);
    if (emptied || ++e.tries > 2000) {  // 2000 passes: ~10 s of a process in the kernel's hands
      if (emptied) {
        give_back(e.group);
      } else if (!e.group.path.empty()) {  // never shared with another job; removed if it ever empties
        std::cerr << "yard job host: processes of job " << e.job_id << " outlive it in " << e.group.path << std::endl;
        discard(e.group);
      }
      draining_[i] = std::move(draining_.back());
      draining_.pop_back();
      continue;
    }
    if (mode_ == Tracking::Subreaper) {
      for (pid_t p : marked_orphans(e.job_id, 0, children_by_parent())) ::kill(p, SIGKILL);
    } else {
      signal(e.group, 0, e.job_id, SIGKILL);
    }
    ++i;
  }
  return !draining_.empty();
}

}  // namespace yard
