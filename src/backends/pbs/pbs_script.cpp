#include "backends/pbs/pbs_script.h"

#include <cstdlib>

#include "backends/batch_script.h"
#include "backends/native_names.h"
#include "backends/pbs/pbs_language.h"
#include "core/shell_quote.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

// The variables PBS sets for a job (pbs_environment, qsub.1B), kept when the wrapper
// clears what it inherited.
constexpr const char* kPbsVariables = "PBS_* | NCPUS | OMP_NUM_THREADS | TMPDIR | ENVIRONMENT";

// What PBS Pro has no way to express, each named with its option.
Status expressible(const JobSpec& spec, const PbsSettings& settings) {
  if (!spec.launcher.empty())
    return err(pbs_cannot("--launcher " + spec.launcher, "direct mode runs inside an allocation, and backend pbs has none"));
  if (!spec.components.empty()) return err(pbs_cannot("heterogeneous job components", "PBS Pro has no heterogeneous jobs"));
  if (!spec.qos.empty()) return err(pbs_cannot("--qos", "PBS Pro has no QOS"));
  if (spec.res.gpus > 0 && settings.gpu_resource.empty())
    return err(pbs_cannot("--gpus", "this site's PBS counts no GPUs (name its resource in pbs.yaml: gpu_resource: ngpus)"));
  return {};
}

std::string_view depend_word(DependencyKind kind) {
  switch (kind) {
    case DependencyKind::AfterOk: return "afterok";
    case DependencyKind::AfterNotOk: return "afternotok";
    case DependencyKind::AfterAny: return "afterany";
    case DependencyKind::After: return "after";
    default: return "";
  }
}

// -W depend=afterok:12:13[],afterany:14 on native ids ("12", an array "13" as "13[]").
Result<std::string> depend_text(const std::vector<SubmitContext::NativeDependency>& deps) {
  std::string out;
  for (std::size_t i = 0; i < deps.size(); ++i) {
    const std::string_view word = depend_word(deps[i].kind);
    if (word.empty()) return err(pbs_cannot("--dependency " + std::string(to_string(deps[i].kind)), "PBS Pro has no such dependency"));
    if (i > 0 && deps[i].kind == deps[i - 1].kind) {
      out += ":";
    } else {
      out += (out.empty() ? "" : ",") + std::string(word) + ":";
    }
    const std::string& id = deps[i].native_id;
    const std::string digits = id.substr(0, id.find('['));
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos)
      return err("dependency on native job id " + excerpt(id) + ", which is not a PBS job id");
    out += deps[i].whole_array ? digits + "[]" : id;
  }
  return out;
}

}  // namespace

std::string pbs_cannot(std::string_view option, std::string_view why) { return cannot_run("pbs", option, why); }

Result<PbsSettings> pbs_settings_from(const std::map<std::string, std::string>& values, const std::string& path) {
  PbsSettings settings;
  if (auto it = values.find("gpu_resource"); it != values.end()) {
    const std::string& name = it->second;
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      return err(path + ": gpu_resource: expected the name of a PBS resource (like ngpus), got " + excerpt(name));
    settings.gpu_resource = name;
  }
  return settings;
}

Result<std::string> pbs_batch_script(const JobSpec& spec, const SubmitContext& ctx, const PbsSettings& settings) {
  const BatchScriptKind kind{"pbs", kPbsTitle, "#PBS", kPbsVariables, "PBS_ARRAY_INDEX"};
  return indirect_batch_script(
      spec, ctx, kind, [&] { return expressible(spec, settings); },
      [&](jobtext::Writer& w) -> Status {
        w.add("-N " + native_job_name(ctx.uid, spec.name));
        // The wrapper opens the job's files itself (PBS copies its own spool of them to
        // -o's host:path at the end, and cannot append or pad an index).
        w.add("-o /dev/null");
        w.add("-j oe");
        jobtext::write_pbs_resources(w);
        if (spec.requeue) w.add(*spec.requeue ? "-r y" : "-r n");
        if (ctx.dependencies.empty()) return {};
        auto depend = depend_text(ctx.dependencies);
        if (!depend) return err(depend.error());
        w.add("-W depend=" + *depend);
        return {};
      },
      [&](std::string& text) {  // the site's name for a chunk's GPUs
        if (settings.gpu_resource.empty() || settings.gpu_resource == "ngpus") return;
        for (std::size_t at = text.find(":ngpus="); at != std::string::npos; at = text.find(":ngpus=", at + 1))
          text.replace(at + 1, 5, settings.gpu_resource);
      });
}

}  // namespace yard
