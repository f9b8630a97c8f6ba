#include "backends/pbs/pbs_parse.h"

#include "backends/pbs/pbs_values.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <ctime>
#include <set>

#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() < 19 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// The line holding byte `at` of `text`, and its number.
std::string line_at(std::string_view text, std::size_t at, std::size_t& line_no) {
  at = std::min(at, text.size());
  line_no = 1;
  for (std::size_t i = 0; i < at; ++i) line_no += text[i] == '\n';
  std::size_t begin = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  const std::size_t end = text.find('\n', begin);
  return excerpt(text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
}

// The '}' closing the object opened at `open` in `line`, strings skipped; npos when it
// closes on a later line.
std::size_t closing_brace(std::string_view line, std::size_t open) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

// Every known case of invalid JSON from qstat is inside a Variable_List (the job's
// environment, printed unchecked): each such member becomes an empty object. The
// printers put the member's closing brace on a line of its own, indented as its key.
std::string without_variable_lists(std::string_view text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    const std::size_t key = line.find("\"Variable_List\"");
    if (key == std::string_view::npos || line.find('{', key) == std::string_view::npos) {
      out.append(line);
      if (end < text.size()) out += '\n';
      pos = end + 1;
      continue;
    }
    const std::string_view indent = line.substr(0, line.find_first_not_of(" \t"));
    const std::size_t open = line.find('{', key);
    const std::size_t close_here = closing_brace(line, open);
    if (close_here != std::string_view::npos) {  // on one line
      out.append(line.substr(0, open)).append("{}").append(line.substr(close_here + 1));
      if (end < text.size()) out += '\n';
      pos = end + 1;
      continue;
    }
    std::size_t next = end + 1;
    bool closed = false;
    while (next < text.size()) {
      std::size_t e = text.find('\n', next);
      if (e == std::string_view::npos) e = text.size();
      std::string_view l = text.substr(next, e - next);
      next = e + 1;
      if (starts_with(l, indent) && l.size() > indent.size() && l[indent.size()] == '}') {
        out.append(line.substr(0, open)).append("{}").append(l.substr(indent.size() + 1));
        if (e < text.size()) out += '\n';
        closed = true;
        break;
      }
    }
    if (!closed) return std::string(text);  // not the printers' layout: leave it to the error
    pos = next;
  }
  return out;
}

// The attributes pbs_status_of reads (of the nested ones, walltime alone).
const std::set<std::string, std::less<>>& kept_attributes() {
  static const std::set<std::string, std::less<>> kept{"Job_Name", "job_state", "comment", "exec_host", "stime",
                                                       "obittime", "mtime", "Exit_status", "substate", "run_count"};
  return kept;
}

// Reads `qstat -F json` as it streams by, without building the document (a listing of
// 10,000 jobs is several megabytes): the root object, its "Jobs" object, one object per
// job whose attributes are scalars or objects of scalars (Resource_List, ...).
class JobsReader : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::vector<NativeStatus> statuses;
  std::size_t error_byte = 0;
  std::string mistake;  // a layout that is valid JSON but not qstat's

  bool null() override { return scalar(""); }
  bool boolean(bool v) override { return scalar(v ? "True" : "False"); }
  bool number_integer(number_integer_t v) override { return scalar(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& text) override { return scalar(text); }
  bool string(string_t& v) override { return scalar(v); }
  bool binary(binary_t&) override { return scalar(""); }
  bool start_object(std::size_t) override { return open(false); }
  bool end_object() override {
    if (ignored_ == 0 && depth_ == 3) statuses.push_back(pbs_status_of(keys_[2], attributes_));
    return close();
  }
  bool start_array(std::size_t) override { return open(true); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    if (depth_ >= 1 && depth_ <= 4) keys_[depth_] = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
    error_byte = position;
    return false;
  }

 private:
  // A container starts: qstat's layout is root { "Jobs": { ID: { ATTRIBUTE: scalar or
  // { RESOURCE: scalar } } } }; other root members, and anything deeper, are skipped.
  bool open(bool array) {
    ++depth_;
    bool skip = ignored_ > 0;
    if (!skip) {
      if (depth_ == 1 && array) return refuse("the root is an array, not qstat's object");
      if (depth_ == 2 && keys_[1] == "Jobs" && array) return refuse("\"Jobs\" is not an object");
      skip = (depth_ == 2 && keys_[1] != "Jobs") || (depth_ >= 3 && array) || depth_ > 4;
    }
    skipping_.push_back(skip);
    ignored_ += skip;
    if (!skip && depth_ == 3) {
      if (!pbs_short_id(keys_[2])) return refuse("job id " + excerpt(keys_[2]) + " is not N, N[] or N[I] (.server)");
      attributes_.clear();
    }
    return true;
  }
  bool close() {
    if (!skipping_.empty()) {
      ignored_ -= skipping_.back();
      skipping_.pop_back();
    }
    --depth_;
    return true;
  }
  bool refuse(std::string why) {
    mistake = std::move(why);
    return false;
  }
  bool scalar(const std::string& v) {
    if (ignored_ > 0) return true;
    switch (depth_) {
      case 0: return refuse("printed " + excerpt(v) + ", not an object");
      case 1: return keys_[1] != "Jobs" || refuse("\"Jobs\" is not an object");
      case 2: return refuse("job " + excerpt(keys_[2]) + " is not an object");
      case 3:
        if (kept_attributes().count(keys_[3])) attributes_[keys_[3]] = v;
        return true;
      default:
        if (keys_[4] == "walltime") attributes_[keys_[3] + ".walltime"] = v;
        return true;
    }
  }
  int depth_ = 0, ignored_ = 0;
  std::vector<bool> skipping_;
  std::string keys_[5];
  PbsAttributes attributes_;
};

}  // namespace

