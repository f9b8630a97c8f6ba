// OAR's script language: #OAR directives read as oarsub -S reads them
// (oar_directives.h) and written by one writer (oar_writer.cpp); the resource request
// that both it and the OAR backend's batch script write is here.
#pragma once

#include <string>
#include <string_view>

#include "core/job_spec.h"
#include "core/result.h"
#include "jobtext/script_language.h"

namespace yard {

inline constexpr std::string_view kOarTitle = "OAR";

// oar.yaml's own keys, read into OarSettings.
inline constexpr SettingDoc kOarSettings[] = {
    {"host_resource", "the resource level of a machine in the site's hierarchy (nodes also works)", "host"},
    {"gpu_resource", "the resource type counting GPUs (gpu on Grid'5000)", "none: GPUs refused"},
};

// What differs between OAR sites (oar.yaml).
struct OarSettings {
  // The resource level of a machine in the site's hierarchy (OAR's default `host`;
  // `nodes`, an alias of network_address, works everywhere).
  std::string host_resource = "host";
  // The resource type that counts GPUs (`gpu` on Grid'5000). Empty: the cluster has
  // none, and a job asking for GPUs is refused.
  std::string gpu_resource;
};

// The job's resource request: "/host=2/core=4" or "/host=1/gpu=2/core=1", and
// ",walltime=H:MM:SS" when it has a time limit.
Result<std::string> oar_resource_request(const JobSpec& spec, const OarSettings& settings);
// "--qos: backend oar cannot run this job: WHY", the backend's refusals.
std::string oar_cannot(std::string_view option, std::string_view why);

// A value for an #OAR line. oarsub's scan_script takes the rest of the line as the
// value and passes it on unquoted, so only characters that need no quoting are written;
// queue, project and resource names never need more. `what` names it in the error.
Status oar_directive_word(std::string_view value, std::string_view what);

// Registers "oar" (yard_language() in this folder's CMakeLists.txt).
void register_oar_language(ScriptLanguages& languages);

namespace jobtext {
// oar_writer.cpp: the job's #OAR lines.
Directives write_oar(const Job& job);
}  // namespace jobtext

}  // namespace yard
