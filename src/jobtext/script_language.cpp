#include "jobtext/script_language.h"

#include "core/text.h"

namespace yard {

Result<JobDescription> ScriptLanguage::read_description(std::string_view text, std::string_view origin) const {
  (void)text;
  return err(std::string(origin) + ": " + std::string(title()) + " describes no job apart from its script");
}

bool ScriptLanguage::is_command(std::string_view line) const {
  const std::string_view t = trim(line);
  return !t.empty() && t[0] != '#';
}

std::vector<int> ScriptLanguage::directives_in_body(std::string_view body, int first_number) const {
  std::vector<int> out;
  if (!reads_after_commands()) return out;
  int number = first_number;
  for (std::string_view line : split(body, '\n')) {
    if (is_directive_line(line)) out.push_back(number);
    ++number;
  }
  return out;
}

void ScriptLanguages::add(std::unique_ptr<ScriptLanguage> language) { all_.push_back(std::move(language)); }

const ScriptLanguage* ScriptLanguages::find(std::string_view name) const {
  for (const auto& l : all_)
    if (l->name() == name) return l.get();
  return nullptr;
}

std::vector<std::string> ScriptLanguages::names() const {
  std::vector<std::string> out;
  for (const auto& l : all_) out.emplace_back(l->name());
  return out;
}

std::vector<std::string> ScriptLanguages::script_names() const {
  std::vector<std::string> out;
  for (const auto& l : all_)
    if (l->reads_scripts()) out.emplace_back(l->name());
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool directive_in_column_one(std::string_view line, std::string_view tag, bool alone_allowed) {
  if (!starts_with(line, tag)) return false;
  if (line.size() == tag.size()) return alone_allowed;
  return line[tag.size()] == ' ' || line[tag.size()] == '\t';
}

}  // namespace yard
