#include "jobtext/directive_common.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/array_spec.h"
#include "core/text.h"

namespace yard::directives {

long long count(std::string_view s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string_view::npos) return -1;
  return std::atoll(std::string(s).c_str());
}

std::string sbatch_time(long long seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", seconds / 86400, seconds / 3600 % 24, seconds / 60 % 60,
                seconds % 60);
  return buf;
}

long long clock_seconds(std::string_view v) {
  long long total = 0;
  int parts = 0;
  const auto dot = v.find('.');
  const bool fraction = dot != std::string_view::npos;
  if (fraction && dot + 1 < v.size() && count(v.substr(dot + 1)) < 0) return -1;
  for (std::string_view p : split(v.substr(0, dot), ':')) {
    if (++parts > 3 || count(p) < 0) return -1;
    total = total * 60 + count(p);
  }
  return total + (fraction && v.find_first_not_of("0.", dot) != std::string_view::npos ? 1 : 0);
}

Result<long long> size_kib(std::string_view v, long double bare_bytes) {
  std::size_t i = 0;
  while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
  std::size_t digits = i;
  if (i < v.size() && v[i] == '.') {
    ++i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
  }
  if (digits == 0 || digits > 15 || i - digits > 10) return err("not a size");
  const long double n = std::strtold(std::string(v.substr(0, i)).c_str(), nullptr);
  const std::string unit = to_lower(v.substr(i));
  long double bytes = n;
  if (unit.empty()) {
    bytes *= bare_bytes;
  } else {
    static const std::string kUnits = "bkmgtp";
    const auto power = kUnits.find(unit[0]);
    if (power == std::string::npos || unit.size() > 2 || (unit.size() == 2 && (unit[1] != 'b' || unit[0] == 'b')))
      return err("not a size");
    bytes *= std::pow(1024.0L, static_cast<long double>(power));
  }
  const long double kibibytes = std::ceil(bytes / 1024);
  if (n <= 0 || kibibytes > 1024.0L * 1024 * 1024 * 1024 * 1024) return err("not a size");
  return static_cast<long long>(kibibytes < 1 ? 1 : kibibytes);
}

std::string kib(long long kibibytes) { return std::to_string(kibibytes) + "K"; }

Result<std::vector<std::string>> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      const auto close = text.find(c, i + 1);
      if (close == std::string_view::npos)
        return err(std::string("unmatched ") + (c == '"' ? "double" : "single") + " quote");
      cur.append(text.substr(i + 1, close - i - 1));
      in_word = true;
      i = close;
    } else if (c == '\\' && i + 1 < text.size()) {
      cur += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(cur));
      cur.clear();
      in_word = false;
    } else if (c == '#' && !in_word) {
      break;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(cur));
  return words;
}

Result<std::vector<std::string_view>> script_lines(std::string_view script, std::string_view origin) {
  if (script.find('\0') != std::string_view::npos) return err(std::string(origin) + ": the script contains a NUL byte");
  std::vector<std::string_view> lines = split(script, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (!lines[i].empty() && lines[i].back() == '\r')
      return err(std::string(origin) + ":" + std::to_string(i + 1) +
                 ": DOS line break (\\r\\n); convert the script with dos2unix");
  return lines;
}

std::string with_patterns(std::string_view path, const std::vector<std::pair<std::string, std::string>>& tokens) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    bool replaced = false;
    for (const auto& [token, pattern] : tokens)
      if (!token.empty() && path.substr(i, token.size()) == token) {
        out += pattern;
        i += token.size() - 1;
        replaced = true;
        break;
      }
    if (!replaced) out += path[i] == '%' ? std::string("%%") : std::string(1, path[i]);
  }
  return out;
}

Status check_array(std::string_view spec) {
  auto a = parse_array_spec(spec);
  if (!a) return a.failure();
  return {};
}

