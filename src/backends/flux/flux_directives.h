// Reads a Flux batch script's submission directives as flux batch reads them (RFC 36;
// flux-core's flux.job.directives) and says them in yard's (sbatch's) words, so that a
// script written for `flux batch` runs unchanged on any backend.
//
// Which lines count: a line made of a prefix of characters that are neither letters,
// digits nor '_' (none, "#", "# ", "//" ...) and the tag "flux:" or "FLUX:" is a
// directive; the prefix and tag (the sentinel, "# flux:") must be the same on every
// directive of the script. Directives may come after commands, but they form one group:
// once a line that is not blank and does not start with the prefix (blanks at its end
// dropped) follows a directive, a later directive is an error. The rest of the line is
// split as a shell would (quotes, backslashes; an unquoted # begins a comment); its first
// word must be an option. Triple-quoted values across lines are not supported (an error).
// Options are flux batch's (and flux submit's names of the same things): --name=value or
// --name value, -Nvalue or -N value; long names are not abbreviated. A later value wins.
//
// Mapping, Flux -> sbatch (a writer of `# flux:` lines can read it right to left):
//   -N, --nodes=N                --nodes=N (without -n also --exclusive: Flux then gives
//                                the nodes whole)
//   -n, --nslots=N (--ntasks)    --ntasks=N
//   -c, --cores-per-slot=C (--cores-per-task)   --cpus-per-task=C
//   -g, --gpus-per-slot=G (--gpus-per-task)     --gpus=N*G;  --gpus-per-node=G: --gpus=NODES*G
//   --tasks-per-node=T           --ntasks-per-node=T
//   -t, --time-limit=FSD         --time=D-HH:MM:SS (FSD: 30s, 10m, 1.5h, 2d; no unit: minutes)
//   --job-name=NAME, -q/--queue=Q, -B/--bank=B, --cwd=DIR   --job-name, --partition, --account, --chdir
//   --output=T, --error=T        --output, --error: {{id}} {{jobid}} %j, {{name}} %x, {{cc}} %a,
//                                {{node.name}} %N, {{node.id}} %n, {{taskid}} {{task.id}} %t
//   --dependency=afterok:ID (afterany, afternotok; repeatable)   --dependency=afterok:ID,...
//   --cc=IDSET, --bcc=IDSET      --array=IDSET
//   --urgency=N (1-31)           --priority=N-16 (16 is Flux's default)
//   -x, --exclusive              --exclusive
//   --env=NAME[=VALUE]           --export=ALL,NAME[=VALUE]; after --env=-* (every variable
//                                removed): --export=NAME[=VALUE], or NONE. In VALUE, as flux
//                                batch: $$ is a '$', $VAR and ${VAR} the environment's VAR
// Warned about and ignored: -S/--setattr, -o/--setopt, --requires, --signal, --rlimit,
// --conf, --broker-opts, --dump, --flags, -u, -l, --env-remove, --env-file, env patterns,
// and a script body that runs `flux` commands or reads $FLUX_JOB_ID and the like.
// Refused, as they would change the result: --urgency=0 (hold), --begin-time, --input,
// --add-file, --wrap, --dry-run, dependencies yard cannot hold (afterstart, afterexcept,
// singleton, begin-time, Flux's own job ids), output templates yard cannot expand.
#pragma once

#include <optional>
#include <string_view>

#include "jobtext/script_language.h"  // TranslatedDirectives

namespace yard {

// A line's sentinel, RFC 36's ^([^\w]*)((?:flux|FLUX):)(.*)$ (a byte of a multi-byte
// character counts as a letter, so that only ASCII punctuation and blanks make a prefix).
struct FluxSentinel {
  std::string_view prefix, tag, rest;  // "# ", "flux:", " -N4"
};
std::optional<FluxSentinel> flux_sentinel(std::string_view line);

// True if the script has a line with a Flux directive sentinel ("# flux:", "#FLUX:") and
// an option after it (so that a comment or text that mentions "flux:" is not taken for one).
bool has_flux_directives(std::string_view script);

// `origin` names the script in messages.
Result<TranslatedDirectives> read_flux_directives(std::string_view script, std::string_view origin);

}  // namespace yard
