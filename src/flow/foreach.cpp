#include "flow/foreach.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>

#include "core/array_spec.h"

namespace yard {
namespace {

bool identifier_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool identifier_char(char c) { return identifier_start(c) || (c >= '0' && c <= '9'); }

Result<std::vector<std::string>> glob_files(const std::string& pattern) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
  std::vector<std::string> out;
  if (rc == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  ::globfree(&g);
  if (rc != 0 && rc != GLOB_NOMATCH) return err("cannot read the directories of " + pattern);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Result<std::optional<Foreach>> read_foreach(const std::string& path, const YamlNode& step, const std::string& base_dir,
                                            const std::map<std::string, std::vector<std::string>>& outputs) {
  const YamlNode n = step["foreach"];
  if (!n) {
    if (step["as"]) return err(yaml_where(path, step["as"]) + ": as: names the variable of a foreach, and there is none");
    return std::optional<Foreach>{};
  }
  const std::string at = yaml_where(path, n);
  Foreach f;
  if (step["as"]) {
    f.var = step["as"].str();
    if (f.var.empty() || !identifier_start(f.var[0]) ||
        !std::all_of(f.var.begin(), f.var.end(), identifier_char))
      return err(yaml_where(path, step["as"]) + ": as: '" + f.var + "' is not a variable name (letters, digits, _)");
    if (f.var == "name" || f.var == "index")
      return err(yaml_where(path, step["as"]) + ": as: '" + f.var + "' is the step's own variable");
  }
  if (n.is_sequence()) {
    f.values = n.strings();
  } else if (n.is_map() && n.size() == 1 && n["range"]) {
    auto a = parse_array_spec(n["range"].str());
    if (!a) return err(at + ": foreach: range: " + a.error());
    if (a->max_running > 0) return err(at + ": foreach: range: a throttle (%) is an array's, not a foreach's");
    for (auto i : a->indices) f.values.push_back(std::to_string(i));
  } else if (n.is_map() && n.size() == 1 && n["glob"]) {
    std::filesystem::path pattern(n["glob"].str());
    if (pattern.is_relative()) pattern = std::filesystem::path(base_dir) / pattern;
    auto files = glob_files(pattern.string());
    if (!files) return err(at + ": foreach: glob: " + files.error());
    if (files->empty()) return err(at + ": foreach: glob: no file matches " + pattern.string());
    f.values = std::move(*files);
  } else if (n.is_map() && n.size() == 1 && n["outputs"]) {
    f.outputs_of = n["outputs"].str();
    auto it = outputs.find(f.outputs_of);
    if (it == outputs.end())
      return err(at + ": foreach: outputs: no step '" + f.outputs_of + "' before this one");
    if (it->second.empty()) return err(at + ": foreach: outputs: step '" + f.outputs_of + "' declares no outputs");
    f.values = it->second;
  } else {
    return err(at + ": foreach: expected a list, or one of range:, glob:, outputs:");
  }
  if (f.values.empty()) return err(at + ": foreach: no values: the step would run nothing");
  return std::optional<Foreach>{std::move(f)};
}

Result<std::string> expand_variables(const std::string& text, const Variables& vars) {
  if (text.find_first_of("{}") == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {  // {{ and }}
      out += c;
      ++i;
      continue;
    }
    if (c != '{' || (i > 0 && text[i - 1] == '$')) {
      out += c;
      continue;
    }
    std::size_t end = i + 1;
    while (end < text.size() && identifier_char(text[end])) ++end;
    if (end == i + 1 || end >= text.size() || text[end] != '}' || !identifier_start(text[i + 1])) {
      out += c;  // not {word}: a brace of the command's own ({a,b}, awk's {print})
      continue;
    }
    const std::string_view name(text.data() + i + 1, end - i - 1);
    auto v = vars.find(name);
    if (v == vars.end()) {
      std::string known;
      for (const auto& [k, _] : vars) known += (known.empty() ? "" : ", ") + k;
      return err("unknown variable {" + std::string(name) + "} (known: " + known + "; {{ writes a brace)");
    }
    out += v->second;
    i = end;
  }
  return out;
}

std::string step_name_for(const std::string& rule, const std::string& value) {
  std::string shown = value;
  if (value.find('/') != std::string::npos) shown = std::filesystem::path(value).filename().string();
  return rule + "[" + shown + "]";
}

}  // namespace yard
