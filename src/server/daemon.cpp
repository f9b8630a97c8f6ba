#include "server/daemon.h"

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "backends/command_runner.h"
#include "backends/indirect_backend.h"
#include "backends/job_classes.h"
#include "backends/slurm/slurm_dialect.h"
#include "backends/slurm/slurm_pilot.h"
#include "local/local_backend.h"
#include "server/direct_mode.h"
#include "server/daemon_lock.h"
#include "server/listener.h"
#include "server/report_coalescing.h"
#include "server/pilot.h"
#include "server/start_report.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace yard {
namespace {

constexpr std::size_t kMaxRequest = 64u << 20;

struct Client {
  std::string in;
};

std::string user_name() {
  if (passwd* pw = ::getpwuid(::getuid())) return pw->pw_name;
  return std::to_string(::getuid());
}

nlohmann::json fail(const std::string& message, ErrorKind kind = ErrorKind::Invalid) {
  return {{"ok", false}, {"error", message}, {"kind", error_kind_name(kind)}};
}
nlohmann::json fail(const Error& e) { return fail(e.message, e.kind); }

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
    ::execl(exe, exe, "server", "run", static_cast<char*>(nullptr));
  }
  std::cerr << "yard daemon: cannot restart: " << std::strerror(errno) << std::endl;
  ::_exit(1);
}

// Component 0's figures (the allocation's, when it is not heterogeneous), and every
// component's when there are several.
nlohmann::json steps_status(const StepsBackends& steps) {
  if (steps.empty()) return nullptr;
  auto one = [](const LocalBackend& b) {
    return nlohmann::json{{"cpus", b.machine().cpus}, {"nodes", b.machine().nodes}, {"gpus", b.machine().gpus},
                          {"running", b.running()}, {"pending", b.pending()}};
  };
  auto j = one(*steps.front());
  if (steps.size() > 1) {
    j["components"] = nlohmann::json::array();
    for (auto& s : steps) j["components"].push_back(one(*s));
  }
  return j;
}

}  // namespace

