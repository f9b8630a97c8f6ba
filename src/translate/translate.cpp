#include "translate/translate.h"

#include <filesystem>

#include "translate/script_parts.h"
#include "translate/writer.h"
#include "translate/writers.h"

namespace yard::translate {

namespace {

// The HTCondor executable as the description at `output` names it: relative to the
// description's directory (the script's path as it is when the description goes to stdout).
std::string executable_for(const std::string& script_path, const std::string& output) {
  if (output.empty()) return script_path;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path script = fs::absolute(script_path, ec).lexically_normal();
  const fs::path relative = script.lexically_relative(fs::absolute(output, ec).parent_path().lexically_normal());
  return relative.empty() ? script.string() : relative.string();
}

}  // namespace

Directives write_directives(std::string_view kind, const Job& job, const std::string& executable) {
  if (kind == "slurm") return write_slurm(job);
  std::vector<Loss> losses;
  const Job b = bounded(job, losses);
  Directives d = kind == "pbs"      ? write_pbs(b)
                 : kind == "torque" ? write_torque(b)
                 : kind == "lsf"    ? write_lsf(b)
                 : kind == "sge"    ? write_sge(b)
                 : kind == "oar"    ? write_oar(b)
                 : kind == "flux"   ? write_flux(b)
                                    : write_htcondor(b, executable);
  d.losses.insert(d.losses.begin(), losses.begin(), losses.end());
  return d;
}

Result<Translation> translate(const Request& request, const Loader& load, bool (*is_directory)(const std::string&)) {
  if (!is_kind(request.to)) return err("unknown scheduler '" + request.to + "'");
  auto read = read_job(request.text, request.origin, request.from, load, is_directory);
  if (!read) return read.failure();
  Translation t;
  t.from = read->kind;
  t.job = std::move(read->job);
  t.warnings = std::move(read->warnings);
  const std::string& origin = request.origin;
  auto warn = [&](int line, const std::string& text) {
    t.warnings.push_back(origin + (line > 0 ? ":" + std::to_string(line) : "") + ": " + text);
    ++t.losses;
  };
  const std::string family = request.to == "torque" ? "pbs" : request.to;
  const std::string source = t.from == "torque" ? "pbs" : t.from;
  // The reader's word on the body (it reads $PBS_JOBID, which yard does not set) is no
  // news for a script that stays with its scheduler.
  if (family == source)
    std::erase_if(t.warnings, [&](const std::string& w) { return w.starts_with(origin + ": "); });
  const ScriptParts parts = split_script(t.job.spec.script, source == "htcondor" ? "" : source);
  // The source's own reader read its lines in the body too, but for OAR's in a script that
  // does not start with a comment (oarsub then reads none; the translation starts with one).
  const bool read_by_source = family == source && (source != "oar" || t.job.spec.script.starts_with("#"));
  if (!read_by_source)
    if (auto lines = read_in_body(parts, t.job.spec.script, family); !lines.empty())
      return err(t.job.script_path + ":" + std::to_string(lines[0]) + ": " + std::string(kind_title(request.to)) +
                 " would read this line as a directive of its own, and the translation would not be the job (remove it" +
                 (family != source ? ", or translate with --from " + family + ")" : ")"));
  Directives d = write_directives(request.to, t.job, executable_for(t.job.script_path, request.output));
  for (const auto& loss : d.losses) warn(loss.line, loss.what + ": " + loss.why);
  const std::string& var = t.job.submit_dir_variable;
  if (!var.empty() && family != (var[0] == 'P' ? "pbs" : var[0] == 'L' ? "lsf" : "slurm"))
    warn(0, "$" + var + ": the script reads it, and " + std::string(kind_title(request.to)) +
                " does not set it (the directory the job was submitted from)");
  if (family != source && request.to != "htcondor")
    for (int line : parts.body_directives)
      warn(line, "a directive after the script's first command: kept in the body as it is (translated above)");
  t.output = request.to == "htcondor" ? d.text : assemble(parts, d.text, request.to);
  return t;
}

}  // namespace yard::translate