std::optional<std::string> pbs_short_id(std::string_view full_id) {
  full_id = trim(full_id);
  auto digits_from = [&](std::size_t i) {
    while (i < full_id.size() && full_id[i] >= '0' && full_id[i] <= '9') ++i;
    return i;
  };
  std::size_t end = digits_from(0);
  if (end == 0 || end > 18) return std::nullopt;
  if (end < full_id.size() && full_id[end] == '[') {  // "12[]", "12[3]"
    const std::size_t close = digits_from(end + 1);
    if (close >= full_id.size() || full_id[close] != ']' || close - end > 12) return std::nullopt;
    end = close + 1;
  }
  if (end < full_id.size() && full_id[end] != '.') return std::nullopt;
  return std::string(full_id.substr(0, end));
}

Result<std::string> parse_pbs_qsub(std::string_view out) {
  const auto lines = split(out, '\n');
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    std::string_view line = trim(*it);
    if (line.empty()) continue;
    std::string_view id = line.substr(0, line.find('.'));
    if (id.size() > 2 && id.substr(id.size() - 2) == "[]") id.remove_suffix(2);
    const std::string_view rest = line.substr(std::min(line.size(), line.find('.')));
    if (all_digits(id) && (rest.empty() || (rest.size() > 1 && rest.find_first_of(" \t") == std::string_view::npos)))
      return std::string(id);
  }
  return err("qsub printed " + excerpt(trim(out)) + ", not a job id (N.server)");
}

NativeStatus pbs_status_of(std::string_view job_id, const PbsAttributes& a) {
  NativeStatus s;
  s.native_id = pbs_short_id(job_id).value_or(std::string(job_id));
  if (auto b = s.native_id.find('['); b != std::string::npos) s.submission_id = s.native_id.substr(0, b);
  s.raw_state = std::string(pbs_attribute(a, "job_state"));
  s.name = std::string(pbs_attribute(a, "Job_Name"));
  s.reason = std::string(pbs_attribute(a, "comment"));
  s.node_list = pbs_hosts(pbs_attribute(a, "exec_host"));
  s.start_time = pbs_ctime(pbs_attribute(a, "stime"));
  if (auto t = pbs_ctime(pbs_attribute(a, "obittime"))) s.end_time = t;
  else if (s.raw_state == "F" || s.raw_state == "X") s.end_time = pbs_ctime(pbs_attribute(a, "mtime"));
  if (auto code = pbs_integer(pbs_attribute(a, "Exit_status"))) {
    s.events.push_back("Exit_status=" + std::to_string(*code));
    if (*code >= 0 && *code <= 255) s.exit_code = static_cast<int>(*code);
    else if (*code > 256 && *code < 256 + 128) s.signal = static_cast<int>(*code - 256);
  }
  for (const char* key : {"substate", "run_count"})
    if (auto v = pbs_integer(pbs_attribute(a, key))) s.events.push_back(std::string(key) + "=" + std::to_string(*v));
  if (pbs_used_its_walltime(a)) s.events.push_back("walltime_exceeded");
  return s;
}

