#include "server/step_series.h"

#include <algorithm>
#include <unordered_map>

#include "core/output_pattern.h"
#include "core/shell_quote.h"
#include "core/shell_words.h"
#include "server/step_packing.h"

namespace yard {
namespace {

// Runs one step: its status file created with O_EXCL (set -C) first, so that a step the
// daemon cancelled before its turn (it made the file, "skip") is not run, and a step
// that began is not taken for cancelled; then its command, with its log, and its end.
// A failing step does not stop the series: the steps of one foreach do not need each
// other. EPOCHREALTIME (bash 5) saves a date process per line.
constexpr const char* kStepFunction =
    "step() {\n"
    "  local f=$1 log=$2\n"
    "  shift 2\n"
    "  set -C\n"
    "  if ! { echo \"start ${EPOCHREALTIME:-$(date +%s)}\" > \"$f\"; } 2>/dev/null; then set +C; return 0; fi\n"
    "  set +C\n"
    "  \"$@\" > \"$log\" 2>&1\n"
    "  echo \"end $? ${EPOCHREALTIME:-$(date +%s)}\" >> \"$f\"\n"
    "}\n";

}  // namespace

std::vector<SeriesRun> find_series(const SubmitManyRequest& r, const std::vector<bool>& candidates) {
  std::unordered_map<std::string, std::size_t> by_signature;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    const auto& job = r.jobs[i];
    if (!candidates[i] || job.group < 2 || !may_pack(job)) continue;
    auto [it, fresh] = by_signature.try_emplace(pack_signature(job) + '\0' + std::to_string(job.group), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<SeriesRun> runs;
  for (const auto& g : groups) {
    if (g.size() < 2) continue;
    const auto n = static_cast<std::size_t>(r.jobs[g.front()].group);
    SeriesRun run;
    for (std::size_t at = 0; at < g.size(); at += n) {
      run.emplace_back(g.begin() + static_cast<std::ptrdiff_t>(at),
                       g.begin() + static_cast<std::ptrdiff_t>(std::min(g.size(), at + n)));
      if (run.size() == kMaxPack) runs.push_back(std::exchange(run, {}));
    }
    if (!run.empty()) runs.push_back(std::move(run));
  }
  return runs;
}

std::string series_status_dir(const std::string& log_dir) { return log_dir + "/.series"; }

JobSpec carrier_spec(const SubmitManyRequest& r, const SeriesRun& run, const std::vector<std::vector<std::int64_t>>& ids,
                     const std::string& status_dir) {
  const SubmitManyRequest::Job& first = r.jobs[run.front().front()];
  JobSpec s = first.spec;
  s.name = first.pack + ".series";
  s.argv.clear();
  std::size_t longest = 0;
  for (const auto& series : run) longest = std::max(longest, series.size());
  if (s.res.walltime_s > 0) s.res.walltime_s *= static_cast<std::int64_t>(longest);
  const bool array = run.size() > 1;
  std::string script = "#!/bin/bash\n# yard: steps of " + bash_quote(first.pack) + " run one after another (group: " +
                       std::to_string(first.group) + "), each with its own log and status file\n";
  script += kStepFunction;
  script += "s=" + bash_quote(status_dir) + "\n";
  if (array) script += "case \"$SLURM_ARRAY_TASK_ID\" in\n";
  for (std::size_t e = 0; e < run.size(); ++e) {
    if (array) script += std::to_string(e + 1) + ")\n";
    for (std::size_t k = 0; k < run[e].size(); ++k) {
      const JobSpec& step = r.jobs[run[e][k]].spec;
      script += "  step \"$s/" + std::to_string(ids[e][k]) + "\" " + bash_quote(step.stdout_path);
      for (const auto& word : without_needless_shell(step.argv)) script += " " + bash_quote(word);
      script += "\n";
    }
    if (array) script += "  ;;\n";
  }
  if (array) {
    script += "*) echo \"no series for element $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n";
    s.array = ArraySpec{};
    for (std::size_t e = 0; e < run.size(); ++e) s.array->indices.push_back(static_cast<std::int64_t>(e + 1));
  }
  // The carrier ends well: its steps' failures are theirs, each in its own record.
  script += "exit 0\n";
  s.script = std::move(script);
  s.stdout_path = status_dir + "/" + name_in_pattern(first.pack) + "-%j.out";
  return s;
}

}  // namespace yard
