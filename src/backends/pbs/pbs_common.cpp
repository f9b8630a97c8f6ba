#include "backends/pbs/pbs_common.h"

#include "backends/pbs/pbs_paths.h"
namespace yard::jobtext {

std::string pbs_size(std::uint64_t bytes) { return size_in(bytes, {"kb", "mb", "gb", "tb"}); }

void write_pbs_place(Writer& w, void (*shape)(Writer&)) {
  const JobSpec& s = w.job.spec;
  shape(w);
  if (!s.partition.empty()) w.add("-q " + quoted(s.partition));
  if (!s.account.empty()) w.add("-A " + quoted(s.account));
  if (s.res.walltime_s > 0) w.add("-l walltime=" + hms(s.res.walltime_s));
}

void write_pbs_priority(Writer& w) {
  const int p = w.job.spec.priority;
  if (p >= -1024 && p <= 1023 && p != 0) w.add("-p " + std::to_string(p));
  else if (p != 0) w.lose("priority", "--priority " + std::to_string(p), "PBS priorities run from -1024 to 1023; left out");
}

void write_pbs_common(Writer& w, std::string_view array_index, std::vector<std::string_view> handled,
                      void (*shape)(Writer&)) {
  const Job& job = w.job;
  const JobSpec& s = job.spec;
  if (job.name_given) w.add("-N " + quoted(s.name));
  write_pbs_place(w, shape);
  const TokenMap tokens = [&](char c, std::string& note) -> std::optional<std::string> {
    if (c == 'A') note = "PBS has no variable for an array's id; written as ${PBS_JOBID}, an element's own";
    if (c == 'j' || c == 'A') return "${PBS_JOBID}";
    if (c == 'x') return "${PBS_JOBNAME}";
    if (c == 'a') return std::string(array_index);
    if (c == 'u') return "$USER";
    if (c == 'N') return "$HOSTNAME";
    return std::nullopt;
  };
  // qsub takes HOST: before a path's first '/' for the host PBS copies the file to.
  auto path = [&](std::string_view option, const std::string& p) {
    std::string t = target_path(w, option, p, tokens, "%", pbs_path_words());
    const auto colon = t.find(':');
    return colon != std::string::npos && t.find('/') > colon ? "./" + t : t;
  };
  if (!s.stdout_path.empty()) w.add("-o " + quoted(path("output", s.stdout_path)));
  if (!s.stderr_path.empty()) w.add("-e " + quoted(path("error", s.stderr_path)));
  if (s.stderr_path.empty()) w.add("-j oe");  // stderr with stdout, as yard's default
  all_for_any(w);
  if (!s.dependencies.empty()) w.add("-W depend=" + dependency_text(s.dependencies));
  bool wait = false;
  job.option("wait", &wait);
  if (wait) w.add("-W block=true");
  mail_and_rerun_letters(w);
  write_pbs_priority(w);
  // Without -V qsub gives the job -v's variables alone (and its own PBS_O_ ones), as --export
  // without ALL does; with neither, NONE.
  const Exports e = exports_of(job.exports);
  if (e.all) w.add("-V");
  std::string list;
  for (const auto& v : listable(w, e)) list += (list.empty() ? "" : ",") + v;
  if (!list.empty()) w.add("-v " + quoted(list));
  for (auto h : {"wait", "mail-type", "mail-user"}) handled.push_back(h);
  w.lose_unsaid({.requeue = true, .handled = handled});
}

}  // namespace yard::jobtext