int run_daemon(const Paths& paths) {
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
  if (auto s = ensure_dirs(paths); !s) return refuse(s.error());
  auto lock = take_daemon_lock(paths.lock);
  if (!lock) {
    std::cerr << "yard daemon: " << lock.error() << "\n";
    if (lock.kind() != ErrorKind::Conflict) return refuse(lock.error());
    start_report.busy();
    return 3;
  }
  // The process that starts and supervises the jobs (it outlives the daemon while they run).
  auto started_host = JobHostLink::start();
  if (!started_host) return refuse(started_host.error());
  JobHostLink host = std::move(*started_host);
  auto store = Store::open(paths.store);
  if (!store) return refuse(store.error());
  auto machine = load_machine(paths.config);
  if (!machine) return refuse(machine.error());
  LocalBackend backend(*store, *machine, paths.state_dir, user_name());
  auto policy = load_local_policy(paths.policy);
  if (!policy) return refuse(policy.error());
  backend.use_policy(std::move(*policy));
  backend.use_host(&host);
  if (auto s = backend.recover(); !s) return refuse("recovery failed: " + s.error());

  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  ::sigprocmask(SIG_BLOCK, &mask, nullptr);
  int sigfd = ::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

  // Slurm, through the indirect engine. Its commands run on the worker's thread, started
  // after the signal mask so that SIGTERM reaches the signalfd, not that thread.
  // sacct prints times in SLURM_TIME_FORMAT when set; the parsers read the standard form.
  ::unsetenv("SLURM_TIME_FORMAT");
  const std::string config_dir = std::filesystem::path(paths.config).parent_path().string();
  auto slurm_config = load_indirect_config(config_dir + "/slurm.yaml");
  if (!slurm_config) return refuse(slurm_config.error());
  SlurmDialect slurm_dialect;
  CommandWorker slurm_commands;
  IndirectBackend slurm(*store, slurm_dialect, slurm_commands, *slurm_config, paths.state_dir, user_name());
  if (auto s = slurm.recover(wall_now()); !s) return refuse("slurm recovery failed: " + s.error());
  std::string steps_problem;
  // allocation: pilot: the daemon obtains the allocation itself (a pilot batch job).
  std::unique_ptr<Pilot> pilot;
  if (slurm_config->allocation == "pilot")
    pilot = std::make_unique<Pilot>(slurm_config->pilot, slurm_pilot_name(user_name(), paths.state_dir),
                                    slurm_config->poll_interval_s, slurm_config->command_timeout_s);
  StepsBackends steps;
  if (pilot) steps.push_back(open_slurm_pilot_steps(*store, *slurm_config, *machine, paths.state_dir, user_name(), *pilot));
  else steps = open_slurm_steps(*store, *slurm_config, *machine, paths.state_dir, user_name(), steps_problem);
  if (!steps_problem.empty()) std::cerr << "yard daemon: slurm-steps: " << steps_problem << "\n";
  for (std::size_t k = 0; k < steps.size(); ++k) {
    steps[k]->use_host(&host);
    if (auto s = steps[k]->recover(); !s) return refuse("slurm-steps recovery failed: " + s.error());
    std::cerr << "yard daemon: slurm-steps: " << steps[k]->machine().cpus << " cpus on " << steps[k]->machine().nodes
              << " nodes of allocation "
              << (pilot ? "(pilot " + pilot->name() + ")"
                        : slurm_config->allocation.empty() ? "(this one)" : slurm_config->allocation)
              << (steps.size() > 1 ? ", component " + std::to_string(k) : std::string()) << std::endl;
  }
  auto submit_step = [&](JobSpec spec) -> Result<std::vector<std::int64_t>> {
    if (steps.empty())
      return err("backend slurm-steps runs jobs inside a Slurm allocation, and this daemon has none: set "
                 "`allocation: ID` in slurm.yaml, or start the daemon inside an allocation" +
                 (steps_problem.empty() ? std::string() : " (" + steps_problem + ")"));
    if (pilot && !pilot->problem().empty()) return err("backend slurm-steps has no allocation: " + pilot->problem());
    auto target = steps_backend_for(steps, spec);
    if (!target) return Error{target.error()};
    return (*target)->submit(std::move(spec));
  };
  // Every local-machinery backend: the machine's, and the allocation's in direct mode.
  std::vector<LocalBackend*> locals{&backend};
  for (auto& s : steps) locals.push_back(s.get());
  ::signal(SIGPIPE, SIG_IGN);
  // Recovery's writes failed (a full disk): serving now would answer from a memory the
  // store does not hold.
  if (!store->fault().empty()) return refuse(store->fault());

  auto listening = Listener::open(paths.socket);
  if (!listening) return refuse(listening.error());
  Listener listener = std::move(*listening);
  std::cerr << "yard daemon: pid " << ::getpid() << " serving " << paths.socket << " (" << machine->cpus
            << " cpus, " << machine->mem_bytes << " bytes, " << machine->gpus << " gpus)" << std::endl;
  start_report.ready();

  std::map<int, Client> clients;
  bool stopping = false, draining = false, first_pass = true;
  while (!stopping) {
    std::vector<pollfd> fds;
    if (!draining) fds.push_back({listener.fd(), POLLIN, 0});
    if (listener.watch_fd() >= 0) fds.push_back({listener.watch_fd(), POLLIN, 0});
    fds.push_back({sigfd, POLLIN, 0});
    for (auto& [fd, c] : clients) fds.push_back({fd, POLLIN, 0});
    fds.push_back({host.socket_fd(), POLLIN, 0});
    fds.push_back({host.pidfd(), POLLIN, 0});
    for (auto* b : locals)
      for (int fd : b->watched_fds()) fds.push_back({fd, POLLIN, 0});
    fds.push_back({slurm_commands.event_fd(), POLLIN, 0});
    if (pilot) fds.push_back({pilot->event_fd(), POLLIN, 0});
    double wake_s = slurm.next_wakeup_s(wall_now());
    if (pilot) wake_s = std::min(wake_s, pilot->next_wakeup_s(wall_now()));
    for (auto* b : locals) wake_s = std::min(wake_s, b->next_wakeup_s(wall_now()));
    // The first pass runs at once: jobs that recovery queued start without waiting for
    // some request to wake the loop.
    const int timeout_ms = first_pass ? 0 : wake_s >= 3600 ? -1 : static_cast<int>(wake_s * 1000) + 1;
    first_pass = false;
    if (::poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) break;
    coalesce_host_reports(fds, host.socket_fd(), locals);

    std::vector<std::pair<int, nlohmann::json>> replies;
    sql::Transaction tx(store->db());
    for (auto& p : fds) {
      if (!p.revents) continue;
      if (p.fd == listener.fd()) {
        for (int c : listener.accept_owner_clients()) clients[c];
      } else if (p.fd == listener.watch_fd()) {
        if (auto what = listener.check_socket(); !what.empty()) std::cerr << "yard daemon: " << what << std::endl;
      } else if (p.fd == sigfd) {
        signalfd_siginfo si;
        while (::read(sigfd, &si, sizeof si) > 0) stopping = true;
      } else if (auto it = clients.find(p.fd); it != clients.end()) {
        char buf[65536];
        ssize_t n = ::read(p.fd, buf, sizeof buf);
        if (n <= 0) {
          ::close(p.fd);
          clients.erase(it);
          continue;
        }
        it->second.in.append(buf, static_cast<std::size_t>(n));
        auto nl = it->second.in.find('\n');
        if (nl == std::string::npos) {
          if (it->second.in.size() > kMaxRequest) replies.push_back({p.fd, fail("request too large")});
          continue;
        }
        nlohmann::json req, reply;
        try {
          req = nlohmann::json::parse(it->second.in.substr(0, nl));
        } catch (const std::exception& e) {
          replies.push_back({p.fd, fail(std::string("malformed request: ") + e.what())});
          continue;
        }
        const std::string op = req.value("op", "");
        if (op == "submit") {
          // A submission carries the client's key: a client that lost its connection
          // sends it again, and gets the ids its first try stored (exactly once).
          const std::string key = req.value("key", "");
          auto earlier = key.empty() ? Result<std::optional<std::vector<std::int64_t>>>(std::nullopt)
                                     : store->submission(key);
          if (!earlier) {
            reply = fail(earlier.failure());
          } else if (*earlier) {
            reply = {{"ok", true}, {"ids", **earlier}};
          } else if (draining) {
            reply = fail("the daemon is shutting down", ErrorKind::Unavailable);
          } else {
            try {
              auto spec = req.at("spec").get<JobSpec>();
              // A class names the backend (and defaults): resolved before anything is stored.
              const std::string job_class = req.value("class", "");
              Status classed = job_class.empty() ? Status{} : apply_job_class(spec, job_class, slurm_config->classes);
              const bool to_steps = spec.backend == kSlurmStepsBackend;
              Result<std::vector<std::int64_t>> ids =
                  !classed ? Result<std::vector<std::int64_t>>(Error{classed.error()})
                  : spec.het_group >= 0 && !to_steps
                      ? Result<std::vector<std::int64_t>>(err(
                            "--het-group chooses the component of a Slurm allocation a slurm-steps job runs in; this "
                            "job goes to backend " + (spec.backend.empty() ? std::string("local") : spec.backend)))
                  : spec.backend == slurm.name() ? slurm.submit(std::move(spec), wall_now())
                  : spec.backend.empty() || spec.backend == "local" ? backend.submit(std::move(spec))
                  : to_steps ? submit_step(std::move(spec))
                             : Result<std::vector<std::int64_t>>(
                                   err("unknown backend '" + spec.backend + "' (known: local, slurm, slurm-steps)"));
              if (ids && !key.empty())
                if (auto s = store->record_submission(key, *ids, wall_now()); !s) ids = s.failure();
              reply = ids ? nlohmann::json{{"ok", true}, {"ids", *ids}} : fail(ids.failure());
            } catch (const std::exception& e) {
              reply = fail(std::string("malformed job spec: ") + e.what());
            }
          }
        } else if (op == "cancel") {
          try {
            auto ids = req.at("ids").get<std::vector<std::int64_t>>();
            auto acted = backend.cancel(ids);  // also checks that every id exists
            for (auto& s : steps)
              if (acted)
                if (auto more = s->cancel(ids)) acted->insert(acted->end(), more->begin(), more->end());
            auto acted_slurm = acted ? slurm.cancel(ids) : acted;
            if (acted && acted_slurm) acted->insert(acted->end(), acted_slurm->begin(), acted_slurm->end());
            reply = !acted ? fail(acted.error())
                    : !acted_slurm ? fail(acted_slurm.error())
                                   : nlohmann::json{{"ok", true}, {"ids", *acted}};
          } catch (const std::exception& e) {
            reply = fail(std::string("malformed cancel request: ") + e.what());
          }
        } else if (op == "ping") {
          reply = {{"ok", true}, {"pid", ::getpid()}, {"socket", paths.socket}, {"store", paths.store},
                   {"running", backend.running()}, {"pending", backend.pending()},
                   {"cpus", backend.machine().cpus}, {"mem_bytes", backend.machine().mem_bytes},
                   {"gpus", backend.machine().gpus}, {"slurm_active", slurm.active()},
                   {"slurm_steps", steps_status(steps)},
                   {"pilot", pilot ? nlohmann::json{{"name", pilot->name()},
                                                    {"job_id", pilot->job_id()},
                                                    {"state", pilot->state()},
                                                    {"problem", pilot->problem()}}
                                   : nlohmann::json(nullptr)},
                   {"slurm_calls",
                    {{"submit", slurm.stats().submit_calls}, {"poll", slurm.stats().poll_calls},
                     {"history", slurm.stats().history_calls}, {"find", slurm.stats().find_calls},
                     {"cancel", slurm.stats().cancel_calls}, {"failed", slurm.stats().failed_calls}}}};
        } else if (op == "shutdown") {
          if (req.value("kill_jobs", false)) {
            draining = true;
            for (auto* b : locals) b->cancel_all_running();
          } else {
            stopping = true;
          }
          reply = {{"ok", true}};
        } else {
          reply = fail("unknown request '" + op + "'");
        }
        replies.push_back({p.fd, reply});
      } else if (p.fd == slurm_commands.event_fd() || (pilot && p.fd == pilot->event_fd())) {
        // results are taken by slurm.step() and pilot->step() below
      } else if (p.fd == host.socket_fd() || p.fd == host.pidfd()) {
        for (const auto& report : host.take_reports())
          for (auto* b : locals)
            if (b->job_ended(report)) break;  // the backend that ran it records it
        if (p.fd == host.pidfd()) {
          // The host died (it never ends while the daemon lives): its jobs are settled from
          // their records, and a new host runs the next ones.
          std::cerr << "yard daemon: the job host (pid " << host.pid() << ") died; starting another" << std::endl;
          for (auto* b : locals) b->host_died();
          host.reap();
          auto again = JobHostLink::start();
          if (again) host = std::move(*again);
          else std::cerr << "yard daemon: " << again.error() << std::endl;
        }
      } else {
        for (auto* b : locals) b->fd_ready(p.fd);
      }
    }
    slurm.step(wall_now());
    for (auto* b : locals) b->tick(wall_now());
    if (pilot) pilot->step(wall_now());
    if (!draining && !stopping)
      for (auto* b : locals)
        if (b == &backend || !pilot || pilot->ready()) b->plan_starts();  // a pilot's steps wait for it
    // The store is the commit point: nothing is answered or started before this commit,
    // and if it fails, nothing of this iteration is (see restart_from_store).
    auto committed = tx.commit();
    if (committed && !store->fault().empty()) committed = unavailable(store->fault());
    if (!committed) {
      std::cerr << "yard daemon: " << committed.error() << std::endl;
      for (auto& [fd, reply] : replies) {
        if (reply.value("ok", false) && reply.contains("ids")) reply = fail(committed.error() + "; nothing was changed", ErrorKind::Unavailable);
        send_line(fd, reply);
        ::close(fd);
      }
      if (stopping) break;
      restart_from_store();
    }
    for (auto& [fd, reply] : replies) {
      send_line(fd, reply);
      ::close(fd);
      clients.erase(fd);
    }
    for (auto* b : locals) b->launch();
    // A start or requeue that could not be recorded after the commit: the same.
    if (!store->fault().empty()) {
      std::cerr << "yard daemon: " << store->fault() << std::endl;
      restart_from_store();
    }
    slurm.dispatch();
    std::size_t running = 0;
    for (auto* b : locals) running += b->running();
    if (draining && running == 0) stopping = true;
  }
  for (auto& [fd, c] : clients) ::close(fd);
  // The allocation this daemon obtained ends with it (after a crash it is found again).
  if (pilot) pilot->cancel(slurm_config->command_timeout_s);
  listener.close_and_unlink();
  std::cerr << "yard daemon: stopped; " << backend.running() << " running jobs stay with the job host"
            << std::endl;
  return 0;
}

}  // namespace yard
