#include "backends/output_paths.h"

#include "core/output_pattern.h"

namespace yard {
namespace {

// `%a` (and `%j` of an array element, which the scheduler cannot name for us) stay the
// scheduler's; everything else yard expands itself, so `yard logs` finds the files.
std::string expand_for(std::string pattern, const JobSpec& spec, std::int64_t head, bool is_array,
                       const std::string& user) {
  if (is_array) {
    std::string p;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      if (pattern[i] == '%' && i + 1 < pattern.size()) {
        char c = pattern[i + 1];
        if (c == 'a') { p += '\x01'; ++i; continue; }
        if (c == 'j') { p += "%A_\x01"; ++i; continue; }
        if (c == '%') { p += "%%"; ++i; continue; }
      }
      p += pattern[i];
    }
    pattern = p;
  }
  PatternValues v;
  v.job_id = head;
  v.name = spec.name;
  v.array_job_id = head;
  v.user = user;
  std::string path = expand_output_pattern(pattern, v);
  if (!path.empty() && path[0] != '/') path = spec.workdir + "/" + path;
  return path;
}

std::string native_form(const std::string& tmpl) {
  std::string out;
  for (char c : tmpl) {
    if (c == '%') out += "%%";
    else if (c == '\x01') out += "%a";
    else out += c;
  }
  return out;
}

}  // namespace

std::string member_path(const std::string& tmpl, std::optional<std::int64_t> index) {
  std::string out;
  for (char c : tmpl) {
    if (c == '\x01') out += index ? std::to_string(*index) : std::string();
    else out += c;
  }
  return out;
}

OutputPaths output_paths(const JobSpec& spec, std::int64_t head, bool is_array, const std::string& user) {
  OutputPaths p;
  std::string out = spec.stdout_path.empty() ? (is_array ? "yard-%A_%a.out" : "yard-%j.out") : spec.stdout_path;
  p.out_template = expand_for(out, spec, head, is_array, user);
  p.native_out = native_form(p.out_template);
  if (!spec.stderr_path.empty()) {
    p.err_template = expand_for(spec.stderr_path, spec, head, is_array, user);
    p.native_err = native_form(p.err_template);
  }
  return p;
}

}  // namespace yard
