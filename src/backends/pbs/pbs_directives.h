// Reads a PBS batch script's `#PBS` directives as qsub reads them (OpenPBS/PBS Pro's
// get_script and Torque 6's qsub, which agree) and says them in yard's (sbatch's) words,
// so that a script written for PBS Pro or Torque runs unchanged on any backend.
//
// Which lines count: a line whose first non-blank characters are "#PBS"; its options are
// the rest of the line, split into words (' and " group, nothing escaped inside them; a
// backslash outside takes the next character; a word starting with # begins a comment),
// and a line ending in a backslash goes on with the next line. Reading stops at the first
// line that is neither blank nor a comment (a line starting with '#' or ':'): a `#PBS`
// line after the first command is a comment. Options are read as qsub's getopt reads
// them (-Nname or -N name, -Vh); a later value wins, and -l resources add up by name.
//
// Mapping, PBS -> sbatch (a writer of #PBS lines can read it right to left):
//   -N NAME                      --job-name=NAME
//   -q QUEUE[@server]            --partition=QUEUE
//   -A ACCOUNT, -P PROJECT       --account=... (-A when both are given)
//   -l walltime=[[H:]M:]S        --time=D-HH:MM:SS
//   -l select=N:ncpus=C:mpiprocs=M:mem=X:ngpus=G    (M is 1 unless given; N chunks of one shape)
//                                --ntasks=N*M --cpus-per-task=C/M --mem-per-cpu=X/C --gpus=N*G
//   -l place=scatter | pack | excl            --nodes=N | --nodes=1 | --exclusive
//   -l nodes=N:ppn=C[:gpus=G][+...] (Torque)  --nodes=N --ntasks=N*C --gpus=N*G
//   -l ncpus=C, procs=N          --cpus-per-task=C, --ntasks=N
//   -l mem=X (the job's), pmem=X (a process's)  --mem=X (divided by --nodes), --mem-per-cpu=X
//                                (one memory request: select's mem, else mem, else pmem)
//   -l ngpus=G, gpus=G           --gpus=G
//   -o PATH, -e PATH             --output, --error: $PBS_JOBID %j, $PBS_JOBNAME %x,
//                                $PBS_ARRAY_INDEX $PBS_ARRAYID ^array_index^ %a, $USER %u;
//                                a directory gets PBS Pro's JOBID.OU / JOBID.ER in it
//   -j oe | eo | n               one file (--output) | one file at -e's path | two files
//   -J X-Y[:Z][%MAX], -t LIST[%MAX] (Torque)  --array=...
//   -W depend=afterok:ID[:ID][,afterany:ID,afternotok:ID]   --dependency=... (ID or ID.server)
//   -W block=true                --wait
//   -V, -v VAR[=VALUE],...       --export=ALL,VAR[=VALUE],...; without -V (as qsub, the job
//                                gets no variable of the caller's but -v's): --export=VAR...,
//                                or --export=NONE
//   -m abe | n, -M USERS         --mail-type=FAIL,BEGIN,END | NONE, --mail-user=USERS
//   -r y | n                     --requeue | --no-requeue
//   -p PRIORITY                  --priority=PRIORITY
//   -d DIR, -w DIR (Torque)      --chdir=DIR
//   -n (Torque)                  --exclusive
// A script that reads $PBS_O_WORKDIR also gets PBS_O_WORKDIR=<the directory yard submits
// from, or -w's> in its --export, so that `cd $PBS_O_WORKDIR` goes where it would.
// Warned about and ignored: -S, -k, -R, -c, -f, -z, -T, -W group_list/umask/sandbox/...,
// resources yard does not know (arch, host, vmem, cput, ...), variables of PBS's that the
// script reads and yard does not set ($PBS_JOBID, $PBS_ARRAY_INDEX, $PBS_NODEFILE, ...).
// Refused, as they would change the result: -h, -a, -I, -X, -G, -C, -u (another user),
// -D, -F, -W stagein/stageout, dependencies yard cannot hold (after, before*, on, arrays).
#pragma once

#include <string>
#include <string_view>

#include "jobtext/script_language.h"  // TranslatedDirectives

namespace yard {

// True if the script has a `#PBS` line before its first command.
bool has_pbs_directives(std::string_view script);

// `origin` names the script in messages. `is_directory` says whether an -o/-e path names
// a directory.
Result<TranslatedDirectives> read_pbs_directives(std::string_view script, std::string_view origin,
                                                 bool (*is_directory)(const std::string&) = nullptr);

}  // namespace yard
