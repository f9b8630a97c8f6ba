// libFuzzer target for what Slurm's commands as front ends read from their users: squeue's
// -o and -O column specs, sacct's --format, Slurm's time forms (sacct -S/-E) and job
// states lists, and a value fitted to each column parsed. Nothing may crash, hang or read
// out of bounds, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontends/slurm/field_format.h"
#include "frontends/slurm/sacct_times.h"
#include "frontends/slurm/slurm_states.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  using namespace yard::slurm_front;
  for (const auto& item : parse_percent_format(text)) (void)fit(text, item, true, item.right);
  if (auto named = parse_named_format(text, 20))
    for (const auto& item : *named) (void)fit(text, item);
  if (auto sacct = parse_sacct_format(text))
    for (const auto& item : *sacct) (void)fit(text, item, true);
  (void)slurm_time_of(text, 1.7e9);
  (void)yard_states_of(text);
  return 0;
}
