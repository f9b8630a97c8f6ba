// A step's `foreach:`, the values it makes one step of each, and the `{variables}` of a
// step's strings.
//
//   foreach: [a, b, c]              a list (of strings or numbers)
//   foreach: {range: 1-100:3}       a range, in sbatch's array syntax (without %)
//   foreach: {glob: data/*.csv}     the files that match, sorted (relative to the file's
//                                   directory)
//   foreach: {outputs: prepare}     the outputs: of the step prepare (which it then needs)
//   as: case                        the value's variable ({item} when not given)
//
// In a step's command, flags, files, needs and output patterns, `{var}` is a variable:
// {name} the step's own name, {index} the value's place (from 0), the foreach variable,
// and each of the flow's `params:`. `{{` and `}}` are braces; `${...}` is the shell's and
// left alone; an unknown `{word}` is an error (a misspelt variable would otherwise run).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "flow/yaml_tree.h"

namespace yard {

struct Foreach {
  std::string var = "item";
  std::vector<std::string> values;
  std::string outputs_of;  // the step whose outputs are the values ("": none)
};

// The step's foreach (none without the key). `outputs`: the outputs of each step read
// so far, by the name the file gives it; `base_dir`: where a glob starts.
Result<std::optional<Foreach>> read_foreach(const std::string& path, const YamlNode& step, const std::string& base_dir,
                                            const std::map<std::string, std::vector<std::string>>& outputs);

using Variables = std::map<std::string, std::string, std::less<>>;

// `text` with its variables replaced.
Result<std::string> expand_variables(const std::string& text, const Variables& vars);

// A name for the step of `value`: "rule[value]", the value's file name for a path.
std::string step_name_for(const std::string& rule, const std::string& value);

}  // namespace yard
