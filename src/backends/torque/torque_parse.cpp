#include "backends/torque/torque_parse.h"

#include "backends/pbs/pbs_values.h"

#include <pugixml.hpp>

#include <charconv>
#include <ctime>
#include <set>

#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

// Unix seconds (the XML), or ctime's form, local (the text).
std::optional<double> time_of(std::string_view text) {
  if (auto n = pbs_integer(text)) return *n > 0 ? std::optional<double>(static_cast<double>(*n)) : std::nullopt;
  return pbs_ctime(text);
}

// The attributes torque_status_of reads.
bool kept(std::string_view name) {
  static const std::set<std::string, std::less<>> names{
      "Job_Name", "job_state", "comment", "exec_host", "start_time", "comp_time", "mtime", "exit_status",
      "start_count", "resources_used.walltime", "Resource_List.walltime"};
  return names.count(name) > 0;
}

}  // namespace

NativeStatus torque_status_of(std::string_view job_id, const PbsAttributes& a) {
  NativeStatus s;
  s.native_id = pbs_short_id(job_id).value_or(std::string(job_id));
  if (auto b = s.native_id.find('['); b != std::string::npos) s.submission_id = s.native_id.substr(0, b);
  s.raw_state = std::string(trim(pbs_attribute(a, "job_state")));
  s.name = std::string(pbs_attribute(a, "Job_Name"));
  s.reason = std::string(pbs_attribute(a, "comment"));
  s.node_list = pbs_hosts(pbs_attribute(a, "exec_host"));
  s.start_time = time_of(pbs_attribute(a, "start_time"));
  if (s.raw_state == "C") {
    s.end_time = time_of(pbs_attribute(a, "comp_time"));
    if (!s.end_time) s.end_time = time_of(pbs_attribute(a, "mtime"));
  }
  if (auto code = pbs_integer(pbs_attribute(a, "exit_status"))) {
    s.events.push_back("exit_status=" + std::to_string(*code));
    // A job still queued or running may carry the status of an earlier start.
    if (s.raw_state == "C") {
      if (*code >= 0 && *code <= 255) s.exit_code = static_cast<int>(*code);
      else if (*code > 256 && *code < 256 + 128) s.signal = static_cast<int>(*code - 256);
    }
  }
  if (auto n = pbs_integer(pbs_attribute(a, "start_count"))) s.events.push_back("start_count=" + std::to_string(*n));
  if (pbs_used_its_walltime(a)) s.events.push_back("walltime_exceeded");
  return s;
}

Result<std::vector<NativeStatus>> parse_torque_qstat_xml(std::string_view out) {
  std::vector<NativeStatus> statuses;
  std::size_t pos = 0, doc = 0;
  while ((pos = out.find("<Data", pos)) != std::string_view::npos) {
    ++doc;
    const std::size_t close = out.find("</Data>", pos);
    std::size_t end = close == std::string_view::npos ? std::string_view::npos : close + 7;
    if (close == std::string_view::npos) {
      // <Data/> alone, or a document cut short.
      const std::size_t tag_end = out.find('>', pos);
      if (tag_end != std::string_view::npos && out[tag_end - 1] == '/') {
        pos = tag_end + 1;
        continue;
      }
      return err("qstat -x: document " + std::to_string(doc) + " has no </Data>: " + excerpt(out.substr(pos, 120)));
    }
    const std::string_view text = out.substr(pos, end - pos);
    pugi::xml_document xml;
    const auto parsed = xml.load_buffer(text.data(), text.size(), pugi::parse_default & ~pugi::parse_eol);
    if (!parsed)
      return err("qstat -x: document " + std::to_string(doc) + ": " + parsed.description() + " at byte " +
                 std::to_string(parsed.offset) + ": " + excerpt(text.substr(static_cast<std::size_t>(parsed.offset), 80)));
    for (pugi::xml_node job : xml.child("Data").children("Job")) {
      const std::string id = job.child("Job_Id").text().get();
      if (!pbs_short_id(id)) return err("qstat -x: job id " + excerpt(id) + " is not N, N[] or N[I] (.server)");
      PbsAttributes a;
      for (pugi::xml_node attribute : job.children()) {
        const std::string name = attribute.name();
        if (attribute.first_child().type() == pugi::node_element) {
          for (pugi::xml_node sub : attribute.children())
            if (kept(name + "." + sub.name())) a[name + "." + sub.name()] = sub.text().get();
        } else if (kept(name)) {
          a[name] = attribute.text().get();
        }
      }
      statuses.push_back(torque_status_of(id, a));
    }
    pos = end;
  }
  if (doc == 0 && !trim(out).empty() && trim(out) != "<?xml version=\"1.0\"?>")
    return err("qstat -x printed no <Data> document: " + excerpt(trim(out).substr(0, 200)));
  return statuses;
}

Result<std::vector<NativeStatus>> parse_torque_qstat_full(std::string_view out) {
  auto jobs = read_qstat_full_text(out);
  if (!jobs) return jobs.failure();
  std::vector<NativeStatus> statuses;
  for (auto& [id, attributes] : *jobs) statuses.push_back(torque_status_of(id, attributes));
  return statuses;
}

}  // namespace yard
