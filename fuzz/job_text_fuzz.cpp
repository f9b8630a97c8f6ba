// libFuzzer target for every parser of user-written job text: #SBATCH directives of a
// batch script, walltimes, memory sizes, array and dependency expressions, run records.
// None may crash, hang or read out of bounds, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/array_spec.h"
#include "core/batch_directives.h"
#include "core/dependency.h"
#include "core/duration.h"
#include "core/size.h"
#include "local/run_record.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)yard::read_batch_directives(text, "fuzz.sh");
  (void)yard::parse_walltime(text);
  (void)yard::parse_memory_size(text);
  (void)yard::parse_array_spec(text, 10000);
  (void)yard::parse_dependencies(text);
  (void)yard::parse_run_record(text);
  return 0;
}
