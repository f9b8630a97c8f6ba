#include "backends/lsf/lsf_script.h"

#include "backends/batch_script.h"
#include "backends/lsf/lsf_language.h"
#include "backends/native_names.h"
#include "core/array_spec.h"
#include "core/shell_quote.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

// The variables LSF sets for a job, kept when the wrapper clears what it inherited.
constexpr const char* kLsfVariables = "LSB_* | LSF_* | LS_* | TMPDIR";

Status expressible(const JobSpec& spec, const LsfSettings& settings) {
  if (!spec.launcher.empty())
    return err(lsf_cannot("--launcher " + spec.launcher, "direct mode runs inside an allocation, and backend lsf has none"));
  if (!spec.components.empty()) return err(lsf_cannot("heterogeneous job components", "LSF has no heterogeneous jobs"));
  if (!spec.qos.empty()) return err(lsf_cannot("--qos", "LSF has no QOS"));
  if (spec.res.gpus > 0 && !settings.gpus)
    return err(lsf_cannot("--gpus", "this site's LSF schedules no GPUs (say so in lsf.yaml: gpus: true)"));
  if (spec.array && spec.array->indices.front() < 1)
    return err(lsf_cannot("--array", "LSF numbers an array's elements from 1"));
  return {};
}

// -w 'done(12) && ended(13[2])': LSF's own words for each kind, on native ids (an
// array's id means all its elements).
Result<std::string> conditions(const std::vector<SubmitContext::NativeDependency>& deps) {
  std::string out;
  for (const auto& d : deps) {
    const char* word = d.kind == DependencyKind::AfterOk      ? "done"
                       : d.kind == DependencyKind::AfterAny   ? "ended"
                       : d.kind == DependencyKind::AfterNotOk ? "exit"
                       : d.kind == DependencyKind::After      ? "started"
                                                              : nullptr;
    if (!word) return err(lsf_cannot("--dependency " + std::string(to_string(d.kind)), "LSF has no such dependency"));
    const std::string& id = d.native_id;
    const std::string digits = id.substr(0, id.find('['));
    const std::string rest = id.substr(digits.size());
    const bool element = rest.size() > 2 && rest.front() == '[' && rest.back() == ']' &&
                         rest.find_first_not_of("0123456789", 1) == rest.size() - 1;
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos ||
        (!rest.empty() && !element))
      return err("dependency on native job id " + excerpt(id) + ", which is not an LSF job id");
    out += std::string(out.empty() ? "" : " && ") + word + "(" + id + ")";
  }
  return out;
}

}  // namespace

std::string lsf_cannot(std::string_view option, std::string_view why) { return cannot_run("lsf", option, why); }

Result<LsfSettings> lsf_settings_from(const std::map<std::string, std::string>& values, const std::string& path) {
  LsfSettings settings;
  if (auto it = values.find("gpus"); it != values.end()) {
    if (it->second == "true") settings.gpus = true;
    else if (it->second == "false") settings.gpus = false;
    else return err(path + ": gpus: expected true or false, got " + excerpt(it->second));
  }
  return settings;
}

Result<std::string> lsf_batch_script(const JobSpec& spec, const SubmitContext& ctx, const LsfSettings& settings) {
  const BatchScriptKind kind{"lsf", kLsfTitle, "#BSUB", kLsfVariables, "LSB_JOBINDEX"};
  return indirect_batch_script(spec, ctx, kind, [&] { return expressible(spec, settings); },
                               [&](jobtext::Writer& w) -> Status {
                                 // The UID in the name; an array's indices and throttle after it, as -J takes them.
                                 std::string name = native_job_name(ctx.uid, spec.name);
                                 if (spec.array) {
                                   ArraySpec indices = *spec.array;
                                   indices.max_running = 0;
                                   name += "[" + array_text(indices) + "]";
                                   if (spec.array->max_running > 0) name += "%" + std::to_string(spec.array->max_running);
                                 }
                                 w.add("-J \"" + name + "\"");
                                 // The wrapper opens the job's files itself; without -o LSF would mail the output.
                                 w.add("-o /dev/null");
                                 jobtext::write_lsf_place(w);
                                 if (spec.requeue) w.add(*spec.requeue ? "-r" : "-rn");
                                 if (ctx.dependencies.empty()) return {};
                                 auto when = conditions(ctx.dependencies);
                                 if (!when) return err(when.error());
                                 w.add("-w '" + *when + "'");
                                 return {};
                               });
}

}  // namespace yard
