#include "backends/slurm/slurm_parse.h"

#include <charconv>
#include <ctime>

#include "backends/slurm/slurm_quote.h"
#include "core/text.h"

namespace yard {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Splits `line` on the first `n - 1` separators: the last field keeps any further '|'.
std::vector<std::string_view> split_first(std::string_view line, char sep, std::size_t n) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < n) {
    auto pos = line.find(sep);
    if (pos == std::string_view::npos) break;
    out.push_back(line.substr(0, pos));
    line.remove_prefix(pos + 1);
  }
  out.push_back(line);
  return out;
}

// Calls `fn(line_number, line)` for each non-blank line; stops at the first error.
template <typename Fn>
Status for_each_line(std::string_view out, Fn fn) {
  std::size_t number = 0;
  while (!out.empty()) {
    auto nl = out.find('\n');
    std::string_view line = out.substr(0, nl);
    out.remove_prefix(nl == std::string_view::npos ? out.size() : nl + 1);
    ++number;
    if (trim(line).empty()) continue;
    if (auto s = fn(number, line); !s) return s;
  }
  return {};
}

Error line_error(std::string_view command, std::size_t number, std::string_view line, const std::string& why) {
  return err(std::string(command) + " output line " + std::to_string(number) + ": " + why + ": " + excerpt(line, 200));
}

bool to_int(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// "3:0" = exit code 3; "0:9" = killed by signal 9.
bool parse_exit_code(std::string_view text, NativeStatus& s) {
  if (text.empty()) return true;
  auto colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  int code = 0, sig = 0;
  if (!to_int(text.substr(0, colon), code) || !to_int(text.substr(colon + 1), sig) || code < 0 || sig < 0)
    return false;
  if (sig != 0)
    s.signal = sig;
  else
    s.exit_code = code;
  return true;
}

}  // namespace

bool is_slurm_job_id(std::string_view id) {
  auto end = id.find_first_not_of("0123456789");
  if (end == 0) return false;
  if (end == std::string_view::npos) return true;
  auto rest = id.substr(end);
  if (rest[0] == '+') return all_digits(rest.substr(1));
  if (rest[0] != '_') return false;
  rest.remove_prefix(1);
  if (all_digits(rest)) return true;
  // Pending elements collapsed into one line: "[3-5%2]", "[0-3,7]".
  if (rest.size() < 3 || rest.front() != '[' || rest.back() != ']') return false;
  return rest.substr(1, rest.size() - 2).find_first_not_of("0123456789-,:%") == std::string_view::npos;
}

Result<std::optional<double>> parse_slurm_time(std::string_view text) {
  if (text.empty() || text == "Unknown" || text == "None") return std::optional<double>{};
  auto bad = [&] {
    return err("time " + excerpt(text) + " is not YYYY-MM-DDTHH:MM:SS, Unknown or None");
  };
  // Fixed layout: 2026-11-22T14:00:00
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':')
    return bad();
  int year = 0, mon = 0, day = 0, hour = 0, min = 0, sec = 0;
  if (!all_digits(text.substr(0, 4)) || !to_int(text.substr(0, 4), year) || !all_digits(text.substr(5, 2)) ||
      !to_int(text.substr(5, 2), mon) || !all_digits(text.substr(8, 2)) || !to_int(text.substr(8, 2), day) ||
      !all_digits(text.substr(11, 2)) || !to_int(text.substr(11, 2), hour) || !all_digits(text.substr(14, 2)) ||
      !to_int(text.substr(14, 2), min) || !all_digits(text.substr(17, 2)) || !to_int(text.substr(17, 2), sec))
    return bad();
  if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60) return bad();
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = mon - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = min;
  tm.tm_sec = sec;
  tm.tm_isdst = -1;  // sacct prints local time; let the zone rules decide DST
  const std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return bad();
  return std::optional<double>{static_cast<double>(t)};
}

Result<std::string> parse_sbatch_parsable(std::string_view out) {
  std::string_view text = trim(out);
  if (text.empty()) return err("sbatch --parsable printed no job id (its reason is on stderr)");
  std::string_view id = text.substr(0, text.find(';'));
  if (!all_digits(id) || text.find('\n') != std::string_view::npos)
    return err("sbatch --parsable output: expected a job id such as 123 or 123;cluster, got " + excerpt(text, 200));
  return std::string(id);
}

Result<std::vector<NativeStatus>> parse_squeue(std::string_view out) {
  std::vector<NativeStatus> result;
  auto s = for_each_line(out, [&](std::size_t number, std::string_view line) -> Status {
    auto f = split_first(line, '|', 4);
    if (f.size() != 4)
      return line_error("squeue", number, line,
                        "expected 4 '|'-separated fields (id|state|reason|name), got " + std::to_string(f.size()));
    if (!is_slurm_job_id(f[0])) return line_error("squeue", number, line, "job id " + excerpt(f[0]) + " is not a Slurm job id");
    if (f[1].empty()) return line_error("squeue", number, line, "empty state");
    NativeStatus st;
    st.native_id = f[0];
    st.raw_state = f[1];
    if (f[2] != "None") st.reason = f[2];
    st.name = f[3];
    result.push_back(std::move(st));
    return {};
  });
  if (!s) return err(s.error());
  return result;
}

Result<std::vector<NativeStatus>> parse_sacct(std::string_view out) {
  std::vector<NativeStatus> result;
  auto s = for_each_line(out, [&](std::size_t number, std::string_view line) -> Status {
    auto f = split_first(line, '|', 9);
    if (f.size() != 9)
      return line_error("sacct", number, line,
                        "expected 9 '|'-separated fields "
                        "(JobID|JobIDRaw|State|ExitCode|Start|End|Elapsed|NodeList|JobName), got " +
                            std::to_string(f.size()));
    if (!is_slurm_job_id(f[0])) return line_error("sacct", number, line, "JobID " + excerpt(f[0]) + " is not a Slurm job id");
    if (!all_digits(f[1])) return line_error("sacct", number, line, "JobIDRaw " + excerpt(f[1]) + " is not a number");
    if (f[2].empty()) return line_error("sacct", number, line, "empty State");
    NativeStatus st;
    st.native_id = f[0];
    st.raw_state = f[2];
    if (!parse_exit_code(f[3], st))
      return line_error("sacct", number, line, "ExitCode " + excerpt(f[3]) + " is not CODE:SIGNAL");
    auto start = parse_slurm_time(f[4]);
    if (!start) return line_error("sacct", number, line, "Start " + start.error());
    auto end = parse_slurm_time(f[5]);
    if (!end) return line_error("sacct", number, line, "End " + end.error());
    st.start_time = *start;
    st.end_time = *end;
    if (f[7] != "None assigned") st.node_list = f[7];
    st.name = f[8];
    result.push_back(std::move(st));
    return {};
  });
  if (!s) return err(s.error());
  return result;
}

}  // namespace yard
