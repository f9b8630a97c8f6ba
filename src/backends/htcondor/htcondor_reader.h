// Reads an HTCondor submit description (condor_submit's `key = value` commands) and says
// it in yard's (sbatch's) words, as the readers of other schedulers' directives do
// (src/directives/), so that `yard translate --from htcondor job.sub` resolves it the same
// way. The job's script is the description's `executable`.
//
// Lines: `key = value` (keys in any case; a line ending in a backslash goes on), comments
// starting with '#', and one `queue` statement: `queue`, `queue N`, or `queue NAME in
// (I, J, ...)` with whole numbers (the array's indices; $(NAME) is the index).
// Macros are put in as condor_submit does: $(DOLLAR) is a '$' and $$(DOLLARDOLLAR) two,
// $ENV(NAME[:DEFAULT]) the submitting environment's NAME; in output paths $(Cluster),
// $(Process) and the index as below. Any other is kept as written, with a warning (an
// error in an output path): what HTCondor puts in for it is its own.
// Mapping, HTCondor -> sbatch (htcondor_writer.cpp writes it right to left):
//   batch_name = NAME            --job-name=NAME
//   request_cpus = N             --cpus-per-task=N (one task: a vanilla job runs on one machine)
//   request_memory = X           --mem=X (no unit: MiB; K, M, G, T)
//   request_gpus = N             --gpus=N
//   allowed_job_duration = S     --time=S seconds (HTCondor holds a job that runs longer)
//   output = F, error = F        --output, --error: $(Cluster) %j (an array's: %A),
//                                $(Process) and $(NAME) %a; an error file that is the
//                                output file: one file
//   accounting_group = G         --account=G
//   initialdir = DIR             --chdir=DIR
//   getenv = true | NAME, ...    --export=ALL | NAME,...: the submitter's variables the job gets
//   environment = "A=1 B=2"      ...,A=1,B=2 added; neither: --export=NONE (getenv is false by
//                                default: the job gets no variable of the submitter's)
//   priority = N                 --priority=N
//   notification = Never|Error|Complete|Always, notify_user = U   --mail-type=NONE|FAIL|END|ALL, --mail-user=U
//   queue N, queue NAME in (1, 3) --array=0-(N-1), --array=1,3;  max_materialize = M: %M
// Warned about and ignored: arguments, log, universe other than vanilla, requirements,
// rank, file transfer, request_disk, +Attributes and every other command.
#pragma once

#include <string>
#include <string_view>

#include "jobtext/script_language.h"  // TranslatedDirectives

namespace yard {

// True if `text` looks like a submit description: an `executable =` and a `queue` line.
bool is_submit_description(std::string_view text);

// The description's directives (kind "HTCondor") and executable; `origin` names the file
// in messages.
Result<JobDescription> read_submit_description(std::string_view text, std::string_view origin);

}  // namespace yard
