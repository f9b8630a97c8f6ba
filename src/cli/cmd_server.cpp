// yard server start | stop | status | run
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "client/daemon_client.h"
#include "client/daemon_program.h"
#include "core/clock.h"
#include "core/json_text.h"
#include "client/daemon_lock.h"

namespace yard {
namespace {

// True while `pid` runs; a zombie waiting for its reaper (the daemon is nobody's child)
// has stopped running.
bool running(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(f, stat);
  auto close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] != 'Z';
}

}  // namespace

void add_server_command(CLI::App& app, int& rc) {
  auto* server = app.add_subcommand("server", "Manage your daemon (socket and store paths: yard server status)");
  server->require_subcommand(1);

  server->add_subcommand("start", "Start the daemon in the background")->callback([&rc] {
    Paths p = default_paths();
    if (auto r = DaemonClient(p).ping(2000)) {
      std::cout << "already running, pid " << r->pid << "\n";
      return;
    }
    // A daemon still starting (or restarting from its store) is waited for; one that
    // cannot start says why.
    auto pid = start_daemon(p);
    if (!pid) {
      std::cerr << "yard server start: " << pid.error() << "\n";
      rc = 1;
      return;
    }
    std::cout << "started, pid " << *pid << "\n";
  });

  auto* stop = server->add_subcommand(
      "stop", "Stop the daemon; running jobs go on under the job host unless --kill-jobs");
  static bool kill_jobs = false;
  stop->add_flag("--kill-jobs", kill_jobs, "Cancel every running job first and wait for them");
  stop->callback([&rc] {
    Paths p = default_paths();
    auto ping = DaemonClient(p).ping(2000);
    pid_t pid = 0;
    if (ping) {
      pid = static_cast<pid_t>(ping->pid);
      auto r = DaemonClient(p).shutdown(ShutdownRequest{kill_jobs});
      if (!r) {
        std::cerr << "yard server stop: " << r.error() << "\n";
        rc = 1;
        return;
      }
    } else if (auto holder = daemon_lock_holder(p.lock)) {
      // Not answering on its socket, but alive: found through its lock, stopped by signal
      // (SIGTERM is its orderly stop; --kill-jobs needs its socket).
      pid = *holder;
      if (kill_jobs) std::cerr << "yard server stop: the daemon does not answer; stopping it without --kill-jobs\n";
      ::kill(pid, SIGTERM);
    } else {
      std::cout << "not running\n";
      return;
    }
    // Wait on the condition "the daemon's process is gone", with a deadline.
    const double deadline = monotonic_now() + 60;
    while (running(pid) && monotonic_now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (running(pid)) {
      std::cerr << "yard server stop: daemon " << pid << " still running after 60 s\n";
      rc = 1;
      return;
    }
    std::cout << "stopped\n";
  });

  auto* status = server->add_subcommand("status", "Is the daemon running? Its pid, socket and load");
  static bool json = false;
  status->add_flag("--json", json, "Print a JSON object (pid, socket, store, running, pending)");
  status->callback([&rc] {
    Paths p = default_paths();
    auto r = DaemonClient(p).ping(5000);
    if (!r) {
      rc = 1;
      if (auto holder = daemon_lock_holder(p.lock)) {
        if (json)
          std::cout << dump_json({{"running", true}, {"answering", false}, {"pid", *holder}, {"socket", p.socket}})
                    << "\n";
        else
          std::cout << "running, pid " << *holder << ", but not answering on " << p.socket << ": " << r.error() << "\n";
        return;
      }
      if (json) std::cout << dump_json({{"running", false}, {"socket", p.socket}}) << "\n";
      else std::cout << "not running (socket " << p.socket << ")\n";
      return;
    }
    if (json) {
      std::cout << dump_json(ping_json(*r)) << "\n";
    } else {
      std::cout << "running, pid " << r->pid << ", socket " << p.socket << ", store " << p.store << ", "
                << r->backends.value("running", 0) << " running, " << r->backends.value("pending", 0) << " pending jobs\n";
    }
  });

  server->add_subcommand("run", "Run the daemon (yardd) in the foreground (what `start` launches)")->callback([&rc] {
    const std::string program = daemon_program();
    ::execlp(program.c_str(), "yardd", static_cast<char*>(nullptr));
    std::cerr << "yard server run: cannot run " << program << ": " << std::strerror(errno) << "\n";
    rc = 1;
  });
}

}  // namespace yard
