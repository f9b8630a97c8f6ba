// What a reader of a scheduler's queue listing must give for any bytes: an error, or
// queues with limits that are never negative.
#pragma once

#include <cstdlib>

#include "core/queue_limits.h"
#include "core/result.h"

inline void check_queue_listing(const yard::Result<yard::QueueListing>& r) {
  if (!r) return;
  for (const auto& [name, q] : r->queues)
    if (q.time_s < 0 || q.cpus < 0) std::abort();
}
