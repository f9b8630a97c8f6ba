// srun inside a job: a step of the job, run on this node as its tasks (-n N copies, each
// with SLURM_PROCID, SLURM_LOCALID, SLURM_NODEID and SLURM_STEP_* set), their output to
// --output/--error files (srun's %j %J %s %t %N %u %x %% patterns) or to srun's own,
// waited for; srun's exit status is the highest of its tasks' (128+N for a task killed by
// signal N). In a job a real Slurm runs (the Slurm backend), Slurm's own srun runs the
// step on the allocation's nodes. Outside a job, srun_job.cpp: the command as a job of its own, its output shown
// as it comes.
#include <fcntl.h>
#include <getopt.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "core/slurm_variables.h"
#include "frontends/slurm/front.h"
#include "frontends/slurm/getopt_words.h"
#include "frontends/slurm/srun_job.h"

namespace yard::slurm_front {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string expand(const std::string& pattern, int task) {
  std::string out;
  const std::string job = env_or("SLURM_JOB_ID", "0"), step = env_or("SLURM_STEP_ID", "0");
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    const char c = pattern[++i];
    switch (c) {
      case 'j': out += job; break;
      case 'J': out += job + "." + step; break;
      case 's': out += step; break;
      case 't': out += std::to_string(task); break;
      case 'N': out += host_name(); break;
      case 'n': out += "0"; break;
      case 'u': out += user_name(); break;
      case 'x': out += env_or("SLURM_JOB_NAME", ""); break;
      case '%': out += '%'; break;
      default: out += '%'; out += c;
    }
  }
  return out;
}

bool redirect(const std::string& path, int fd, bool append) {
  const int f = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
  if (f < 0) return false;
  const bool ok = ::dup2(f, fd) >= 0;
  ::close(f);
  return ok;
}

// The first `srun` on PATH that is not this program (a real Slurm's), or "".
std::string real_srun() {
  std::error_code ec;
  const auto self = std::filesystem::canonical("/proc/self/exe", ec);
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "";
  std::size_t at = 0;
  while (at <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string candidate = dirs.substr(at, end - at) + "/srun";
    at = end + 1;
    if (::access(candidate.c_str(), X_OK) == 0 && std::filesystem::canonical(candidate, ec) != self) return candidate;
  }
  return "";
}

}  // namespace

int srun_main(const Args& args) {
  // In a job that a real Slurm runs, a step is Slurm's own, on all of the allocation's
  // nodes: its srun runs it. Such a job was submitted through these commands (marked:
  // core/slurm_variables.h), runs on a cluster backend (the local backend takes the mark
  // out) and has a SLURM_JOB_ID (Slurm's: no other cluster backend sets one).
  if (std::getenv(kSlurmVariablesWanted) && std::getenv("SLURM_JOB_ID")) {
    const std::string real = real_srun();
    if (real.empty()) return fail("srun", "in a Slurm job, and no Slurm srun on PATH after yard's");
    std::vector<char*> argv{const_cast<char*>(real.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(real.c_str(), argv.data());
    return fail("srun", "cannot run " + real);
  }
  int ntasks = 1;
  std::string output, error, chdir;
  bool append = false;
  auto command = getopt_words(
      "srun", args, "c:D:e:i:J:KlmN:n:o:t:uvW:",
      {{"cpus-per-task", required_argument, 'c'}, {"chdir", required_argument, 'D'}, {"error", required_argument, 'e'},
       {"input", required_argument, 'i'}, {"job-name", required_argument, 'J'}, {"kill-on-bad-exit", optional_argument, 'K'},
       {"label", no_argument, 'l'}, {"nodes", required_argument, 'N'}, {"ntasks", required_argument, 'n'},
       {"output", required_argument, 'o'}, {"time", required_argument, 't'}, {"unbuffered", no_argument, 'u'},
       {"verbose", no_argument, 'v'}, {"wait", required_argument, 'W'}, {"mpi", required_argument, 256},
       {"export", required_argument, 257}, {"cpu-bind", required_argument, 258}, {"exclusive", optional_argument, 259},
       {"overlap", no_argument, 260}, {"mem", required_argument, 261}, {"open-mode", required_argument, 262},
       {"ntasks-per-node", required_argument, 263}, {"gres", required_argument, 264}, {"gpus", required_argument, 265},
       {"distribution", required_argument, 'm'}},
      [&](int c, const std::string& v) {
        switch (c) {
          case 'n': ntasks = std::max(1, std::atoi(v.c_str())); break;
          case 'o': output = v; break;
          case 'e': error = v; break;
          case 'D': chdir = v; break;
          case 262: append = v == "append"; break;
          default: break;  // placement, binding, buffering: one node here, nothing to change
        }
        return true;
      },
      true);
  if (!command) return 1;
  if (command->empty()) return fail("srun", "no command to run");
  if (!std::getenv("SLURM_JOB_ID")) {
    const Args options(args.begin(), args.end() - static_cast<std::ptrdiff_t>(command->size()));
    return run_as_job(options, *command);
  }
  std::vector<pid_t> tasks;
  for (int t = 0; t < ntasks; ++t) {
    const pid_t pid = ::fork();
    if (pid < 0) return fail("srun", "cannot start task " + std::to_string(t));
    if (pid == 0) {
      const std::string id = std::to_string(t), n = std::to_string(ntasks);
      for (const char* name : {"SLURM_PROCID", "SLURM_LOCALID"}) ::setenv(name, id.c_str(), 1);
      ::setenv("SLURM_NODEID", "0", 1);
      for (const char* name : {"SLURM_NTASKS", "SLURM_NPROCS", "SLURM_STEP_NUM_TASKS"}) ::setenv(name, n.c_str(), 1);
      ::setenv("SLURM_STEP_ID", env_or("SLURM_STEP_ID", "0").c_str(), 1);
      ::setenv("SLURM_STEP_NODELIST", host_name().c_str(), 1);
      if (!chdir.empty() && ::chdir(chdir.c_str()) != 0) _exit(fail("srun", "cannot enter " + chdir));
      if (!output.empty() && !redirect(expand(output, t), 1, append)) _exit(fail("srun", "cannot open " + output));
      if (!error.empty() ? !redirect(expand(error, t), 2, append) : !output.empty() && ::dup2(1, 2) < 0)
        _exit(fail("srun", "cannot open " + error));
      std::vector<char*> argv;
      for (auto& w : *command) argv.push_back(const_cast<char*>(w.c_str()));
      argv.push_back(nullptr);
      ::execvp(argv[0], argv.data());
      std::cerr << "slurmstepd: error: execve(): " << (*command)[0] << ": No such file or directory\n";
      _exit(2);
    }
    tasks.push_back(pid);
  }
  int worst = 0;
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    int status = 0;
    while (::waitpid(tasks[t], &status, 0) < 0 && errno == EINTR) {
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (code != 0)
      std::cerr << "srun: error: " << host_name() << ": task " << t << ": "
                << (WIFEXITED(status) ? "Exited with exit code " + std::to_string(code) : "Killed") << "\n";
    worst = std::max(worst, code);
  }
  return worst;
}

}  // namespace yard::slurm_front
