// One YAML reader for every file a user writes (local.yaml, slurm.yaml, policy.yaml, run
// files): the same bytes-first reading and the same "file:line: what" errors everywhere.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

#include "core/result.h"

namespace yard {

// The document in `text`, read from `source` (a path, or a name such as "<stdin>");
// malformed YAML is "source:LINE: malformed YAML: why".
Result<YAML::Node> parse_yaml(std::string_view text, const std::string& source);

// The document in the file at `path`; a file that cannot be read is "cannot read
// 'path': why" (an empty file is a null node).
Result<YAML::Node> load_yaml(const std::string& path);

// "source:LINE" of a node, the prefix of every message about it.
std::string yaml_where(const std::string& source, const YAML::Node& node);

// "source:LINE: why" for an exception yaml-cpp threw while reading `source` (a value of
// the wrong type, say).
std::string yaml_error(const std::string& source, const YAML::Exception& e);

}  // namespace yard
