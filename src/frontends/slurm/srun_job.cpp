#include "frontends/slurm/srun_job.h"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "backends/all_languages.h"
#include "core/slurm_variables.h"
#include "jobtext/submit_options.h"

namespace yard::slurm_front {
namespace {

// What the job wrote to `stream` since `offset`, shown on `out`; the new offset.
std::int64_t show(DaemonClient& c, std::int64_t id, bool stderr_stream, std::int64_t offset, std::ostream& out) {
  for (;;) {
    auto got = c.logs(LogsRequest{id, stderr_stream, offset, kMaxLogChunk});
    if (!got || got->data.empty()) return offset;
    out << got->data << std::flush;
    offset += static_cast<std::int64_t>(got->data.size());
  }
}

}  // namespace

int run_as_job(const Args& options, const Args& command) {
  bool json = false, help = false;
  Args words{"--directives", "slurm"};
  for (const auto& o : options)
    if (o != "-u" && o != "--unbuffered" && o != "-l" && o != "--label") words.push_back(o);
  auto flags = parse_submit_args(words, all_script_languages(), json, help);
  if (!flags) return fail("srun", flags.error());
  // The job's output goes where only srun reads it, and is shown as it comes.
  const std::string base = "/tmp/srun-" + std::to_string(::getuid()) + "-%j";
  flags->output = base + ".out";
  flags->error = base + ".err";
  auto spec = make_spec(*flags, command);
  if (!spec) return fail("srun", spec.error());
  spec->env[kSlurmVariablesWanted] = "1";
  auto c = client("srun");
  auto reply = c.submit(SubmitRequest{std::move(*spec), flags->job_class, "", false});
  if (!reply) return fail("srun", "Unable to allocate resources: " + reply.error());
  const auto id = reply->ids.front();
  std::int64_t out_at = 0, err_at = 0;
  for (;;) {
    auto ended = c.wait(WaitRequest{{id}}, 0.2);
    out_at = show(c, id, false, out_at, std::cout);
    err_at = show(c, id, true, err_at, std::cerr);
    if (!ended) return fail("srun", ended.error());
    if (!*ended) continue;
    const auto& j = (*ended)->jobs.front();
    for (const auto& path : {j.stdout_path, j.stderr_path}) if (!path.empty()) ::unlink(path.c_str());
    if (j.state == JobState::Completed) return 0;
    std::cerr << "srun: error: task 0: " << (j.signal.value_or(0) ? "Killed" : "Exited with exit code " +
                                             std::to_string(j.exit_code.value_or(1))) << "\n";
    return j.signal.value_or(0) ? 128 + static_cast<int>(*j.signal) : static_cast<int>(j.exit_code.value_or(1));
  }
}

}  // namespace yard::slurm_front
