// Writes a job as `# flux:` directives (flux batch, RFC 36; flux_directives.h), one
// option a line, values quoted as a shell would:
//   --job-name=NAME   -N NODES -n TASKS -c CORES (-n always with -N: without it Flux gives
//     the nodes whole)   GPUs  -g G (a task's: flux batch's --gpus-per-slot)
//   -t FSD (30s, 10m, 2h, 1d)   -q QUEUE  -B BANK (the account)  --cwd=DIR
//   files  --output --error ({{id}} %j, {{name}} %x, {{cc}} %a, {{node.name}} %N,
//     {{node.id}} %n, {{taskid}} %t)
//   array  --cc=IDSET (copies of the job, {{cc}} their index)   dependencies
//   --dependency=afterok:ID, one each   -x   --urgency=16+PRIORITY (Flux's 1 to 31)
//   --export  --env=NAME=VALUE each (Flux passes the whole environment: ALL needs nothing;
//     without ALL, --env=-* first removes every variable)
// Lost: memory (Flux has no memory request), %A and %u in file names, an array's throttle,
// mail, requeueing, the append mode, QOS, job types, components, sbatch's other options.
#include "backends/flux/flux_language.h"
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

std::string duration(std::int64_t s) {
  if (s % 86400 == 0) return std::to_string(s / 86400) + "d";
  if (s % 3600 == 0) return std::to_string(s / 3600) + "h";
  if (s % 60 == 0) return std::to_string(s / 60) + "m";
  return std::to_string(s) + "s";
}

void shape(Writer& w) {
  const Resources& r = w.res();
  if (r.nodes > 1) w.add("-N " + std::to_string(r.nodes));
  if (r.ntasks > 1 || r.nodes > 1) w.add("-n " + std::to_string(r.ntasks));
  if (r.cpus_per_task > 1) w.add("-c " + std::to_string(r.cpus_per_task));
  if (r.gpus > 0) {
    // flux batch counts GPUs per slot (-g, --gpus-per-slot) and has no --gpus-per-node
    // (flux submit's, which needs --nodes): a count the tasks do not divide is rounded up.
    if (r.gpus % r.ntasks == 0) {
      w.add("-g " + std::to_string(r.gpus / r.ntasks));
    } else {
      w.lose("gpus", "--gpus " + std::to_string(r.gpus),
             "does not divide among the tasks (flux batch counts GPUs per slot); each task asks for the next whole number");
      w.add("-g " + std::to_string((r.gpus + r.ntasks - 1) / r.ntasks));
    }
  }
  if (r.mem_bytes || r.mem_per_cpu_bytes) w.lack(r.mem_bytes ? "mem" : "mem-per-cpu", memory_option(r), "memory request");
  if (r.walltime_s > 0) w.add("-t " + duration(r.walltime_s));
}

}  // namespace

Directives write_flux(const Job& job) {
  Writer w(job, kFluxTitle, "# flux:", false);
  const JobSpec& s = job.spec;
  if (job.name_given) w.add("--job-name=" + quoted(s.name));
  shape(w);
  if (!s.partition.empty()) w.add("-q " + quoted(s.partition));
  if (!s.account.empty()) w.add("-B " + quoted(s.account));
  if (!job.chdir.empty()) w.add("--cwd=" + quoted(job.chdir));
  const TokenMap tokens = [](char c, std::string& note) -> std::optional<std::string> {
    if (c == 'A') note = "Flux's copies of a job (--cc) have no id in common; written as {{id}}, each one's";
    if (c == 'A') return "{{id}}";
    static const std::pair<char, const char*> kTags[] = {{'j', "{{id}}"},        {'x', "{{name}}"},    {'a', "{{cc}}"},
                                                         {'N', "{{node.name}}"}, {'n', "{{node.id}}"}, {'t', "{{taskid}}"}};
    for (auto [letter, tag] : kTags)
      if (letter == c) return tag;
    return std::nullopt;
  };
  for (auto [option, path] : {std::pair{"output", &s.stdout_path}, std::pair{"error", &s.stderr_path}}) {
    if (path->empty()) continue;
    if (path->find_first_of("{}") != std::string::npos)  // braces begin Flux's templates
      w.lose(option, "--" + std::string(option) + " " + *path, "braces begin a template in Flux's file names; left out");
    else
      w.add("--" + std::string(option) + "=" + quoted(target_path(w, option, *path, tokens)));
  }
  if (s.array) {
    w.add("--cc=" + idset(s.array->indices));
    if (s.array->max_running > 0)
      w.lack("array", "--array %" + std::to_string(s.array->max_running), "limit on the copies running at once");
  }
  all_for_any(w);
  for (const auto& d : s.dependencies) w.add("--dependency=" + std::string(to_string(d.kind)) + ":" + std::to_string(d.job_id));
  bool exclusive = false;
  job.option("exclusive", &exclusive);
  if (exclusive) w.add("-x");
  if (s.priority >= -15 && s.priority <= 15 && s.priority != 0) w.add("--urgency=" + std::to_string(16 + s.priority));
  else if (s.priority != 0) w.lose("priority", "--priority " + std::to_string(s.priority), "Flux's urgency runs from 1 to 31 (16 + a priority of -15 to 15); left out");
  // Flux passes the whole environment unless told to remove every variable first.
  const Exports e = exports_of(job.exports);
  if (!e.all) w.add("--env=-*");
  for (const auto& v : e.variables) {
    const auto eq = v.find('=');
    const std::string name = v.substr(0, eq);
    if (name.empty() || name.find_first_of("-^*?[/") != std::string::npos) {  // a removal, a file of rules, a pattern
      w.lose("export", "--export " + v, "Flux reads --env=" + name + " as a rule, not a variable's name; left out");
    } else if (eq != std::string::npos && v.find("{{", eq) != std::string::npos) {
      w.lose("export", "--export " + v, "Flux fills {{...}} in a value when the job starts; left out");
    } else {
      // flux batch puts the environment's values in for $NAME in a value; $$ is a '$'.
      std::string rule = name;
      if (eq != std::string::npos) rule += "=";
      for (char c : std::string_view(v).substr(eq == std::string::npos ? v.size() : eq + 1))
        rule += c == '$' ? "$$" : std::string(1, c);
      w.add("--env=" + quoted(rule));
    }
  }
  w.lose_unsaid({.handled = {"exclusive"}});
  return std::move(w).done();
}

}  // namespace yard::jobtext
