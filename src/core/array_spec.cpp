#include "core/array_spec.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "core/text.h"

namespace yard {
namespace {

bool to_int(std::string_view s, std::int64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

}  // namespace

Result<ArraySpec> parse_array_spec(std::string_view text, std::int64_t max_elements) {
  auto bad = [&](const std::string& why) {
    return err("invalid array '" + std::string(text) + "': " + why +
               " (accepted: e.g. 0-15, 1,3,5-9:2, 1-1000%50)");
  };
  ArraySpec spec;
  std::string_view ranges = trim(text);
  if (auto pct = ranges.find('%'); pct != std::string_view::npos) {
    std::int64_t t = 0;
    if (!to_int(ranges.substr(pct + 1), t) || t < 1 || t > 1'000'000)
      return bad("the throttle after % must be a positive number");
    spec.max_running = static_cast<int>(t);
    ranges = ranges.substr(0, pct);
  }
  if (ranges.empty()) return bad("no indices");
  for (std::string_view part : split(ranges, ',')) {
    std::int64_t step = 1, lo = 0, hi = 0;
    if (auto colon = part.find(':'); colon != std::string_view::npos) {
      if (!to_int(part.substr(colon + 1), step) || step < 1) return bad("step must be a positive number");
      part = part.substr(0, colon);
    }
    if (auto dash = part.find('-'); dash != std::string_view::npos) {
      if (!to_int(part.substr(0, dash), lo) || !to_int(part.substr(dash + 1), hi))
        return bad("'" + std::string(part) + "' is not a range of non-negative numbers");
      if (hi < lo) return bad("range end is below its start");
    } else {
      if (!to_int(part, lo)) return bad("'" + std::string(part) + "' is not a non-negative number");
      hi = lo;
    }
    // (hi - lo) / step + 1 elements, compared without adding: 0-9223372036854775807 is
    // one more than the largest integer.
    if ((hi - lo) / step >= max_elements - static_cast<std::int64_t>(spec.indices.size()))
      return bad("more than " + std::to_string(max_elements) + " elements");
    // Counted, not `i += step` up to hi: near the top of the integers that would overflow.
    for (std::int64_t k = 0, n = (hi - lo) / step; k <= n; ++k) spec.indices.push_back(lo + k * step);
  }
  std::sort(spec.indices.begin(), spec.indices.end());
  spec.indices.erase(std::unique(spec.indices.begin(), spec.indices.end()), spec.indices.end());
  return spec;
}

std::string array_text(const ArraySpec& array) {
  std::string out;
  const auto& ix = array.indices;
  for (std::size_t i = 0; i < ix.size();) {
    // Longest run with one step from ix[i]; a run of two with a step above 1 is
    // clearer written as two numbers.
    std::size_t j = i + 1;
    const std::int64_t step = j < ix.size() ? ix[j] - ix[i] : 1;
    while (j + 1 < ix.size() && ix[j + 1] - ix[j] == step) ++j;
    if (!out.empty()) out += ',';
    const std::size_t len = j < ix.size() ? j - i + 1 : 1;
    if (len >= 3 || (len == 2 && step == 1)) {
      out += std::to_string(ix[i]) + "-" + std::to_string(ix[j]);
      if (step != 1) out += ":" + std::to_string(step);
      i = j + 1;
    } else {
      out += std::to_string(ix[i]);
      i += 1;
    }
  }
  if (array.max_running > 0) out += "%" + std::to_string(array.max_running);
  return out;
}

}  // namespace yard
