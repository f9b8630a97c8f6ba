// Reads an LSF batch script's `#BSUB` directives as bsub reads a script (bsub < job.sh,
// or bsub job.sh with LSB_BSUB_PARSE_SCRIPT=Y; openlava's parseScript and IBM's
// documentation agree) and says them in yard's (sbatch's) words, so that a script written
// for LSF runs unchanged on any backend.
//
// Which lines count: every line of the script, also after its first command, whose first
// non-blank character is '#', followed by "BSUB" (blanks allowed between), blanks and a
// '-'. Its words: ' and " group, a backslash outside quotes takes the next character, a
// word starting with # begins a comment; a line ending in a backslash goes on with the
// next one. Options are bsub's, each word one option and the next word its value (a
// one-letter option also takes a value glued to it: -n4). A later value wins; -R adds up.
//
// Mapping, LSF -> sbatch (a writer of #BSUB lines can read it right to left):
//   -J NAME                      --job-name=NAME
//   -J "NAME[1-10:2,15]%4"       --job-name=NAME --array=1-10:2,15%4
//   -n N (or "MIN,MAX": MIN)     --ntasks=N
//   -R "span[hosts=1]"           --nodes=1
//   -R "span[ptile=P]"           --ntasks-per-node=P
//   -R "rusage[mem=X]"           --mem=X (LSF reserves it on each host; X/task: --mem-per-cpu)
//   -M X[!]                      --mem=X (the larger of -M and rusage's)
//   -W [H:]M                     --time=D-HH:MM:SS
//   -q QUEUE, -P PROJECT         --partition=QUEUE, --account=PROJECT
//   -o F, -e F (they append)     --output=F, --error=F, --open-mode=append
//   -oo F, -eo F (overwrite)     --output=F, --error=F   (%J: %j, or %A in an array; %I: %a;
//                                a directory gets LSF's JOBID.out / JOBID.err in it)
//   -w 'done(1) && ended(2) && exit(3) && started(4)'  --dependency=afterok:1,afterany:2,afternotok:3,after:4
//   -w 'done(1) || ended(2)'       --dependency=afterok:1?afterany:2
//   -gpu "num=G[/task|/host]" (-gpu -: 1)  --gpus=G (times tasks for /task, hosts for /host)
//   -x                           --exclusive
//   -B, -N, -u USER              --mail-type=BEGIN,END, --mail-user=USER
//   -env "all, A=1" | "none" | "A=1, B"    --export=ALL,A=1 | NONE | A=1,B
//   -cwd DIR, -sp N, -nnodes N   --chdir=DIR, --priority=N, --nodes=N
//   -r, -rn, -K                  --requeue, --no-requeue, --wait
// Sizes without a unit are in LSF_UNIT_FOR_LIMITS from the submitting environment, else MB:
// LSF's built-in unit is KB, but the lsf.conf that LSF installs sets MB and sites keep it
// (dask-jobqueue and ERT assume MB for the same reason); a unit given (4G, 500MB) is used.
// A script that reads $LS_SUBCWD also gets --export=ALL,LS_SUBCWD=<the directory yard
// submits from>.
// Warned about and ignored: -R select[]/order[]/same[]/cu[]/affinity[], -gpu's modes and
// models, -We, -G, -g, -app, -m, -L, limits (-C -c -D -F -p -S -v -T), variables of LSF's
// that the script reads and yard does not set ($LSB_JOBID, $LSB_JOBINDEX, $LSB_HOSTS, ...).
// Refused, as they would change the result: -H, -b, -t, -I*, -i, -is, -E, -Ep, -f, -data,
// -pack, -clusters, dependencies yard cannot hold (on names, !, post_*, exit codes, && with ||).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jobtext/script_language.h"  // TranslatedDirectives

namespace yard {

// The patterns LSF puts values in for in -o/-e paths (%J, %I): a writer of #BSUB lines
// must not let a path's own text form them.
const std::vector<std::string_view>& lsf_path_words();

// True if the script has a `#BSUB` line.
bool has_lsf_directives(std::string_view script);

// `origin` names the script in messages. `is_directory` says whether an -o/-e path names
// a directory.
Result<TranslatedDirectives> read_lsf_directives(std::string_view script, std::string_view origin,
                                                 bool (*is_directory)(const std::string&) = nullptr);

}  // namespace yard