Result<std::vector<NativeStatus>> parse_pbs_qstat_json(std::string_view out) {
  std::vector<NativeStatus> statuses;
  // Lines before the JSON (a table) are skipped.
  std::size_t start = std::string_view::npos;
  for (std::size_t pos = 0; pos < out.size();) {
    if (out[pos] == '{') {
      start = pos;
      break;
    }
    const std::size_t nl = out.find('\n', pos);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (start == std::string_view::npos) {
    if (trim(out).empty()) return statuses;
    return err("qstat -F json printed no JSON object: " + excerpt(trim(out).substr(0, 200)));
  }
  const std::string_view json_text = out.substr(start);
  JobsReader reader;
  if (!nlohmann::json::sax_parse(json_text, &reader)) {
    const std::size_t at = reader.error_byte;
    JobsReader again;  // the known printer bugs are in Variable_List: read without them
    if (reader.mistake.empty() && nlohmann::json::sax_parse(without_variable_lists(json_text), &again)) {
      return std::move(again.statuses);
    }
    if (!reader.mistake.empty()) return err("qstat -F json: " + reader.mistake);
    std::size_t line_no = 0;
    const std::string line = line_at(out, start + (at > 0 ? at - 1 : 0), line_no);
    return err("qstat -F json: invalid JSON at line " + std::to_string(line_no) + ": " + line);
  }
  return std::move(reader.statuses);
}

Result<std::vector<std::pair<std::string, PbsAttributes>>> read_qstat_full_text(std::string_view out) {
  std::vector<std::pair<std::string, PbsAttributes>> jobs;
  std::string* last = nullptr;
  std::size_t line_no = 0;
  for (std::string_view line : split(out, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (starts_with(line, "Job Id:")) {
      const std::string id(trim(line.substr(7)));
      if (!pbs_short_id(id))
        return err("qstat -f: line " + std::to_string(line_no) + ": job id " + excerpt(id) + " is not N, N[] or N[I] (.server)");
      jobs.emplace_back(id, PbsAttributes{});
      last = nullptr;
      continue;
    }
    if (trim(line).empty()) {
      last = nullptr;
      continue;
    }
    if (jobs.empty()) continue;  // a prompt or a banner before the first job
    const std::size_t indent = line.find_first_not_of(' ');
    const std::size_t eq = line.find(" = ");
    const bool attribute = indent == 4 && eq != std::string_view::npos &&
                           line.substr(4, eq - 4).find(' ') == std::string_view::npos;
    if (!attribute) {
      if (!last)
        return err("qstat -f: line " + std::to_string(line_no) + ": not 'name = value': " + excerpt(line));
      if (line[0] == '\t') last->append(line.substr(1));           // PBS Pro wraps at column 78
      else if (indent != 0 && indent != std::string_view::npos) last->append(line.substr(indent));  // Torque's 8 spaces
      else last->append("\n").append(line);  // a raw newline inside a value (qsub -V's bash functions)
      continue;
    }
    last = &(jobs.back().second[std::string(line.substr(4, eq - 4))] = std::string(line.substr(eq + 3)));
  }
  return jobs;
}

Result<std::vector<NativeStatus>> parse_pbs_qstat_full(std::string_view out) {
  auto jobs = read_qstat_full_text(out);
  if (!jobs) return jobs.failure();
  std::vector<NativeStatus> statuses;
  for (auto& [id, attributes] : *jobs) statuses.push_back(pbs_status_of(id, attributes));
  return statuses;
}

Result<std::vector<NativeStatus>> parse_pbs_qstat_table(std::string_view out) {
  std::vector<NativeStatus> statuses;
  bool in_table = false;
  std::size_t line_no = 0;
  for (std::string_view line : split(out, '\n')) {
    ++line_no;
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    if (starts_with(t, "Job id") || starts_with(t, "Job ID")) continue;
    if (t.find_first_not_of("- ") == std::string_view::npos) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    std::vector<std::string_view> words;
    for (std::string_view w : split(t, ' '))
      if (!w.empty()) words.push_back(w);
    if (words.size() < 6 || words[4].size() != 1)
      return err("qstat: line " + std::to_string(line_no) + ": not a row of its table: " + excerpt(t));
    NativeStatus s;
    std::string_view id = words[0];
    if (!id.empty() && id.back() == '*') id.remove_suffix(1);  // cut to its column
    auto short_id = pbs_short_id(id);
    if (!short_id) return err("qstat: line " + std::to_string(line_no) + ": job id " + excerpt(id) + " is not N.server");
    s.native_id = std::move(*short_id);
    s.name = std::string(words[1]);
    s.raw_state = std::string(words[4]);
    statuses.push_back(std::move(s));
  }
  return statuses;
}

}  // namespace yard
