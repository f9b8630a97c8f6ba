#include "backends/flux/flux_script.h"

#include "backends/batch_script.h"
#include "backends/flux/flux_directives.h"
#include "backends/flux/flux_ids.h"
#include "backends/flux/flux_language.h"
#include "backends/job_wrapper.h"
#include "backends/native_names.h"
#include "core/batch_directives.h"
#include "core/shell_quote.h"
#include "core/text.h"
#include "core/uid.h"
#include "jobtext/script_job.h"

namespace yard {
namespace {

// What Flux sets for a job (its id, its copy's index, its instance), kept when the
// wrapper clears what the job inherited.
constexpr const char* kFluxVariables = "FLUX_* | TMPDIR";

bool several_tasks(const JobSpec& spec) { return spec.res.ntasks > 1 || spec.res.nodes > 1; }

Status checked(const JobSpec& spec, const SubmitContext& ctx) {
  if (auto s = spec.validate(); !s) return err(s.error());
  if (!spec.launcher.empty())
    return err(flux_cannot("--launcher " + spec.launcher, "direct mode runs inside an allocation, and backend flux has none"));
  if (!spec.components.empty()) return err(flux_cannot("heterogeneous job components", "Flux has no heterogeneous jobs"));
  if (!spec.qos.empty()) return err(flux_cannot("--qos", "Flux has no QOS"));
  if (spec.array && several_tasks(spec))
    return err(flux_cannot("--array", "an array of jobs of several tasks or nodes: flux batch makes no copies (--cc)"));
  if (!is_uid(ctx.uid)) return err("batch script for Switchyard UID " + excerpt(ctx.uid) + ", which is not a UID");
  return check_wrappable(spec);
}

// Flux's word for a dependency of this kind (flux-core's job-dependencies(1)).
const char* dependency_word(DependencyKind kind) {
  switch (kind) {
    case DependencyKind::AfterOk: return "afterok";
    case DependencyKind::AfterAny: return "afterany";
    case DependencyKind::AfterNotOk: return "afternotok";
    case DependencyKind::After: return "afterstart";
    default: return nullptr;
  }
}

}  // namespace

std::string flux_cannot(std::string_view option, std::string_view why) { return cannot_run("flux", option, why); }

namespace {

// The submit command's options, an option (and its value) at a time.
Result<std::vector<std::vector<std::string>>> options(const JobSpec& spec, const SubmitContext& ctx) {
  jobtext::Job job;
  job.spec = spec;
  job.spec.name = native_job_name(ctx.uid, spec.name);
  job.name_given = true;
  // The wrapper opens the job's files and sets its environment (Flux hands on the
  // daemon's whole environment, which the wrapper clears).
  job.spec.stdout_path = job.spec.stderr_path = "/dev/null";
  job.spec.dependencies.clear();
  job.options = spec.slurm_options;
  jobtext::Directives d = jobtext::write_flux(job);
  for (const auto& loss : d.losses)
    if (!loss.nearest) return err(flux_cannot(loss.what, loss.why));
  std::vector<std::vector<std::string>> out;
  for (std::string_view line : split(d.text, '\n')) {
    auto sentinel = flux_sentinel(line);
    if (!sentinel) continue;
    auto words = split_directive_words(sentinel->rest);
    if (!words) return err("the Flux writer's line " + excerpt(std::string(line)) + ": " + words.error());
    out.push_back(std::move(*words));
  }
  for (const auto& dep : ctx.dependencies) {
    const char* word = dependency_word(dep.kind);
    if (!word) return err(flux_cannot("--dependency " + std::string(to_string(dep.kind)), "Flux has no such dependency"));
    auto id = flux_ascii_id(dep.native_id);
    if (!id) return err("dependency on native job id " + excerpt(dep.native_id) + ", which is not a Flux job id");
    out.push_back({"--dependency=" + std::string(word) + ":" + *id});
  }
  return out;
}

const char* command(const JobSpec& spec) { return several_tasks(spec) ? "batch" : "submit"; }

// A word as a comment shows it: bare when plain, else quoted for bash, its line breaks
// written \n so that the comment stays one line.
std::string shown(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_=:,./%+-@") ==
                           std::string::npos)
    return word;
  std::string out;
  for (char c : bash_quote(word)) out += c == '\n' ? std::string("\\n") : std::string(1, c);
  return out;
}

}  // namespace

// The options are written in the script too, in comments (no `flux:` sentinel, which
// flux batch would read), so that the saved script says how it was submitted.
Result<std::string> flux_batch_script(const JobSpec& spec, const SubmitContext& ctx) {
  if (auto s = checked(spec, ctx); !s) return err(s.error());
  auto lines = options(spec, ctx);
  if (!lines) return lines.failure();
  std::string out = "#!/bin/bash\n# Switchyard job " + ctx.uid + ", submitted as `flux " + command(spec) +
                    " OPTIONS THIS_SCRIPT`, OPTIONS being:\n";
  for (const auto& words : *lines) {
    std::string line = "#  ";
    for (const auto& w : words) line += " " + shown(w);
    out += line + "\n";
  }
  return out + "\n" + job_wrapper(spec, ctx.uid, opening_output(spec, ctx, kFluxVariables, "FLUX_JOB_CC"));
}

Result<std::vector<std::string>> flux_submit_argv(const JobSpec& spec, const SubmitContext& ctx,
                                                  const std::string& script_path) {
  if (auto s = checked(spec, ctx); !s) return err(s.error());
  auto lines = options(spec, ctx);
  if (!lines) return lines.failure();
  std::vector<std::string> argv{"flux", command(spec)};
  for (const auto& words : *lines) argv.insert(argv.end(), words.begin(), words.end());
  argv.push_back(script_path);
  return argv;
}

}  // namespace yard
