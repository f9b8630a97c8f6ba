// Tracking N Slurm jobs: how many Slurm commands one status cycle takes and how long
// parsing and applying the cycle's output takes, with the real Slurm dialect and the real
// engine over a real store; the commands' output is synthesized in squeue's exact format
// (tests/fixtures/slurm/README.md), so no cluster is needed.
//   poll_bench N   ->   "jobs commands_per_cycle parse_apply_ms commands_per_minute"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "backends/indirect_backend.h"
#include "backends/slurm/slurm_dialect.h"

using namespace yard;

namespace {

class Answering : public CommandQueue {
 public:
  void post(Command c) override { posted.push_back(std::move(c)); }
  std::vector<CompletedCommand> take_completed() override { return std::exchange(done, {}); }
  std::deque<Command> posted;
  std::vector<CompletedCommand> done;
};

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  auto dir = std::filesystem::temp_directory_path() / ("yard-poll-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto store = Store::open((dir / "store.db").string());
  if (!store) return 1;
  SlurmDialect dialect;
  Answering q;
  IndirectConfig cfg;  // defaults: what a user gets
  IndirectBackend b(*store, dialect, q, cfg, dir.string(), "bench");
  double t = 1000;
  JobSpec s;
  s.name = "bench";
  s.argv = {"/bin/true"};
  s.workdir = dir.string();
  {
    auto tx = store->transaction();
    for (int i = 0; i < n; ++i) (void)b.submit(s, t);
    (void)tx.commit();
  }
  // Submit everything: answer each sbatch with a native id.
  int next_native = 100000;
  std::string squeue;
  for (;;) {
    b.step(t);
    b.dispatch();
    if (q.posted.empty()) break;
    bool any_submit = false;
    while (!q.posted.empty()) {
      Command c = q.posted.front();
      q.posted.pop_front();
      CommandResult r;
      r.exit_code = 0;
      if (c.argv[0] == "sbatch") {
        any_submit = true;
        r.out = std::to_string(next_native) + "\n";
        squeue += std::to_string(next_native) + "|RUNNING|None|yard-x-bench\n";
        ++next_native;
      }
      q.done.push_back({c, r});
    }
    if (!any_submit) break;
  }
  // Steady state: every cycle, one squeue listing all N jobs RUNNING.
  const int cycles = 20;
  int commands = 0;
  double apply_s = 0;
  for (int i = 0; i < cycles; ++i) {
    t += cfg.poll_interval_s;
    b.step(t);
    b.dispatch();
    while (!q.posted.empty()) {
      Command c = q.posted.front();
      q.posted.pop_front();
      ++commands;
      CommandResult r;
      r.exit_code = 0;
      r.out = squeue;
      q.done.push_back({c, r});
    }
    double t0 = now_s();
    b.step(t);  // parses and applies the cycle's output
    apply_s += now_s() - t0;
    b.dispatch();
    commands += static_cast<int>(q.posted.size());
    q.posted.clear();
  }
  const double per_cycle = static_cast<double>(commands) / cycles;
  std::printf("%d %.2f %.3f %.1f\n", n, per_cycle, 1000 * apply_s / cycles, per_cycle * 60 / cfg.poll_interval_s);
  std::filesystem::remove_all(dir);
  return 0;
}
