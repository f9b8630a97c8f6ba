#include "backends/flux/flux_parse.h"

#include <nlohmann/json.hpp>

#include "backends/flux/flux_ids.h"
#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

using nlohmann::json;

// What yard reads of one job; the rest of its record is skipped.
struct JobFields {
  std::optional<std::uint64_t> id;
  std::string jobid, state, result, name, nodelist, exception_type, exception_note;
  std::optional<long long> returncode, waitstatus, state_bit, result_bit;
  std::optional<double> t_run, t_inactive;
  bool exception_occurred = false;
  bool any = false;  // a key of a job's was seen
};

constexpr const char* kStates[][2] = {{"1", "NEW"},  {"2", "DEPEND"},   {"4", "PRIORITY"}, {"8", "SCHED"},
                                      {"16", "RUN"}, {"32", "CLEANUP"}, {"64", "INACTIVE"}};
constexpr const char* kResults[][2] = {{"1", "COMPLETED"}, {"2", "FAILED"}, {"4", "CANCELED"}, {"8", "TIMEOUT"}};

template <std::size_t N>
std::string named(const std::string& text, const std::optional<long long>& bit, const char* const (&names)[N][2]) {
  if (!text.empty() || !bit) return text;
  for (const auto& n : names)
    if (std::to_string(*bit) == n[0]) return n[1];
  return std::to_string(*bit);
}

Result<NativeStatus> status_of(const JobFields& f, const std::string& where) {
  NativeStatus s;
  if (f.id) s.native_id = flux_f58(*f.id);
  else if (auto id = flux_ascii_id(f.jobid)) s.native_id = *id;
  else return err(where + ": a job without an id");
  const std::string state = named(f.state, f.state_bit, kStates);
  const std::string result = named(f.result, f.result_bit, kResults);
  s.raw_state = result.empty() ? state : state + " " + result;
  s.name = f.name;
  s.node_list = f.nodelist;
  if (f.t_run && *f.t_run > 0) s.start_time = f.t_run;
  if (f.t_inactive && *f.t_inactive > 0) s.end_time = f.t_inactive;
  if (f.exception_occurred && !f.exception_type.empty()) s.events.push_back("exception=" + f.exception_type);
  if (f.exception_occurred) s.reason = f.exception_note;
  std::optional<int> rc;
  if (f.returncode) rc = static_cast<int>(*f.returncode);
  else rc = flux_returncode(state == "INACTIVE", result, f.waitstatus);
  // -N: killed by signal N; 128+N: a task was, and the job shell said so (flux-submit's
  // "the job exit status is 128+signo"); -128: cancelled before it ran, no exit at all.
  if (rc && *rc < 0 && *rc > -128) s.signal = -*rc;
  else if (rc && *rc > 128 && *rc < 128 + 65) s.signal = *rc - 128;
  else if (rc && *rc >= 0) s.exit_code = *rc;
  return s;
}

// Reads `flux jobs --json` as it streams by, without building the document: the jobs of
// {"jobs": [{...}, ...]}, or the one job of a bare object; in a job, its scalars and its
// "exception" object (flux jobs) or flat exception_* keys (job-list); anything else is
// skipped.
class JobsReader : public nlohmann::json_sax<json> {
 public:
  std::vector<NativeStatus> statuses;
  std::string mistake;

