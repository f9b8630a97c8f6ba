// Grid Engine's script language: #$ directives read as qsub reads them
// (sge_directives.h) and written by one writer (sge_writer.cpp) that both
// `yard translate --to sge` and the Grid Engine backend's batch script use.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/array_spec.h"
#include "core/result.h"
#include "core/setting_doc.h"
#include "jobtext/script_language.h"

namespace yard {

inline constexpr std::string_view kSgeTitle = "Grid Engine";

// What differs between Grid Engine sites (sge.yaml).
struct SgeSettings {
  // The parallel environment for jobs of more than one slot on one node, and for jobs
  // over several nodes (its allocation rule spreads them). Empty: none; such jobs are
  // refused.
  std::string pe_single_node = "smp";
  std::string pe_multi_node = "mpi";
  // The consumable complex that counts GPUs (sites name it: gpu, gpus, cuda...). Empty:
  // the cluster has none; a job asking for GPUs is refused.
  std::string gpu_resource;
  // The qmaster's accounting flush interval and a margin (reporting_params
  // accounting_flush_time, 15 s unless the site set it): how long a record may lag
  // behind the job's end.
  double accounting_lag_s = 20;
};
// The site's words from sge.yaml's own keys (`values`, as read from `path`): its parallel
// environments, GPU complex and accounting lag; the file's other keys are the engine's.
inline constexpr SettingDoc kSgeSettings[] = {
    {"pe_single_node", "the parallel environment of one host, for one task of several CPUs (\"\" refuses such jobs)", "smp"},
    {"pe_multi_node", "the parallel environment that may spread slots over hosts, for several tasks or nodes", "mpi"},
    {"gpu_resource", "the consumable complex counting GPUs (-l NAME=G)", "none: GPUs refused"},
    {"accounting_lag", "seconds qacct may lag behind a job's end (the qmaster's flush interval and a margin)", "20"},
};
Result<SgeSettings> sge_settings_from(const std::map<std::string, std::string>& values, const std::string& path);
// The same from the file at `path` (yard translate); the defaults when there is none.
Result<SgeSettings> read_sge_settings(const std::string& path);

// "--gpus: backend sge cannot run this job: WHY", the backend's refusals.
std::string sge_cannot(std::string_view option, std::string_view why);

// An ArraySpec as qsub -t text ("1-9:2"): Grid Engine takes one range with a step, from 1.
Result<std::string> sge_task_range(const ArraySpec& array);

// Registers "sge" (yard_language() in this folder's CMakeLists.txt).
void register_sge_language(ScriptLanguages& languages);

namespace jobtext {
class Writer;
// sge_writer.cpp: the job's #$ lines for a site with `settings`.
Directives write_sge(const Job& job, const SgeSettings& settings = {});
// The lines of the job's shape and place (slots, memory, time, GPUs, queue, project,
// array, priority): what the backend's batch script writes through the same writer. A
// loss not `nearest` is what the backend refuses the job for.
void write_sge_resources(Writer& w, const SgeSettings& settings);
}  // namespace jobtext

}  // namespace yard
