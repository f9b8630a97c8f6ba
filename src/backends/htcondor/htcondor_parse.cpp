#include "backends/htcondor/htcondor_parse.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <regex>

#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

using nlohmann::json;

// A whole number: a JSON integer, or a real one without a fraction (ClassAd times may be
// written either way).
std::optional<long long> number(const json& ad, const char* key) {
  auto it = ad.find(key);
  if (it == ad.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<long long>();
  if (it->is_number_float()) {
    const double d = it->get<double>();
    if (d >= -9.2e18 && d <= 9.2e18 && d == static_cast<double>(static_cast<long long>(d)))
      return static_cast<long long>(d);
  }
  return std::nullopt;
}

std::string text(const json& ad, const char* key) {
  auto it = ad.find(key);
  if (it == ad.end() || !it->is_string()) return "";
  std::string s = it->get<std::string>();
  return s.starts_with("/Expr(") ? "" : s;  // an expression, not a value
}

Result<NativeStatus> status_of(const json& ad, std::string_view where) {
  if (!ad.is_object()) return err(std::string(where) + ": a job ad is not a JSON object");
  const auto cluster = number(ad, "ClusterId"), proc = number(ad, "ProcId");
  if (!cluster || !proc || *cluster < 0 || *proc < 0)
    return err(std::string(where) + ": a job ad without a ClusterId and ProcId");
  NativeStatus s;
  s.submission_id = std::to_string(*cluster);
  s.native_id = s.submission_id + "." + std::to_string(*proc);
  const auto status = number(ad, "JobStatus");
  s.raw_state = status ? std::to_string(*status) : "";
  s.name = text(ad, "JobBatchName");
  s.reason = status == 3 ? text(ad, "RemoveReason") : text(ad, "HoldReason");
  if (auto by_signal = ad.find("ExitBySignal"); by_signal != ad.end() && by_signal->is_boolean() && by_signal->get<bool>()) {
    if (auto sig = number(ad, "ExitSignal")) s.signal = static_cast<int>(*sig);
  } else if (auto code = number(ad, "ExitCode")) {
    s.exit_code = static_cast<int>(*code);
  }
  if (auto t = number(ad, "JobStartDate"); t && *t > 0) s.start_time = static_cast<double>(*t);
  if (auto t = number(ad, "CompletionDate"); t && *t > 0) s.end_time = static_cast<double>(*t);
  else if (auto entered = number(ad, "EnteredCurrentStatus"); entered && (status == 3 || status == 5))
    s.end_time = static_cast<double>(*entered);
  std::string host = text(ad, "RemoteHost");  // "slot1@node7": the machine
  if (auto at = host.find('@'); at != std::string::npos) host = host.substr(at + 1);
  s.node_list = host;
  for (const char* key : {"HoldReasonCode", "HoldReasonSubCode", "NumJobStarts"})
    if (auto v = number(ad, key)) s.events.push_back(std::string(key) + "=" + std::to_string(*v));
  return s;
}

}  // namespace

Result<std::string> parse_condor_submit(std::string_view out) {
  static const std::regex terse(R"(^\s*(\d{1,18})\.\d+ - \d{1,18}\.\d+\s*$)");
  static const std::regex plain(R"(\d+ job\(s\) submitted to cluster (\d{1,18})\.?)");
  for (std::string_view line : split(out, '\n')) {
    std::smatch m;
    const std::string l(line);
    if (std::regex_search(l, m, terse) || std::regex_search(l, m, plain)) return m[1].str();
  }
  return err("condor_submit printed no cluster (\"6.0 - 6.0\" or \"1 job(s) submitted to cluster 6.\"): " +
             excerpt(std::string(trim(out))));
}

Result<std::vector<NativeStatus>> parse_condor_ads(std::string_view out) {
  std::vector<NativeStatus> statuses;
  if (trim(out).empty()) return statuses;  // no job matched: HTCondor prints nothing
  const json whole = json::parse(out, nullptr, false);
  if (!whole.is_discarded()) {
    const bool list = whole.is_array();
    std::size_t i = 0;
    for (const auto& ad : list ? whole : json::array({whole})) {
      auto s = status_of(ad, "job ad " + std::to_string(++i));
      if (!s) return s.failure();
      statuses.push_back(std::move(*s));
    }
    return statuses;
  }
  // -jsonl: an ad a line.
  std::size_t number = 0;
  for (std::string_view line : split(out, '\n')) {
    ++number;
    if (trim(line).empty()) continue;
    const json ad = json::parse(line, nullptr, false);
    if (ad.is_discarded())
      return err("line " + std::to_string(number) + " is neither JSON nor a JSON line: " + excerpt(std::string(line)));
    auto s = status_of(ad, "line " + std::to_string(number));
    if (!s) return s.failure();
    statuses.push_back(std::move(*s));
  }
  return statuses;
}

std::optional<long long> condor_event(const NativeStatus& s, std::string_view name) {
  for (const auto& e : s.events) {
    if (e.size() <= name.size() || !e.starts_with(name) || e[name.size()] != '=') continue;
    long long v = 0;
    const char* begin = e.data() + name.size() + 1;
    if (std::from_chars(begin, e.data() + e.size(), v).ec == std::errc()) return v;
  }
  return std::nullopt;
}

}  // namespace yard
