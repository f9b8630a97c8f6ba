#include "core/yaml_file.h"

#include "core/file_text.h"

namespace yard {

Result<YAML::Node> parse_yaml(std::string_view text, const std::string& source) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return err(source + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
}

Result<YAML::Node> load_yaml(const std::string& path) {
  auto text = read_file(path);
  if (!text) return Error{text.failure()};
  return parse_yaml(*text, path);
}

std::string yaml_where(const std::string& source, const YAML::Node& node) {
  return source + ":" + std::to_string(node.Mark().line + 1);
}

std::string yaml_error(const std::string& source, const YAML::Exception& e) {
  // A mark of -1 (no position known) names the file alone.
  if (e.mark.line < 0) return source + ": " + e.msg;
  return source + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg;
}

}  // namespace yard
