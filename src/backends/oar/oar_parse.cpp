#include "backends/oar/oar_parse.h"

#include <nlohmann/json.hpp>

#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() < 19 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// A string field, or "" when absent or null.
std::string text_of(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// An integer field (OAR prints numbers, sometimes as strings), or nothing when absent,
// null or not a whole number.
std::optional<long long> number_of(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<long long>();
  if (it->is_string() && all_digits(it->get<std::string>())) return std::stoll(it->get<std::string>());
  return std::nullopt;
}

// OAR's times are Unix seconds, 0 when the job never got there.
std::optional<double> time_of(const nlohmann::json& j, const char* key) {
  auto t = number_of(j, key);
  if (!t || *t <= 0) return std::nullopt;
  return static_cast<double>(*t);
}

}  // namespace

Result<OarSubmission> parse_oarsub(std::string_view out, std::string_view err_text) {
  OarSubmission s;
  std::string words;  // OAR's other lines, for a refusal's message
  for (std::string_view line : split(out, '\n')) {
    const std::string_view t = trim(line);
    if (starts_with(t, "OAR_JOB_ID=")) {
      const std::string_view id = t.substr(11);
      if (!all_digits(id)) {
        // A refusal (-5: not enough resources, ...): OAR's reasons are its other lines.
        std::string why = words;
        for (std::string_view e : split(err_text, '\n'))
          if (!trim(e).empty()) why += (why.empty() ? "" : "; ") + std::string(trim(e));
        return err("OAR refused the job (OAR_JOB_ID=" + std::string(id) + ")" + (why.empty() ? "" : ": " + why));
      }
      s.job_ids.emplace_back(id);
    } else if (starts_with(t, "OAR_ARRAY_ID=")) {
      if (!all_digits(t.substr(13))) return err("oarsub printed " + std::string(t) + ", which is no array id");
      s.array_id = std::string(t.substr(13));
    } else if (!t.empty()) {
      words += (words.empty() ? "" : "; ") + std::string(t);
    }
  }
  if (s.job_ids.empty()) return err("oarsub printed no job id" + std::string(words.empty() ? "" : ": ") + words);
  return s;
}

Result<std::vector<NativeStatus>> parse_oarstat_json(std::string_view out) {
  std::vector<NativeStatus> v;
  if (trim(out).empty()) return v;
  const auto doc = nlohmann::json::parse(out, nullptr, false);
  if (doc.is_discarded()) return err("oarstat -J: not JSON");
  if (!doc.is_object()) return err("oarstat -J: expected an object of jobs by id");
  for (const auto& [key, job] : doc.items()) {
    if (!all_digits(key)) return err("oarstat -J: job key '" + excerpt(key) + "' is not a job id");
    if (!job.is_object()) return err("oarstat -J: job " + key + " is not an object");
    NativeStatus s;
    s.native_id = key;
    s.raw_state = text_of(job, "state");
    if (s.raw_state.empty()) return err("oarstat -J: job " + key + " has no state");
    s.name = text_of(job, "name");
    // An array element is a job of its own; its array is named by the first one's id.
    if (auto array = number_of(job, "array_id"); array && *array > 0) s.submission_id = std::to_string(*array);
    s.reason = text_of(job, "message");
    s.start_time = time_of(job, "startTime");
    s.end_time = time_of(job, "stopTime");
    if (auto hosts = job.find("assigned_network_address"); hosts != job.end() && hosts->is_array())
      for (const auto& h : *hosts)
        if (h.is_string()) s.node_list += (s.node_list.empty() ? "" : ",") + h.get<std::string>();
    if (auto events = job.find("events"); events != job.end() && events->is_array())
      for (const auto& e : *events)
        if (e.is_object() && !text_of(e, "type").empty()) s.events.push_back(text_of(e, "type"));
    // The raw wait status: exit status in bits 8-15, or the killing signal in bits 0-6.
    if (auto w = number_of(job, "exit_code")) {
      if (*w < 0 || *w > 0xffff) return err("oarstat -J: job " + key + " has exit_code " + std::to_string(*w));
      if ((*w & 0x7f) == 0) s.exit_code = static_cast<int>((*w >> 8) & 0xff);
      else s.signal = static_cast<int>(*w & 0x7f);
    }
    v.push_back(std::move(s));
  }
  return v;
}

}  // namespace yard
