// libFuzzer target for workflow files (flow/flow_file.h): whatever the bytes, a flow or
// an error naming where, never a crash, a hang or a read out of bounds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flow/flow_file.h"
#include "flow/flow_render.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto flow = yard::parse_flow(text, "fuzz.yaml", "/nonexistent", {{"HOME", "/tmp"}}, 2000);
  if (flow && flow->steps.size() <= 1000) {
    std::ostringstream out;
    yard::print_plan(out, *flow);
    yard::print_dot(out, *flow);
    yard::print_mermaid(out, *flow);
  }
  return 0;
}
