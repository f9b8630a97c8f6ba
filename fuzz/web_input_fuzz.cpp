// libFuzzer target for what the web service reads from people: an admin's template (YAML)
// and a user's form values (JSON) checked against a template and filled into its jobs.
// Whatever the bytes: a template or an error naming where, values or the field at fault;
// never a crash, a hang or a read out of bounds. The first byte chooses which.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "web/templates.h"

namespace {

const char* kTemplate = R"(title: Fuzzed
fields:
  - {name: count, type: integer, min: 1, max: 10, default: 3}
  - {name: ratio, type: number, min: 0, max: 1}
  - {name: colour, type: choice, choices: [red, blue]}
  - {name: note, type: text, max_length: 50, default: hi}
  - {name: input, type: file}
steps:
  - {name: a, options: {cpus-per-task: "{count}"}, command: [echo, "{note}"]}
  - {name: b, needs: [a], script: "#!/bin/sh\n"}
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    auto t = yard::web::parse_template("fuzzed", std::string(text), "fuzzed.yaml");
    if (t) (void)yard::web::describe(*t);
    return 0;
  }
  static const auto t = yard::web::parse_template("fuzzed", kTemplate, "fuzzed.yaml");
  auto values = nlohmann::json::parse(text, nullptr, false);
  if (values.is_discarded()) return 0;
  auto checked = yard::web::check_values(*t, values);
  if (auto* good = std::get_if<nlohmann::json>(&checked)) (void)yard::web::fill(*t, *good);
  return 0;
}
