// Writes a job as #BSUB lines (bsub reads a script's directives, lsf_directives.h):
//   name and array  -J NAME or -J "NAME[1-10:2,15]%MAX" (an array needs a name: the
//     script's file name when none was given; indices from 0 are moved up to start at 1)
//   the job's shape  -n SLOTS (LSF counts slots: T tasks of C CPUs are T*C, a loss when
//     C > 1), -R "span[hosts=1]" on one node, span[ptile=SLOTS/N] on N
//   memory  -R "rusage[mem=X]" (a host's: --mem) or rusage[mem=X/task] (--mem-per-cpu)
//   GPUs  -gpu "num=G" (a host's), or num=G/task     time limit  -W H:MM (minutes)
//   -q QUEUE  -P ACCOUNT  -cwd DIR   files  -oo/-eo, or -o/-e when they are appended to
//     (%j %A: %J, %a: %I)
//   dependencies  -w 'done(1) && ended(2) && exit(3)'   -x  -B/-N, -u  -r/-rn  -K  -sp
//   --export  -env "none" | "all, A=1" | "A=1, B" (LSF passes the whole environment: ALL
//     needs nothing)
// Lost: %x %u %N and padding in file names, QOS, job types, components, a negative
// priority, FAIL-only mail, sbatch's other options. A path whose own text holds %J or %I,
// and a value of --export holding a $, are written as they are, a loss: LSF puts values in.
#include "core/array_spec.h"  // array_text: LSF's index lists are sbatch's
#include "core/text.h"
#include "backends/lsf/lsf_directives.h"  // lsf_path_words
#include "backends/lsf/lsf_language.h"
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

void shape(Writer& w, std::string& requirements) {
  const Resources& r = w.res();
  const std::int64_t slots = r.total_cpus(), nodes = r.nodes;
  // One task of C CPUs is -n C on one host, said so; several such tasks lose their shape.
  if (r.cpus_per_task > 1) {
    std::string what = "--cpus-per-task " + std::to_string(r.cpus_per_task);
    std::string why = "LSF counts slots (-n): " + tasks_of_cpus(r) + ", written as -n " + std::to_string(slots);
    if (r.ntasks == 1) w.approximate("cpus-per-task", std::move(what), std::move(why));
    else w.lose("cpus-per-task", std::move(what), std::move(why));
  }
  if (slots > 1) w.add("-n " + std::to_string(slots));
  if (nodes == 1 && slots > 1) requirements += " span[hosts=1]";
  if (nodes > 1 && slots % nodes == 0) requirements += " span[ptile=" + std::to_string(slots / nodes) + "]";
  if (nodes > 1 && slots % nodes != 0)
    w.lose("nodes", "--nodes " + std::to_string(nodes), std::to_string(slots) + " slots do not divide among the nodes "
           "(span[ptile]); the hosts LSF's choice");
  const std::vector<std::string_view> units = {"KB", "MB", "GB", "TB"};
  if (r.mem_bytes) requirements = " rusage[mem=" + size_in(r.mem_bytes, units) + "]" + requirements;
  if (r.mem_per_cpu_bytes) requirements = " rusage[mem=" + size_in(r.mem_per_cpu_bytes, units) + "/task]" + requirements;
  if (r.gpus > 0) {
    const std::int64_t hosts = nodes > 1 && slots % nodes == 0 ? nodes : 1;
    if (r.gpus % hosts == 0) {
      w.add("-gpu \"num=" + std::to_string(r.gpus / hosts) + "\"");
    } else {
      if (r.gpus % slots != 0)
        w.lose("gpus", "--gpus " + std::to_string(r.gpus), "does not divide among hosts or slots; each slot asks for the next whole number");
      w.add("-gpu \"num=" + std::to_string((r.gpus + slots - 1) / slots) + "/task\"");
    }
  }
  if (r.walltime_s > 0) {
    const std::int64_t minutes = (r.walltime_s + 59) / 60;
    if (r.walltime_s % 60 != 0)
      w.approximate("time", "--time " + std::to_string(r.walltime_s) + "s", "LSF's -W counts minutes; rounded up");
    w.add("-W " + std::to_string(minutes / 60) + ":" + (minutes % 60 < 10 ? "0" : "") + std::to_string(minutes % 60));
  }
}

