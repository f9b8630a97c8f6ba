// What a scheduler's queue allows one job, as the scheduler states it in its queue
// listing (Dialect::queue_limits_argv). routes.yaml's size classes are checked against
// the limits of the queues they are sent to, so that a class no job of which its queue
// would take is refused when the routes are read, not job by job at submission.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace yard {

struct QueueLimits {
  std::int64_t time_s = 0;       // longest run time; 0: none stated
  std::int64_t cpus = 0;         // most CPUs of one job; 0: none stated
  std::uint64_t mem_bytes = 0;   // most memory of one job; 0: none stated
  bool operator==(const QueueLimits&) const = default;
};

// A backend's last reading of its queues' limits.
struct QueueListing {
  std::map<std::string, QueueLimits> queues;  // every queue the listing showed, by name
  // Whether `queues` names every queue the scheduler has (a queue absent from it does not
  // exist), or only those it was asked about and found.
  bool complete = false;
  std::uint64_t version = 0;  // grows with each reading that changed what is known
  std::string problem;        // why the last reading failed ("": it did not)
};

}  // namespace yard
