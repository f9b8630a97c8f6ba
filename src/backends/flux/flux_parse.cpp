#include "backends/flux/flux_parse.h"

#include <nlohmann/json.hpp>

#include "backends/flux/flux_ids.h"
#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

using nlohmann::json;

std::optional<long long> whole(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<long long>();
  if (it->is_number_float()) {
    const double d = it->get<double>();
    if (d >= -9.2e18 && d <= 9.2e18) return static_cast<long long>(d);
  }
  return std::nullopt;
}

std::optional<double> seconds(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number() || it->get<double>() <= 0) return std::nullopt;
  return it->get<double>();
}

std::string text(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// A state or result by name, or by job-list's bit for it.
std::string named(const json& j, const char* key, std::initializer_list<std::pair<long long, const char*>> names) {
  if (auto it = j.find(key); it != j.end() && it->is_string()) return it->get<std::string>();
  if (auto bit = whole(j, key)) {
    for (auto [value, name] : names)
      if (value == *bit) return name;
    return std::to_string(*bit);
  }
  return "";
}

Result<NativeStatus> status_of(const json& j, const std::string& where) {
  if (!j.is_object()) return err(where + ": a job is not a JSON object");
  NativeStatus s;
  if (auto it = j.find("id"); it != j.end() && it->is_number_unsigned()) s.native_id = flux_f58(it->get<std::uint64_t>());
  else if (auto id = flux_ascii_id(text(j, "jobid"))) s.native_id = *id;
  else return err(where + ": a job without an id");
  const std::string state = named(j, "state", {{1, "NEW"}, {2, "DEPEND"}, {4, "PRIORITY"}, {8, "SCHED"}, {16, "RUN"},
                                               {32, "CLEANUP"}, {64, "INACTIVE"}});
  const std::string result = named(j, "result", {{1, "COMPLETED"}, {2, "FAILED"}, {4, "CANCELED"}, {8, "TIMEOUT"}});
  s.raw_state = result.empty() ? state : state + " " + result;
  s.name = text(j, "name");
  s.node_list = text(j, "nodelist");
  s.start_time = seconds(j, "t_run");
  s.end_time = seconds(j, "t_inactive");
  std::string type, note;
  if (auto ex = j.find("exception"); ex != j.end() && ex->is_object()) {
    if (ex->value("occurred", false)) type = text(*ex, "type"), note = text(*ex, "note");
  } else if (auto occurred = j.find("exception_occurred"); occurred != j.end() && occurred->is_boolean() && *occurred) {
    type = text(j, "exception_type"), note = text(j, "exception_note");
  }
  if (!type.empty()) s.events.push_back("exception=" + type);
  s.reason = note;
  std::optional<int> rc;
  if (auto given = whole(j, "returncode")) rc = static_cast<int>(*given);
  else rc = flux_returncode(state == "INACTIVE", result, whole(j, "waitstatus"));
  // -N: killed by signal N; 128+N: a task was, and the job shell said so (flux-submit's
  // "the job exit status is 128+signo"); -128: cancelled before it ran, no exit at all.
  if (rc && *rc < 0 && *rc > -128) s.signal = -*rc;
  else if (rc && *rc > 128 && *rc < 128 + 65) s.signal = *rc - 128;
  else if (rc && *rc >= 0) s.exit_code = *rc;
  return s;
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
  std::vector<NativeStatus> statuses;
  if (trim(out).empty()) return statuses;
  std::vector<json> jobs;
  const json whole_text = json::parse(out, nullptr, false);
  if (!whole_text.is_discarded()) {
    if (whole_text.is_object() && whole_text.contains("jobs")) {
      if (!whole_text["jobs"].is_array()) return err("flux jobs: \"jobs\" is not a list");
      for (const auto& j : whole_text["jobs"]) jobs.push_back(j);
    } else {
      jobs.push_back(whole_text);  // one id asked for: its object alone
    }
  } else {
    std::size_t number = 0;
    for (std::string_view line : split(out, '\n')) {
      ++number;
      if (trim(line).empty()) continue;
      json j = json::parse(line, nullptr, false);
      if (j.is_discarded())
        return err("line " + std::to_string(number) + " is neither JSON nor a JSON line: " + excerpt(std::string(line)));
      jobs.push_back(std::move(j));
    }
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    auto s = status_of(jobs[i], "job " + std::to_string(i + 1));
    if (!s) return s.failure();
    statuses.push_back(std::move(*s));
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
