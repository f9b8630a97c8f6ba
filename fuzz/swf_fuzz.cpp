// libFuzzer target for the SWF reader, strict and lenient, and for the simulator on
// whatever small workload the bytes describe. Nothing may crash, hang, overflow or read
// out of bounds, whatever the bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sched/policy.h"
#include "sim/simulator.h"
#include "sim/swf_reader.h"
#include "sim/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)yard::sim::parse_swf(text, {.lenient = false});
  auto trace = yard::sim::parse_swf(text, {.lenient = true});
  if (!trace.ok() || trace->records.size() > 64) return 0;
  const yard::sim::Procs machine = std::clamp<std::int64_t>(trace->max_procs.value_or(16), 1, 4096);
  const auto jobs = yard::sim::jobs_from_swf(*trace, machine);
  for (const auto& policy : {yard::sched::Policy::easy(), yard::sched::Policy::conservative(),
                             yard::sched::Policy::sjbf()}) {
    (void)yard::sim::simulate(jobs, machine, policy);
  }
  return 0;
}
