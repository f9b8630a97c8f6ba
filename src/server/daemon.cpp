#include "server/daemon.h"

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>

#include <filesystem>

#include "client/daemon_lock.h"
#include "client/start_report.h"
#include "core/clock.h"
#include "local/machine.h"
#include "server/connections.h"
#include "server/listener.h"
#include "server/requests.h"
#include "server/store_guard.h"
#include "server/subscribers.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store/store_file.h"

namespace yard {
namespace {

std::string user_name() {
  if (passwd* pw = ::getpwuid(::getuid())) return pw->pw_name;
  return std::to_string(::getuid());
}

// After a store fault the daemon's memory may hold what the store does not (jobs queued,
// started, ended): it starts again from the store, as after a crash, whose recovery is
// proven. This process image is replaced; the job host goes on supervising its jobs and
// the new daemon adopts them.
[[noreturn]] void restart_from_store() {
  std::cerr << "yard daemon: restarting from what the store holds" << std::endl;
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    ::execl(exe, exe, static_cast<char*>(nullptr));
  }
  std::cerr << "yard daemon: cannot restart: " << std::strerror(errno) << std::endl;
  ::_exit(1);
}

}  // namespace

int run_daemon(const Paths& paths, const BackendRegistry& registry) {
  // Keep freed heap instead of giving it back at once: with short jobs the daemon's heap
  // breathes with every loop iteration, and each return to the kernel (brk) meant fresh
  // page faults on the next — a tenth of its time.
  ::mallopt(M_TRIM_THRESHOLD, 32 << 20);
  ::mallopt(M_TOP_PAD, 4 << 20);
  // Whoever started this daemon waits for "ready" or the reason it could not start.
  StartReport start_report = StartReport::from_environment();
  auto refuse = [&start_report](const std::string& why) {
    std::cerr << "yard daemon: " << why << std::endl;
    start_report.failed(why);
    return 1;
  };
  // Nothing of the daemon depends on the directory it was started from (whatever
  // directory the first `yard submit` ran in, maybe another user's to remove or close):
  // a job's own directory is named wherever it matters.
  if (::chdir("/") != 0) return refuse(std::string("cannot change to /: ") + std::strerror(errno));
  if (auto s = ensure_dirs(paths); !s) return refuse(s.error());
  // One descriptor per client, and a watcher keeps its connection open: as many as the
  // hard limit allows. Jobs keep the user's limit (the job host restores it).
  if (rlimit nofile{}; ::getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
    ::setenv("YARD_JOB_NOFILE", std::to_string(nofile.rlim_cur).c_str(), 1);
    nofile.rlim_cur = nofile.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &nofile);
  }
  auto lock = take_daemon_lock(paths.lock);
  if (!lock) {
    std::cerr << "yard daemon: " << lock.error() << "\n";
    if (lock.kind() != ErrorKind::Conflict) return refuse(lock.error());
    start_report.busy();
    return 3;
  }
  for (const auto& note : make_state_private(paths)) std::cerr << "yard daemon: " << note << std::endl;
  auto store = Store::open(paths.store);
  if (!store) return refuse(store.error());
  store->defer_checkpoints();
  StoreFile store_file(paths.store);
  auto machine = load_machine(paths.config);
  if (!machine) return refuse(machine.error());

  // Blocked before the backends start threads of their own, so that SIGTERM reaches the
  // signalfd, not one of them.
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  ::sigprocmask(SIG_BLOCK, &mask, nullptr);
  int sigfd = ::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

  const Clock& clock = system_clock();
  const BackendContext context{*store,       paths.state_dir, std::filesystem::path(paths.config).parent_path().string(),
                               paths.policy, user_name(),     *machine, clock};
  auto opened = Backends::open(registry, context);
  if (!opened) return refuse(opened.error());
  const Backends backends = std::move(*opened);
  for (const auto& b : backends.all()) {
    if (auto s = b->recover(clock.wall()); !s) return refuse("backend " + b->name() + ": recovery failed: " + s.error());
    if (auto line = b->announce(); !line.empty()) std::cerr << "yard daemon: " << line << std::endl;
  }
  ::signal(SIGPIPE, SIG_IGN);
  // Recovery's writes failed (a full disk): serving now would answer from a memory the
  // store does not hold.
  if (!store->fault().empty()) return refuse(store->fault());

  auto listening = Listener::open(paths.socket);
  if (!listening) return refuse(listening.error());
  Listener listener = std::move(*listening);
  std::cerr << "yard daemon: pid " << ::getpid() << " serving " << paths.socket << " (" << machine->cpus
            << " cpus, " << machine->mem_bytes << " bytes, " << machine->gpus << " gpus; backends "
            << backends.names() << ")" << std::endl;
  start_report.ready();

  DaemonState daemon{*store, backends, paths};
  Connections connections;
  if (connections.poll_fd() < 0) return refuse(std::string("cannot watch client connections: ") + std::strerror(errno));
  Subscribers subscribers(*store, connections);
  if (auto s = subscribers.start(); !s) return refuse(s.error());
  bool first_pass = true;
  while (!daemon.stopping) {
    std::vector<pollfd> fds;
    if (!daemon.draining) fds.push_back({listener.fd(), POLLIN, 0});
    if (listener.watch_fd() >= 0) fds.push_back({listener.watch_fd(), POLLIN, 0});
    fds.push_back({sigfd, POLLIN, 0});
    fds.push_back({connections.poll_fd(), POLLIN, 0});
    // Each backend's descriptors, and which backend each belongs to.
    std::map<int, Backend*> owner;
    double wake_s = 3600;
    for (const auto& b : backends.all()) {
      for (int fd : b->watched_fds()) {
        fds.push_back({fd, POLLIN, 0});
        owner[fd] = b.get();
      }
      wake_s = std::min(wake_s, b->next_wakeup_s(clock.wall()));
    }
    // The first pass runs at once: jobs that recovery queued start without waiting for
    // some request to wake the loop.
    // A listener that could not listen again has no event to wait for: asked each second.
    if (!listener.healthy()) wake_s = std::min(wake_s, 1.0);
    // Watchers' batches of events go out at most kBatchDelayS after their first event.
    wake_s = std::min(wake_s, subscribers.next_flush_s());
    const int timeout_ms = first_pass ? 0 : wake_s >= 3600 ? -1 : static_cast<int>(wake_s * 1000) + 1;
    first_pass = false;
    if (::poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) break;
    for (const auto& b : backends.all()) b->coalesce(fds);
    if (!listener.healthy())
      if (auto what = listener.check_socket(); !what.empty() && listener.healthy())
        std::cerr << "yard daemon: " << what << std::endl;

    struct Reply {
      int fd;
      std::string line;
      bool changed;  // it reports what only the commit makes true
    };
    std::vector<Reply> replies;
    // Waits and watches start after the commit, from what it holds.
    std::vector<std::pair<int, WaitRequest>> waits;
    std::vector<std::pair<int, WatchRequest>> watches;
    std::map<Backend*, std::vector<int>> ready;
    auto tx = store->transaction();
    // A client sends its request as it connects: a connection accepted now is read in this
    // same pass (the connections' descriptor comes after the listener's).
    bool accepted = false;
    for (auto& p : fds) {
      if (p.fd == connections.poll_fd() && accepted) p.revents |= POLLIN;
      if (!p.revents) continue;
      if (p.fd == listener.fd()) {
        for (int c : listener.accept_owner_clients()) connections.add(c), accepted = true;
      } else if (p.fd == listener.watch_fd()) {
        if (auto what = listener.check_socket(); !what.empty()) std::cerr << "yard daemon: " << what << std::endl;
      } else if (p.fd == sigfd) {
        signalfd_siginfo si;
        while (::read(sigfd, &si, sizeof si) > 0) daemon.stopping = true;
      } else if (p.fd == connections.poll_fd()) {
        for (const auto& [fd, revents] : connections.ready_now()) {
          auto in = connections.ready(fd, revents);
          if (in.refusal) replies.push_back({fd, std::move(*in.refusal), false});
          if (!in.request) continue;
          Answer a = answer(daemon, *in.request, clock.wall());
          if (a.wait) waits.emplace_back(fd, std::move(*a.wait));
          else if (a.watch) watches.emplace_back(fd, std::move(*a.watch));
          else replies.push_back({fd, std::move(a.line), a.changed});
        }
      } else if (auto o = owner.find(p.fd); o != owner.end()) {
        ready[o->second].push_back(p.fd);
      }
    }
    for (auto& [b, ready_fds] : ready) b->ready(ready_fds);
    for (const auto& b : backends.all()) b->step(clock.wall(), !daemon.draining && !daemon.stopping);
    backends.complete_moves(*store, clock.wall());  // jobs their scheduler let go, where they move
    // The store is the commit point: nothing is answered or started before this commit,
    // and if it fails, nothing of this iteration is (see restart_from_store).
    auto committed = tx.commit();
    if (committed && !store->fault().empty()) committed = unavailable(store->fault());
    if (!committed) {
      std::cerr << "yard daemon: " << committed.error() << std::endl;
      const double deadline = monotonic_now() + Connections::kLastWordsS;
      for (auto& r : replies) {
        if (r.changed) r.line = encode_error(Error{committed.error() + "; nothing was changed", ErrorKind::Unavailable});
        connections.send_now_and_close(r.fd, r.line, deadline);
      }
      if (daemon.stopping) break;
      restart_from_store();
    }
    // Committed, but into the file at the store's path? (store_guard.h)
    if (const auto change = store_file.change(); change != StoreFile::Change::None) {
      const StoreRescue rescue = rescue_store(*store, store_file, change, paths);
      std::cerr << "yard daemon: " << rescue.told << std::endl;
      const double deadline = monotonic_now() + Connections::kLastWordsS;
      for (auto& r : replies) {
        if (!rescue.restored && r.changed)
          r.line = encode_error(Error{rescue.told + "; this request is not in " + paths.store, ErrorKind::Unavailable});
        connections.send_now_and_close(r.fd, r.line, deadline);
      }
      if (rescue.restored) restart_from_store();
      break;
    }
    for (auto& r : replies) connections.send(r.fd, r.line, true);
    // The log's new events, read once for every waiter and watcher; then the new ones.
    subscribers.after_commit();
    for (auto& [fd, w] : waits) subscribers.wait(fd, w);
    for (auto& [fd, w] : watches) subscribers.watch(fd, w);
    subscribers.catch_up();
    subscribers.flush_due();
    for (int fd : connections.take_closed()) subscribers.forget(fd);
    for (const auto& b : backends.all()) b->after_commit();
    // A start or requeue that could not be recorded after the commit: the same.
    if (!store->fault().empty()) {
      std::cerr << "yard daemon: " << store->fault() << std::endl;
      restart_from_store();
    }
    // After the replies went out (connections.send flushes them) and the jobs started.
    store->checkpoint_if_due();
    if (daemon.draining && backends.running() == 0) daemon.stopping = true;
  }
  subscribers.stop("the daemon stopped (pid " + std::to_string(::getpid()) + "); `yard server start` starts it again");
  for (const auto& b : backends.all()) b->stop();
  listener.close_and_unlink();
  std::cerr << "yard daemon: stopped; " << backends.running() << " running jobs go on without it" << std::endl;
  return 0;
}

}  // namespace yard
