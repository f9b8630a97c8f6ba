#include "backends/torque/torque_script.h"

#include "backends/batch_script.h"
#include "backends/native_names.h"
#include "backends/pbs/pbs_language.h"
#include "core/shell_quote.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

// The variables Torque sets for a job (qsub.1's environment), kept when the wrapper
// clears what it inherited.
constexpr const char* kTorqueVariables = "PBS_* | TMPDIR | ENVIRONMENT";

Status expressible(const JobSpec& spec, const TorqueSettings& settings) {
  if (!spec.launcher.empty())
    return err(torque_cannot("--launcher " + spec.launcher, "direct mode runs inside an allocation, and backend torque has none"));
  if (!spec.components.empty()) return err(torque_cannot("heterogeneous job components", "Torque has no heterogeneous jobs"));
  if (!spec.qos.empty()) return err(torque_cannot("--qos", "Torque has no QOS"));
  if (spec.res.gpus > 0 && !settings.gpus)
    return err(torque_cannot("--gpus", "this site's Torque counts no GPUs (say so in torque.yaml: gpus: true)"));
  if (spec.array && spec.array->indices.front() < 0)
    return err(torque_cannot("--array", "Torque's array indices start at 0"));
  return {};
}

// -W depend=afterok:12:13,afterokarray:14[] on native ids: an array's by its own kinds.
Result<std::string> depend_text(const std::vector<SubmitContext::NativeDependency>& deps) {
  std::string out, last_word;
  for (const auto& d : deps) {
    std::string word;
    switch (d.kind) {
      case DependencyKind::AfterOk: word = "afterok"; break;
      case DependencyKind::AfterNotOk: word = "afternotok"; break;
      case DependencyKind::AfterAny: word = "afterany"; break;
      case DependencyKind::After: word = d.whole_array ? "afterstart" : "after"; break;
      default: return err(torque_cannot("--dependency " + std::string(to_string(d.kind)), "Torque has no such dependency"));
    }
    if (d.whole_array) word += "array";
    const std::string digits = d.native_id.substr(0, d.native_id.find('['));
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos)
      return err("dependency on native job id " + excerpt(d.native_id) + ", which is not a Torque job id");
    if (!d.whole_array && digits != d.native_id)
      return err(torque_cannot("--dependency on array element " + d.native_id, "Torque waits for a job or a whole array"));
    const std::string id = d.whole_array ? digits + "[]" : digits;
    out += word == last_word ? ":" + id : (out.empty() ? "" : ",") + word + ":" + id;
    last_word = word;
  }
  return out;
}

}  // namespace

std::string torque_cannot(std::string_view option, std::string_view why) { return cannot_run("torque", option, why); }

Result<TorqueSettings> torque_settings_from(const std::map<std::string, std::string>& values, const std::string& path) {
  TorqueSettings settings;
  if (auto it = values.find("gpus"); it != values.end()) {
    if (it->second == "true") settings.gpus = true;
    else if (it->second == "false") settings.gpus = false;
    else return err(path + ": gpus: expected true or false, got " + excerpt(it->second));
  }
  return settings;
}

Result<std::string> torque_batch_script(const JobSpec& spec, const SubmitContext& ctx, const TorqueSettings& settings) {
  const BatchScriptKind kind{"torque", kTorqueTitle, "#PBS", kTorqueVariables, "PBS_ARRAYID"};
  return indirect_batch_script(spec, ctx, kind, [&] { return expressible(spec, settings); },
                               [&](jobtext::Writer& w) -> Status {
                                 w.add("-N " + native_job_name(ctx.uid, spec.name));
                                 // The wrapper opens the job's files itself (Torque copies its spool of
                                 // them to -o's host:path at the end, and cannot append or pad an index).
                                 w.add("-o /dev/null");
                                 w.add("-j oe");
                                 jobtext::write_torque_resources(w);
                                 if (spec.requeue) w.add(*spec.requeue ? "-r y" : "-r n");
                                 if (ctx.dependencies.empty()) return {};
                                 auto depend = depend_text(ctx.dependencies);
                                 if (!depend) return err(depend.error());
                                 w.add("-W depend=" + *depend);
                                 return {};
                               });
}

}  // namespace yard
