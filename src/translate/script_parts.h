// A script as a translation keeps it: its #! line, the comments and blank lines of its
// header (up to its first command) that are not directives, and its body from the first
// command on, byte for byte. Directive lines of every kind yard reads (#SBATCH, #$, #OAR,
// #PBS, #BSUB, `# flux:`) are dropped from the header, with the lines a trailing
// backslash continues; the target's directives go where the first of them was.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace yard::translate {

struct ScriptParts {
  std::string shebang;       // "#!/bin/bash\n", or ""
  std::string before;        // header lines kept before the first directive
  std::string after;         // header lines kept after it
  std::string body;          // from the first command on, exactly
  // Lines of the body that are directives of the source's kind (Grid Engine, LSF and OAR
  // read them anywhere): left as they are.
  std::vector<int> body_directives;
};

// `kind`: the directives the script was read for (slurm, sge, oar, pbs, lsf, flux; "" for none).
ScriptParts split_script(std::string_view script, std::string_view kind);

// The script for `target`: the #! line, the kept header, `directives`, the body.
std::string assemble(const ScriptParts& parts, const std::string& directives, std::string_view target);

// Whether `line` is a directive of `kind` ("" for any kind).
bool is_directive_line(std::string_view line, std::string_view kind);

}  // namespace yard::translate