void files(Writer& w) {
  const JobSpec& s = w.job.spec;
  const bool array = s.array.has_value();
  const TokenMap tokens = [&](char c, std::string& note) -> std::optional<std::string> {
    if (c == 'j' && array) note = "an element's own id: LSF's %J is the array's; written as %J";
    if (c == 'j' || c == 'A') return "%J";
    if (c == 'a') return "%I";
    return std::nullopt;
  };
  const bool append = s.open_mode() == OpenMode::Append;
  auto path = [&](std::string_view option, const std::string& p) {
    return quoted(target_path(w, option, p, tokens, "%", lsf_path_words()));
  };
  if (!s.stdout_path.empty()) w.add((append ? "-o " : "-oo ") + path("output", s.stdout_path));
  if (!s.stderr_path.empty()) w.add((append ? "-e " : "-eo ") + path("error", s.stderr_path));
}

std::string conditions(const std::vector<Dependency>& deps, bool any) {
  std::string out;
  for (const auto& d : deps)
    out += std::string(out.empty() ? "" : any ? " || " : " && ") +
           (d.kind == DependencyKind::AfterOk    ? "done("
            : d.kind == DependencyKind::AfterAny ? "ended("
            : d.kind == DependencyKind::After    ? "started("
                                                 : "exit(") +
           std::to_string(d.job_id) + ")";
  return out;
}

}  // namespace

void write_lsf_place(Writer& w) {
  const JobSpec& s = w.job.spec;
  std::string requirements;
  shape(w, requirements);
  if (!requirements.empty()) w.add("-R \"" + requirements.substr(1) + "\"");
  if (!s.partition.empty()) w.add("-q " + quoted(s.partition));
  if (!s.account.empty()) w.add("-P " + quoted(s.account));
}

Directives write_lsf(const Job& job) {
  Writer w(job, kLsfTitle, "#BSUB", true);
  const JobSpec& s = job.spec;
  // -J NAME[INDICES]: a '[' in the name would begin the indices.
  std::string name = s.name;
  if (name.find_first_of("[]") != std::string::npos) {
    if (job.name_given) w.lose("job-name", "--job-name " + name, "LSF's -J takes brackets for an array's indices; written without them");
    std::erase_if(name, [](char c) { return c == '[' || c == ']'; });
  }
  if (s.array) {
    ArraySpec indices = *s.array;
    indices.max_running = 0;
    if (const std::int64_t shift = 1 - indices.indices.front(); shift > 0) {  // LSF numbers elements from 1
      for (auto& i : indices.indices) i += shift;
      w.lose("array", "--array " + idset(s.array->indices), "LSF numbers an array's elements from 1; each index is " +
             std::to_string(shift) + " more");
    }
    w.add("-J " + quoted(name + "[" + array_text(indices) + "]" +
                         (s.array->max_running > 0 ? "%" + std::to_string(s.array->max_running) : "")));
  } else if (job.name_given && !name.empty()) {
    w.add("-J " + quoted(name));
  }
  write_lsf_place(w);
  if (!job.chdir.empty()) w.add("-cwd " + quoted(job.chdir));
  files(w);
  if (!s.dependencies.empty()) w.add("-w '" + conditions(s.dependencies, s.dependency_any) + "'");
  bool given = false;
  job.option("exclusive", &given);
  if (given) w.add("-x");
  const std::string types = job.option("mail-type", &given);
  for (std::string_view t : split(types, ',')) {
    const std::string type = to_lower(t);
    if (type == "begin" || type == "all") w.add("-B");
    if (type == "end" || type == "all") w.add("-N");
    if (type == "fail") w.lose("mail-type", "--mail-type FAIL", "LSF mails at the end whatever the outcome (-N); left out");
  }
  const std::string user = job.option("mail-user", &given);
  if (given) w.add("-u " + quoted(user));
  job.option("wait", &given);
  if (given) w.add("-K");
  if (s.requeue) w.add(*s.requeue ? "-r" : "-rn");
  if (s.priority > 0) w.add("-sp " + std::to_string(s.priority));
  if (s.priority < 0) w.lose("priority", "--priority " + std::to_string(s.priority), "LSF's priorities are positive; left out");
  const Exports e = exports_of(job.exports);
  std::string env = e.none ? "none" : e.all ? "all" : "";
  for (const auto& v : listable(w, e)) {
    if (const auto eq = v.find('='); eq != std::string::npos && v.find('$', eq) != std::string::npos)
      w.lose("export", "--export " + v, "LSF puts a variable's value in for $NAME in -env's values and has no way to "
             "keep a $ as written; written as it is");
    env += (env.empty() ? "" : ", ") + v;
  }
  if (env != "all") w.add("-env " + quoted(env));
  w.lose_unsaid({.append = true, .requeue = true, .handled = {"exclusive", "mail-type", "mail-user", "wait"}});
  return std::move(w).done();
}

}  // namespace yard::jobtext