Result<std::string> dependency(std::string_view text) {
  std::string out;
  for (std::string_view clause : split(text, ',')) {
    auto fields = split(clause, ':');
    std::string_view type = fields[0];
    // A kind on a whole array (afterokarray:14[]) is the same kind on its id;
    // afterstartarray is after.
    if (type.ends_with("array")) type = type == "afterstartarray" ? "after" : type.substr(0, type.size() - 5);
    if (type != "after" && type != "afterok" && type != "afterany" && type != "afternotok")
      return err("'" + std::string(fields[0]) +
                 "': yard holds a job only until others start (after) or end (afterok, afterany, afternotok)");
    if (fields.size() < 2) return err("'" + std::string(clause) + "' names no job");
    out += (out.empty() ? "" : ",") + std::string(type);
    for (std::size_t k = 1; k < fields.size(); ++k) {
      std::string_view id = fields[k].substr(0, fields[k].find('.'));
      // A whole array, as a scheduler may name it (14[], 14[].server): its first id in yard.
      if (id.ends_with("[]")) id.remove_suffix(2);
      if (count(id) <= 0) return err("'" + std::string(fields[k]) + "' is not a job id (yard's dependencies name job ids)");
      out += ":" + std::string(id);
    }
  }
  return out;
}

Result<std::vector<std::string>> variable_list(std::string_view text) {
  std::vector<std::string> out;
  std::string item;
  bool comma = false;
  char quote = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (quote && i < text.size()) {
      if (c == quote) quote = 0; else item += c;
      comma = comma || (quote && c == ',');
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ',') {
      if (quote) return err("unmatched quote");
      if (comma) return err("a value holding a comma cannot be passed on");
      if (!trim(item).empty()) out.emplace_back(trim(item));
      item.clear();
    } else {
      item += c;
    }
  }
  return out;
}

std::string output_file(const std::string& path, const std::string& raw, const std::string& in_directory,
                        bool (*is_directory)(const std::string&)) {
  if (raw.empty() || (raw.back() != '/' && !(is_directory && is_directory(raw)))) return path;
  return path + (path.empty() || path.back() == '/' ? "" : "/") + in_directory;
}

Error Messages::fail(const std::string& what) const {
  return err(std::string(origin_) + ":" + std::to_string(line_) + ": in " + kind_ + " directives: " + what);
}

void Messages::warn(const std::string& what, const std::string& why) {
  warnings.push_back(std::string(origin_) + ":" + std::to_string(line_) + ": " + kind_ + " " + what + ": " + why);
}

void add_line(TranslatedDirectives& out, int line, std::vector<std::string> words) {
  if (words.empty()) return;
  out.directives.words.insert(out.directives.words.end(), words.begin(), words.end());
  out.directives.lines.push_back({line, 0, std::move(words)});
}

std::string directory_variable(std::string_view name, std::string_view dir) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::current_path(ec);
  if (ec) return {};
  if (!dir.empty()) p = (p / std::filesystem::path(std::string(dir))).lexically_normal();
  std::string text = p.string();
  if (text.size() > 1 && text.back() == '/') text.pop_back();
  if (text.find(',') != std::string::npos) return {};
  return std::string(name) + "=" + text;
}

void warn_unset_variables(std::string_view script, const std::vector<std::string_view>& names,
                          const std::string& instead, Messages& m) {
  std::set<std::string_view> read;
  for (std::size_t at = script.find('$'); at != std::string_view::npos; at = script.find('$', at + 1)) {
    std::size_t start = at + 1;
    const bool braced = start < script.size() && script[start] == '{';
    if (braced) ++start;
    for (std::string_view name : names) {
      if (script.substr(start, name.size()) != name) continue;
      const std::size_t end = start + name.size();
      const char next = end < script.size() ? script[end] : ' ';
      const bool word = (next >= 'A' && next <= 'Z') || (next >= 'a' && next <= 'z') || (next >= '0' && next <= '9') ||
                        next == '_';
      if (!word) read.insert(name);
    }
  }
  if (read.empty()) return;
  std::string list;
  for (std::string_view name : read) list += (list.empty() ? "$" : ", $") + std::string(name);
  m.outside.push_back(std::string(m.origin()) + ": the script reads " + list + ", which yard does not set; " + instead);
}

}  // namespace yard::directives
