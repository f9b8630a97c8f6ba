// Reader for the Standard Workload Format (SWF) of the Parallel Workloads Archive: one job
// per line, 18 whitespace-separated numeric fields, header lines starting with ';'. Reads
// plain or gzip-compressed files. A malformed line is an error naming its line number,
// unless `lenient`, in which case it is skipped and counted. Pure parsing (parse_swf) is
// separate from file reading (read_swf) so it can be tested and fuzzed on strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace yard::sim {

// The fields of one SWF line that the simulator uses (-1 where the trace says unknown).
struct SwfRecord {
  std::int64_t id = 0;              // field 1
  std::int64_t submit = 0;          // field 2, seconds
  std::int64_t run = -1;            // field 4, seconds
  std::int64_t allocated = -1;      // field 5, processors
  std::int64_t requested = -1;      // field 8, processors
  std::int64_t requested_time = -1; // field 9, seconds (the user's estimate)
  std::int32_t user = -1;           // field 12
  std::int32_t group = -1;          // field 13
  std::int32_t queue = -1;          // field 15
  std::int32_t partition = -1;      // field 16
  std::int64_t requested_memory = -1;  // field 10, KB per processor
};

struct SwfTrace {
  std::vector<SwfRecord> records;
  std::optional<std::int64_t> max_procs;  // header "MaxProcs:"
  std::size_t skipped_lines = 0;          // malformed lines skipped when lenient
  std::string first_skipped;              // the message for the first of them
};

struct SwfOptions {
  bool lenient = false;
};

Result<SwfTrace> parse_swf(std::string_view text, const SwfOptions& options = {});
// `path` may be plain text or gzip.
Result<SwfTrace> read_swf(const std::string& path, const SwfOptions& options = {});

}  // namespace yard::sim
