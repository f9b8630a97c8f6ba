#include "backends/lsf/lsf_parse.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>

#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() < 19 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::optional<long long> integer(std::string_view s) {
  s = trim(s);
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string field(const nlohmann::json& record, const char* key) {
  auto it = record.find(key);
  if (it == record.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// "name[3]" -> 3: an array element's index, from its name.
std::optional<long long> index_in_name(std::string_view name) {
  if (name.empty() || name.back() != ']') return std::nullopt;
  const auto open = name.rfind('[');
  if (open == std::string_view::npos) return std::nullopt;
  const std::string_view digits = name.substr(open + 1, name.size() - open - 2);
  if (!all_digits(digits)) return std::nullopt;
  return integer(digits);
}

// "host1:host1:host2" or "4*host1:host2" -> "host1,host2".
std::string hosts_of(std::string_view exec_host) {
  std::string out;
  for (std::string_view h : split(exec_host, ':')) {
    h = trim(h);
    if (auto star = h.find('*'); star != std::string_view::npos) h = h.substr(star + 1);
    if (h.empty() || h == "-") continue;
    const std::string host(h);
    if (("," + out + ",").find("," + host + ",") == std::string::npos) out += (out.empty() ? "" : ",") + host;
  }
  return out;
}

}  // namespace

std::optional<double> lsf_time(std::string_view text, std::time_t now) {
  std::string s(trim(text));
  if (s.size() > 2 && s[s.size() - 2] == ' ' && std::isupper(static_cast<unsigned char>(s.back()))) s.resize(s.size() - 2);
  if (s.empty() || s == "-") return std::nullopt;
  std::tm now_tm{};
  ::localtime_r(&now, &now_tm);
  for (int year = now_tm.tm_year; year >= now_tm.tm_year - 1; --year) {
    std::tm tm{};
    const char* end = ::strptime(s.c_str(), "%b %d %H:%M", &tm);
    if (!end || *end != '\0') return std::nullopt;
    tm.tm_year = year;
    tm.tm_isdst = -1;
    const std::time_t t = std::mktime(&tm);
    if (t == static_cast<std::time_t>(-1)) return std::nullopt;
    if (t <= now + 60) return static_cast<double>(t);  // a minute's slack for the clocks
  }
  return std::nullopt;
}

Result<std::string> parse_bsub(std::string_view out) {
  for (std::string_view line : split(out, '\n')) {
    const auto at = line.find("Job <");
    if (at == std::string_view::npos) continue;
    const auto close = line.find('>', at);
    if (close == std::string_view::npos) continue;
    const std::string_view id = line.substr(at + 5, close - at - 5);
    if (all_digits(id) && line.find(" is submitted to ", close) != std::string_view::npos) return std::string(id);
  }
  return err("bsub printed " + excerpt(trim(out)) + ", not \"Job <N> is submitted to queue <Q>.\"");
}

Result<std::vector<NativeStatus>> parse_bjobs_json(std::string_view out, std::time_t now) {
  std::vector<NativeStatus> statuses;
  const auto open = out.find('{');
  if (open == std::string_view::npos) {
    // "No unfinished job found", "No job found": nothing matched.
    if (trim(out).empty() || (starts_with(trim(out), "No ") && trim(out).find(" job found") != std::string_view::npos))
      return statuses;
    return err("bjobs -json printed no JSON object: " + excerpt(trim(out).substr(0, 200)));
  }
  const auto close = out.rfind('}');
  nlohmann::json root = nlohmann::json::parse(out.substr(open, close + 1 - open), nullptr, false);
  if (root.is_discarded() || !root.is_object())
    return err("bjobs -json printed invalid JSON: " + excerpt(out.substr(open, 200)));
  auto records = root.find("RECORDS");
  if (records == root.end()) return statuses;
  if (!records->is_array()) return err("bjobs -json: RECORDS is not a list");
  for (const auto& r : *records) {
    if (!r.is_object()) return err("bjobs -json: a record is not an object: " + excerpt(r.dump().substr(0, 80)));
    if (r.contains("ERROR")) continue;  // an id bjobs does not know
    NativeStatus s;
    const std::string id = field(r, "JOBID");
    if (!all_digits(id)) return err("bjobs -json: JOBID " + excerpt(id) + " is not a job id");
    s.name = field(r, "JOB_NAME");
    std::optional<long long> index = integer(field(r, "JOBINDEX"));
    if (!index || *index == 0) index = index_in_name(s.name);
    s.native_id = index ? id + "[" + std::to_string(*index) + "]" : id;
    if (index) s.submission_id = id;
    s.raw_state = field(r, "STAT");
    const std::string pend = field(r, "PEND_REASON");
    s.reason = field(r, "EXIT_REASON");
    if (s.reason.empty() || s.reason == "-") s.reason = pend == "-" ? "" : pend;
    if (auto code = integer(field(r, "EXIT_CODE"))) {
      // Above 128: killed by signal code-128 (LSF's convention, LSB_BJOBS_CONSISTENT_EXIT_CODE).
      if (*code > 128 && *code < 128 + 65) s.signal = static_cast<int>(*code - 128);
      else if (*code >= 0 && *code <= 255) s.exit_code = static_cast<int>(*code);
    } else if (s.raw_state == "DONE") {
      s.exit_code = 0;
    }
    s.node_list = hosts_of(field(r, "EXEC_HOST"));
    s.start_time = lsf_time(field(r, "START_TIME"), now);
    // A running job's FINISH_TIME is LSF's estimate (start + run limit, " L"): not an end.
    if (s.raw_state == "DONE" || s.raw_state == "EXIT") s.end_time = lsf_time(field(r, "FINISH_TIME"), now);
    statuses.push_back(std::move(s));
  }
  return statuses;
}

Result<std::vector<NativeStatus>> parse_bjobs_table(std::string_view out) {
  std::vector<NativeStatus> statuses;
  std::size_t line_no = 0;
  bool in_table = false;
  for (std::string_view line : split(out, '\n')) {
    ++line_no;
    if (trim(line).empty() || starts_with(trim(line), "LSF is processing")) continue;
    if (starts_with(line, "JOBID")) {
      in_table = true;
      continue;
    }
    if (!in_table || starts_with(line, "Job <") || starts_with(trim(line), "No ")) continue;
    std::vector<std::string_view> words;
    for (std::string_view w : split(line, ' '))
      if (!w.empty()) words.push_back(w);
    if (words.size() < 7 || !all_digits(words[0]))
      return err("bjobs: line " + std::to_string(line_no) + ": not a row of its table: " + excerpt(line));
    NativeStatus s;
    s.native_id = std::string(words[0]);
    s.raw_state = std::string(words[2]);
    // Names overflow their column: the name is what lies between the hosts and the
    // submit time's three words (a pending job has no execution host).
    const std::size_t first = s.raw_state == "PEND" || s.raw_state == "PSUSP" ? 5 : 6;
    for (std::size_t i = first; i + 3 < words.size(); ++i) s.name += (s.name.empty() ? "" : " ") + std::string(words[i]);
    statuses.push_back(std::move(s));
  }
  return statuses;
}

}  // namespace yard
