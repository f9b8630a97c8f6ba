// An OAR job seen as an allocation, for direct mode (`--backend oar-steps`): its state
// and its cores, each with the host it is on, in OAR's order (as OAR_NODEFILE lists them,
// one line per core). Read from `oarstat -p -j ID` outside the job, or from the job's own
// $OAR_RESOURCE_PROPERTIES_FILE inside it: both are one line per resource,
// ` key = 'value' , key = 'value' ...` (tests/fixtures/oar/README.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace yard {

struct OarAllocation {
  std::string job_id;
  std::vector<std::string> slots;  // the host of each core, a host's cores together
  int gpus = 0;                    // distinct GPUs (by the site's GPU resource name) on its hosts
  int nodes() const;
};

// The resources of job `id`.
std::vector<std::string> oarstat_resources_argv(const std::string& id);
// `oarstat -J -f -j ID`: its state (dialect's reader gives it as raw_state).
std::vector<std::string> oarstat_allocation_argv(const std::string& id);

// One resource line's properties, in the line's order; an error names what is wrong.
Result<std::vector<std::pair<std::string, std::string>>> parse_oar_resource_line(std::string_view line);

// Every resource line of `text`; GPUs counted by the property `gpu_resource` (none when
// empty). No lines at all (an unknown job) is an error naming the job.
Result<OarAllocation> parse_oar_resources(std::string_view text, const std::string& id, const std::string& gpu_resource);

}  // namespace yard
