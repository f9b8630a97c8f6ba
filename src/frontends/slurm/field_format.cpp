#include "frontends/slurm/field_format.h"

#include <cctype>
#include <sstream>

namespace yard::slurm_front {
namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// "[.][width]" from s[j]: right-justified or not, and the width (none when no digits).
void read_justified_width(const std::string& s, std::size_t& j, FieldItem& item) {
  if (j < s.size() && s[j] == '.') {
    item.right = true;
    ++j;
  }
  std::string width;
  while (j < s.size() && digit(s[j])) width += s[j++];
  item.width = width.empty() ? std::nullopt : std::optional<int>(std::stoi(width.substr(0, 6)));
}

}  // namespace

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string word;
  while (std::getline(in, word, ','))
    if (!word.empty()) out.push_back(word);
  return out;
}

std::vector<FieldItem> parse_percent_format(const std::string& spec) {
  std::vector<FieldItem> items;
  std::string literal;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] != '%' || i + 1 >= spec.size()) {
      literal += spec[i];
      continue;
    }
    if (spec[i + 1] == '%') {
      literal += '%';
      ++i;
      continue;
    }
    if (!literal.empty()) items.push_back({literal, "", std::nullopt, false, ""});
    literal.clear();
    FieldItem item;
    std::size_t j = i + 1;
    read_justified_width(spec, j, item);
    if (j >= spec.size()) break;  // a '%' with no letter: nothing
    item.field = std::string(1, spec[j]);
    items.push_back(item);
    i = j;
  }
  if (!literal.empty()) items.push_back({literal, "", std::nullopt, false, ""});
  return items;
}

Result<std::vector<FieldItem>> parse_named_format(const std::string& spec, int default_width) {
  std::vector<FieldItem> items;
  for (const auto& part : comma_list(spec)) {
    FieldItem item;
    const auto colon = part.find(':');
    item.field = part.substr(0, colon);
    item.width = default_width;
    if (colon != std::string::npos) {
      std::size_t j = colon + 1;
      read_justified_width(part, j, item);
      item.width = item.width.value_or(0);  // "name:" alone: as long as the value
      item.suffix = part.substr(j);
    }
    items.push_back(item);
  }
  if (items.empty()) return Error{"Invalid format specification: '" + spec + "'", ErrorKind::Invalid};
  return items;
}

Result<std::vector<FieldItem>> parse_sacct_format(const std::string& spec) {
  std::vector<FieldItem> items;
  for (const auto& part : comma_list(spec)) {
    FieldItem item;
    const auto pct = part.find('%');
    item.field = part.substr(0, pct);
    item.right = true;  // sacct right-justifies, unless the width is negative
    if (pct != std::string::npos) {
      std::string width = part.substr(pct + 1);
      if (!width.empty() && width[0] == '-') {
        item.right = false;
        width.erase(0, 1);
      }
      for (char ch : width)
        if (!digit(ch)) return Error{"Invalid field requested: \"" + part + "\"", ErrorKind::Invalid};
      if (!width.empty()) item.width = std::stoi(width.substr(0, 6));
    }
    items.push_back(item);
  }
  if (items.empty()) return Error{"Invalid field requested: \"" + spec + "\"", ErrorKind::Invalid};
  return items;
}

std::string fit(const std::string& value, const FieldItem& item, bool mark_cut, bool cut) {
  if (!item.width || *item.width == 0) return value;
  const auto width = static_cast<std::size_t>(*item.width);
  if (value.size() > width && !cut && item.right) return value;
  if (value.size() > width) {
    std::string shortened = value.substr(0, width);
    if (mark_cut && width > 0) shortened.back() = '+';
    return shortened;
  }
  const std::string pad(width - value.size(), ' ');
  return item.right ? pad + value : value + pad;
}

}  // namespace yard::slurm_front
