#include "core/output_pattern.h"

#include <algorithm>

namespace yard {
namespace {

// Slurm caps the zero-padding width at 10 (MAX_WIDTH in fname.c).
constexpr std::size_t kMaxWidth = 10;

std::string zero_padded(std::int64_t n, std::size_t width) {
  std::string s = std::to_string(n);
  return s.size() < width ? std::string(width - s.size(), '0') + s : s;
}

// What Slurm makes of a path with a backslash: the backslashes removed ("\\" keeps
// one) and nothing expanded.
std::string without_backslashes(std::string_view pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '\\') out += pattern[i];
    else if (i + 1 < pattern.size() && pattern[i + 1] == '\\') out += pattern[++i];
  }
  return out;
}

// The value of %<width><c>, or nullopt to keep the sequence as written.
std::optional<std::string> value_of(char c, std::size_t width, const PatternValues& v) {
  switch (c) {
    case 'j': case 'J': return zero_padded(v.job_id, width);
    case 'A': return zero_padded(v.array_job_id ? v.array_job_id : v.job_id, width);
    case 'a': return zero_padded(v.array_index.value_or(4294967294), width);
    case 'n': case 't': return zero_padded(0, width);
    case 's': return std::string("batch");
    case 'N': return v.node;
    case 'u': return v.user;
    case 'x': return v.name;
    default: return std::nullopt;
  }
}

}  // namespace

PatternSequence read_pattern_sequence(std::string_view pattern, std::size_t pos) {
  PatternSequence seq{0, pos + 1};
  for (; seq.letter < pattern.size() && pattern[seq.letter] >= '0' && pattern[seq.letter] <= '9'; ++seq.letter)
    seq.width = std::min<std::size_t>(seq.width * 10 + static_cast<std::size_t>(pattern[seq.letter] - '0'), kMaxWidth);
  return seq;
}

std::optional<OpenMode> parse_open_mode(std::string_view text) {
  if (text.empty()) return std::nullopt;
  if (text[0] == 'a' || text[0] == 'A') return OpenMode::Append;
  if (text[0] == 't' || text[0] == 'T') return OpenMode::Truncate;
  return std::nullopt;
}

std::string expand_output_pattern(std::string_view pattern, const PatternValues& v) {
  if (pattern.find('\\') != std::string_view::npos) return without_backslashes(pattern);
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    const auto [width, k] = read_pattern_sequence(pattern, i);
    auto value = k < pattern.size() ? value_of(pattern[k], width, v) : std::nullopt;
    if (!value) {  // kept as written, up to and with the letter
      out += pattern.substr(i, std::min(k + 1, pattern.size()) - i);
      i = k;
      continue;
    }
    out += *value;
    i = k;
  }
  return out;
}

std::string name_in_pattern(std::string_view name) {
  std::string file;
  for (char c : name) {
    if (c == '/') file += '_';
    else if (c == '%') file += "%%";
    else file += c;
  }
  return file;
}

}  // namespace yard
