// A step's `retry:` (core/retry_policy.h), as a flow file writes it:
//   retry: 3                              # 3 tries more on OUT_OF_MEMORY, TIMEOUT, NODE_FAIL, LOST
//   retry: {times: 3, on: [OUT_OF_MEMORY, TIMEOUT], exit: [137], backoff: 30s,
//           grow: {mem: 2x, time: 1.5x}, cap: {mem: 64G, time: "4:00:00"}}
#pragma once

#include <string>

#include "core/retry_policy.h"
#include "flow/yaml_tree.h"

namespace yard {

// Errors are "path:LINE: retry: why".
Result<RetryPolicy> read_retry(const std::string& path, const YamlNode& node);

}  // namespace yard
