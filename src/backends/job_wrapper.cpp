#include "backends/job_wrapper.h"

#include <set>

#include "backends/output_word.h"
#include "core/shell_quote.h"
#include "core/slurm_variables.h"

namespace yard {
namespace {

bool is_shell_name(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// Variables bash will not let a script assign (`export UID=...` fails), and `_`, which
// it overwrites after every command: the job could never see the value asked for.
bool is_bash_owned(std::string_view name) {
  static const std::set<std::string_view> kOwned{"BASHOPTS", "BASH_VERSINFO", "EUID", "PPID", "SHELLOPTS", "UID", "_"};
  return kOwned.count(name) != 0;
}

Status no_nul(std::string_view value, const std::string& what) {
  if (value.find('\0') != std::string_view::npos)
    return err(what + " " + excerpt(value) + " contains a NUL byte, which no process argument or environment can hold");
  return {};
}

// A here-document delimiter that is no line of `body`.
std::string heredoc_delimiter(std::string_view body, std::string_view uid) {
  std::string delim = "YARD_SCRIPT_END_" + std::string(uid);
  auto occurs = [&] {
    std::size_t start = 0;
    while (start <= body.size()) {
      auto nl = body.find('\n', start);
      auto line = body.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
      if (line == delim) return true;
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
    return false;
  };
  while (occurs()) delim += '_';
  return delim;
}

}  // namespace

// In every environment a shell hands on (`yard submit` copies it by default): `_`, which
// bash sets itself, and exported bash functions (BASH_FUNC_name%%). Neither can be
// written as `export` lines; bash in the job recreates the first, and the second is the
// submitting shell's business. The open mode is the spec's, told to the scheduler or
// applied by the wrapper, not the job's.
// A name that is not a shell identifier (env 'BAD-NAME=1' yard submit ...) cannot be
// exported by a script either: the local backend hands it on through execve, a batch
// script leaves it out, with a warning (unwrappable_variables), rather than refusing a
// job for one stray variable of the submitting shell.
bool skipped_by_wrapper(std::string_view name) {
  return name == "_" || name.substr(0, 10) == "BASH_FUNC_" || name == kOpenModeVariable || !is_shell_name(name);
}

namespace {

// An array element's yard id from its index in `index` (a shell word): elements are
// numbered on from the first in index order, so an evenly spaced array is arithmetic and
// any other a table.
std::string element_id(const ArraySpec& array, std::int64_t first_id, const std::string& index) {
  const auto& ix = array.indices;
  const std::int64_t step = ix.size() > 1 ? ix[1] - ix[0] : 1;
  bool even = step > 0;
  for (std::size_t k = 1; even && k < ix.size(); ++k) even = ix[k] - ix[k - 1] == step;
  if (even)
    return "yard_job_id=$(( " + std::to_string(first_id) + " + (" + index + " - " + std::to_string(ix.front()) + ") / " +
           std::to_string(step) + " ))\n";
  std::string out = "case " + index + " in\n";
  for (std::size_t k = 0; k < ix.size(); ++k)
    out += "  " + std::to_string(ix[k]) + ") yard_job_id=" + std::to_string(first_id + static_cast<std::int64_t>(k)) + " ;;\n";
  return out + "esac\n";
}

}  // namespace

std::string job_variables(const JobSpec& spec, const SubmitContext& ctx, std::string_view index_variable,
                          bool slurm_too) {
  if (ctx.job_id == 0) return "";
  const std::string index = "\"$" + std::string(index_variable) + "\"";
  std::string out;
  if (spec.array) out += element_id(*spec.array, ctx.job_id, index);
  else out += "yard_job_id=" + std::to_string(ctx.job_id) + "\n";
  const std::string ntasks = std::to_string(spec.res.ntasks), per_task = std::to_string(spec.res.cpus_per_task);
  out += "export YARD_JOB_ID=\"$yard_job_id\" YARD_JOB_UID=" + bash_quote(ctx.uid) + " YARD_JOB_NAME=" +
         bash_quote(spec.name) + " YARD_NTASKS=" + ntasks + " YARD_CPUS_PER_TASK=" + per_task +
         " YARD_SUBMIT_DIR=" + bash_quote(spec.workdir) + "\n";
  const std::string array_id = std::to_string(ctx.job_id);
  if (spec.array) out += "export YARD_ARRAY_JOB_ID=" + array_id + " YARD_ARRAY_TASK_ID=" + index + "\n";
  if (slurm_too && spec.env.count(kSlurmVariablesWanted)) {
    // The mark goes, as the local backend takes it out: with a SLURM_JOB_ID, yard's srun
    // would take the job for one that a real Slurm runs.
    out += "unset " + std::string(kSlurmVariablesWanted) + "\n";
    out += "yard_host=\"${HOSTNAME:-$(command -p uname -n)}\"\n";
    const SlurmValues v{"\"$yard_job_id\"", bash_quote(spec.name), ntasks, per_task,
                        std::to_string(spec.res.ntasks * spec.res.cpus_per_task), std::to_string(spec.res.nodes),
                        "\"$yard_host\"", bash_quote(spec.workdir), spec.partition.empty() ? "" : bash_quote(spec.partition)};
    for (const auto& [name, value] : slurm_variables(v)) out += "export " + name + "=" + value + "\n";
    if (spec.array) out += "export SLURM_ARRAY_JOB_ID=" + array_id + " SLURM_ARRAY_TASK_ID=" + index + "\n";
    out += "unset yard_host\n";
  }
  return out + "unset yard_job_id\n";
}

std::vector<std::string> unwrappable_variables(const JobSpec& spec) {
  std::vector<std::string> out;
  for (auto& [name, value] : spec.env)
    if (!is_shell_name(name) && name.substr(0, 10) != "BASH_FUNC_")
      out.push_back("environment variable " + excerpt(name) +
                    " is not a shell identifier (letters, digits and '_', not starting with a digit): "
                    "a batch script cannot export it, and the job runs without it");
  return out;
}

Status check_wrappable(const JobSpec& spec) {
  for (auto& a : spec.argv)
    if (auto s = no_nul(a, "argument"); !s) return s;
  if (auto s = no_nul(spec.script, "script"); !s) return s;
  // A body ending in CR would end in CR LF once its here-document line is closed.
  const auto crlf = !spec.script.empty() && spec.script.back() == '\r' ? spec.script.size() - 1
                                                                       : spec.script.find("\r\n");
  if (crlf != std::string::npos)
    return err("the script has DOS line breaks (\\r\\n) at byte " + std::to_string(crlf) +
               ", which batch schedulers refuse or misread: convert it with dos2unix");
  for (auto& [name, value] : spec.env) {
    if (skipped_by_wrapper(name)) continue;
    if (is_bash_owned(name))
      return err("environment variable " + name + " cannot be set: bash keeps it read-only or overwrites it");
    if (auto s = no_nul(value, "value of environment variable " + name); !s) return s;
  }
  return {};
}

WrapperStyle opening_output(const JobSpec& spec, const SubmitContext& ctx, std::string scheduler_variables,
                            std::string_view index_variable) {
  WrapperStyle style;
  style.scheduler_variables = std::move(scheduler_variables);
  const bool append = spec.open_mode() == OpenMode::Append;
  const std::string to = append ? ">>" : ">";
  style.first = "exec " + to + output_word(ctx.stdout_path, index_variable) + " 2>" +
                (ctx.stderr_path.empty() ? std::string("&1")
                                         : (append ? ">" : "") + output_word(ctx.stderr_path, index_variable)) +
                " || exit 1\n";
  if (spec.array) {
    const std::string index = "\"$" + std::string(index_variable) + "\"";
    style.after_clear = "export YARD_ARRAY_TASK_ID=" + index + " SLURM_ARRAY_TASK_ID=" + index + "\n";
  }
  style.job_variables = job_variables(spec, ctx, index_variable, true);
  return style;
}

std::string job_wrapper(const JobSpec& spec, std::string_view uid, const WrapperStyle& style) {
  std::string out = style.first;
  std::string args;
  for (std::size_t i = spec.script.empty() ? 1 : 0; i < spec.argv.size(); ++i) args += " " + bash_quote(spec.argv[i]);
  std::string var;
  if (!spec.script.empty()) {
    // The script body runs by its own #! line, from a private temporary file removed
    // when the wrapper ends. It is written before the job's environment is set, and
    // with `command -p`, so that no PATH or TMPDIR of the job can break the wrapper.
    // The here-document is quoted: nothing in it is expanded. The variable naming the
    // file is not exported and avoids the job's own variable names.
    var = "yard_script";
    while (spec.env.count(var)) var += '_';
    const std::string delim = heredoc_delimiter(spec.script, uid);
    out += var + "=$(command -p mktemp \"${TMPDIR:-/tmp}/yard-script.XXXXXX\") || exit 1\n";
    out += "trap 'command -p rm -f -- \"$" + var + "\"' EXIT\n";
    out += "command -p cat >\"$" + var + "\" <<'" + delim + "' || exit 1\n";
    out += spec.script;
    if (spec.script.back() != '\n') out += '\n';
    out += delim + "\n";
    out += "command -p chmod 700 -- \"$" + var + "\" || exit 1\n\n";
  }
  // Everything exported by the submitter goes, but for the scheduler's own variables.
  out += "for yard_var in $(compgen -e); do\n"
         "  case $yard_var in " + style.scheduler_variables + ") ;; *) unset \"$yard_var\" 2>/dev/null ;; esac\n"
         "done\n"
         "unset yard_var\n";
  out += style.after_clear;
  for (auto& [name, value] : spec.env)
    if (!skipped_by_wrapper(name)) out += "export " + name + "=" + bash_quote(value) + "\n";
  out += style.job_variables;
  // A scheduler may start a job whose directory is missing elsewhere (Slurm: in /tmp);
  // a job must not run elsewhere.
  out += "cd -- " + bash_quote(spec.workdir) + " || exit 1\n";
  if (spec.script.empty())
    out += "exec -- " + bash_quote(spec.argv[0]) + args + "\n";
  else
    out += "\"$" + var + "\"" + args + "\n";
  return out;
}

}  // namespace yard
