// An HTCondor job as the backend submits it: the script, which is the shared bash wrapper
// alone (backends/job_wrapper.h: HTCondor reads no directives from it), and its submit
// description, written by HTCondor's one writer (htcondor_writer.cpp, as `yard translate
// --to htcondor` writes it) naming the script as its executable. Both are saved beside the
// job (UID.sh, UID.sub) and can be submitted again by hand (condor_submit UID.sub).
#pragma once

#include <string>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// The variables in which a job finds its cluster.proc and an array element its index
// (the description sets them: HTCondor itself sets neither).
inline constexpr const char* kHtcondorIdVariable = "YARD_HTCONDOR_ID";
inline constexpr const char* kHtcondorIndexVariable = "YARD_HTCONDOR_INDEX";

Result<std::string> htcondor_batch_script(const JobSpec& spec, const SubmitContext& ctx);
// The description of the job whose script is at `script_path`: batch_name carries the
// UID, the output goes to the wrapper (output and error /dev/null), dependencies are
// held by the engine (HTCondor has none outside DAGMan).
Result<std::string> htcondor_description(const JobSpec& spec, const SubmitContext& ctx, const std::string& script_path);

// "--qos: backend htcondor cannot run this job: ...".
std::string htcondor_cannot(std::string_view option, std::string_view why);

}  // namespace yard
