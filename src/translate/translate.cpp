#include "translate/translate.h"

#include <filesystem>

#include "translate/script_parts.h"
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
  if (kind == "pbs") return write_pbs(job);
  if (kind == "torque") return write_torque(job);
  if (kind == "lsf") return write_lsf(job);
  if (kind == "sge") return write_sge(job);
  if (kind == "oar") return write_oar(job);
  if (kind == "htcondor") return write_htcondor(job, executable);
  if (kind == "flux") return write_flux(job);
  return write_slurm(job);
}

Result<Translation> translate(const Request& request, const Loader& load, bool (*is_directory)(const std::string&)) {
  if (!is_kind(request.to)) return err("unknown scheduler '" + request.to + "'");
  auto read = read_job(request.text, request.origin, request.from, load, is_directory);
  if (!read) return Error{read.error()};
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
  const ScriptParts parts = split_script(t.job.spec.script, source == "htcondor" ? "" : source);
  Directives d = write_directives(request.to, t.job, executable_for(t.job.script_path, request.output));
  for (const auto& loss : d.losses) warn(loss.line, loss.what + ": " + loss.why);
  if (!t.job.submit_dir_variable.empty() && family != (t.job.submit_dir_variable[0] == 'P' ? "pbs" : "lsf"))
    warn(0, "$" + t.job.submit_dir_variable + ": the script reads it, and " + std::string(kind_title(request.to)) +
                " does not set it (the directory the job was submitted from)");
  if (family != source && request.to != "htcondor")
    for (int line : parts.body_directives)
      warn(line, "a directive after the script's first command: kept in the body as it is (translated above)");
  t.output = request.to == "htcondor" ? d.text : assemble(parts, d.text, request.to);
  return t;
}

}  // namespace yard::translate