  bool null() override { return true; }
  bool boolean(bool v) override {
    if (in_exception() && key_ == "occurred") job_.exception_occurred = v;
    else if (at_job() && key_ == "exception_occurred") job_.exception_occurred = v;
    return true;
  }
  bool number_integer(number_integer_t v) override { return integer(v); }
  bool number_unsigned(number_unsigned_t v) override {
    if (at_job() && key_ == "id") {
      job_.id = v, job_.any = true;
      return true;
    }
    return integer(v > 9'000'000'000'000'000'000ull ? -1 : static_cast<long long>(v));
  }
  bool number_float(number_float_t v, const string_t&) override {
    if (!at_job()) return true;
    if (key_ == "t_run") job_.t_run = v;
    else if (key_ == "t_inactive") job_.t_inactive = v;
    else if (v >= -9.2e18 && v <= 9.2e18) return integer(static_cast<long long>(v));
    return true;
  }
  bool string(string_t& v) override {
    if (in_exception()) {
      if (key_ == "type") job_.exception_type = v;
      else if (key_ == "note") job_.exception_note = v;
      return true;
    }
    if (!at_job()) return true;
    job_.any = true;
    if (key_ == "jobid") job_.jobid = v;
    else if (key_ == "state") job_.state = v;
    else if (key_ == "result") job_.result = v;
    else if (key_ == "name") job_.name = v;
    else if (key_ == "nodelist") job_.nodelist = v;
    else if (key_ == "exception_type") job_.exception_type = v;
    else if (key_ == "exception_note") job_.exception_note = v;
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool key(string_t& k) override {
    key_ = k;
    if (depth_ == 1) root_key_ = k;
    return true;
  }
  bool start_object(std::size_t) override {
    ++depth_;
    if (depth_ == 1) job_depth_ = 1, job_ = {};  // a bare job, unless it holds "jobs"
    else if (depth_ == 3 && in_list_) job_depth_ = 3, job_ = {};
    else if (depth_ == job_depth_ + 1 && key_ == "exception") exception_depth_ = depth_;
    else if (depth_ == 2 && root_key_ == "jobs") return refuse("\"jobs\" is not a list");
    return true;
  }
  bool end_object() override {
    if (depth_ == exception_depth_) exception_depth_ = -1;
    if (depth_ == job_depth_ && (depth_ == 3 || !wrapped_)) {
      auto s = status_of(job_, "job " + std::to_string(statuses.size() + 1));
      if (!s) return refuse(s.error());
      statuses.push_back(std::move(*s));
    }
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    if (depth_ == 1) return refuse("the listing is a JSON list, not flux jobs' object");
    if (depth_ == 2 && root_key_ == "jobs") wrapped_ = true, in_list_ = true, job_depth_ = -1;
    return true;
  }
  bool end_array() override {
    if (depth_ == 2) in_list_ = false;
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool at_job() const { return depth_ == job_depth_ && (depth_ == 3 || !wrapped_); }
  bool in_exception() const { return exception_depth_ >= 0 && depth_ == exception_depth_; }
  bool integer(long long v) {
    if (!at_job()) return true;
    if (key_ == "returncode") job_.returncode = v;
    else if (key_ == "waitstatus") job_.waitstatus = v;
    else if (key_ == "state") job_.state_bit = v;
    else if (key_ == "result") job_.result_bit = v;
    return true;
  }
  bool refuse(std::string why) {
    mistake = std::move(why);
    return false;
  }
  int depth_ = 0, job_depth_ = -1, exception_depth_ = -1;
  bool wrapped_ = false, in_list_ = false;
  std::string key_, root_key_;
  JobFields job_;
};

// One JSON text's jobs, or why it is not flux jobs' answer.
Result<std::vector<NativeStatus>> read_jobs(std::string_view text, const std::string& where) {
  JobsReader reader;
  if (!json::sax_parse(text, &reader)) {
    if (!reader.mistake.empty()) return err(where + reader.mistake);
    return err(where + "not JSON: " + excerpt(std::string(trim(text)).substr(0, 120)));
  }
  return std::move(reader.statuses);
}

}  // namespace

Result<std::vector<std::string>> parse_flux_submit(std::string_view out) {
  std::vector<std::string> ids;
  for (std::string_view line : split(out, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    auto id = flux_ascii_id(line);
    if (!id) return err("a line of the submit command's answer is not a Flux job id: " + excerpt(std::string(line)));
    ids.push_back(*id);
  }
  if (ids.empty()) return err("the submit command printed no Flux job id");
  return ids;
}

Result<std::vector<NativeStatus>> parse_flux_jobs(std::string_view out) {
  if (trim(out).empty()) return std::vector<NativeStatus>{};
  auto whole = read_jobs(out, "");
  if (whole || out.find('\n') == std::string_view::npos || !trim(out).starts_with("{")) return whole;
  // job-list's own records: a JSON object a line.
  std::vector<NativeStatus> statuses;
  std::size_t number = 0;
  for (std::string_view line : split(out, '\n')) {
    ++number;
    if (trim(line).empty()) continue;
    auto jobs = read_jobs(line, "line " + std::to_string(number) + ": ");
    if (!jobs) return jobs.failure();
    for (auto& s : *jobs) statuses.push_back(std::move(s));
  }
  return statuses;
}

std::optional<int> flux_returncode(bool inactive, std::string_view result, std::optional<long long> waitstatus) {
  if (!inactive) return std::nullopt;
  if (waitstatus) {
    const auto w = static_cast<int>(*waitstatus);
    if ((w & 0x7f) != 0 && (w & 0x7f) != 0x7f) return -(w & 0x7f);  // WIFSIGNALED: -WTERMSIG
    return (w >> 8) & 0xff;                                          // WEXITSTATUS
  }
  if (result == "CANCELED") return -128;
  return 1;
}

}  // namespace yard
