#include "backends/output_paths.h"

#include "core/output_pattern.h"

namespace yard {
namespace {

// In a template, the array index is '\x01' followed by its zero-padding width as one
// character, '0' + width (core/output_pattern.h: at most 10).
constexpr char kIndex = '\x01';

// `%a` (and `%j` of an array element, which the scheduler cannot name for us) stay the
// scheduler's; everything else yard expands itself, so `yard logs` finds the files. A
// pattern with a backslash expands nothing (as in Slurm), so it is left whole.
std::string expand_for(std::string pattern, const JobSpec& spec, std::int64_t head, bool is_array,
                       const std::string& user) {
  if (is_array && pattern.find('\\') == std::string::npos) {
    std::string p;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      if (pattern[i] == '%' && i + 1 < pattern.size()) {
        if (pattern[i + 1] == '%') { p += "%%"; ++i; continue; }
        const auto [width, k] = read_pattern_sequence(pattern, i);
        const char c = k < pattern.size() ? pattern[k] : '\0';
        if (c == 'a') { p += {kIndex, static_cast<char>('0' + width)}; i = k; continue; }
        if (c == 'j') { p += std::string("%A_") + kIndex + '0'; i = k; continue; }
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
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    const char c = tmpl[i];
    if (c == '%') {
      out += "%%";
    } else if (c == kIndex && i + 1 < tmpl.size()) {
      const int width = tmpl[++i] - '0';
      out += width > 0 ? "%" + std::to_string(width) + "a" : std::string("%a");
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string member_path(const std::string& tmpl, std::optional<std::int64_t> index) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != kIndex || i + 1 == tmpl.size()) {
      out += tmpl[i];
      continue;
    }
    const auto width = static_cast<std::size_t>(tmpl[++i] - '0');
    std::string n = index ? std::to_string(*index) : std::string();
    if (index && n.size() < width) n.insert(0, width - n.size(), '0');
    out += n;
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
