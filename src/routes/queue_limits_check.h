// routes.yaml's classes against the queues they are sent to: a class whose stated limit
// is above its queue's (a class of 2 days sent to a queue of 1 day), or sent to a queue
// its scheduler does not have, would have every job of it refused by the scheduler, one
// by one at submission. The routes are refused instead, naming the line of the queue.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/queue_limits.h"
#include "core/result.h"
#include "routes/routes.h"

namespace yard {

// A backend's last reading of its queues (nullptr: not read yet, or its scheduler has no
// queue listing yard reads; its queues are then not checked).
using QueueListingOf = std::function<const QueueListing*(const std::string& backend)>;

// The first queue of `routes` that breaks: "routes.yaml:12: targets: slurm: queues:
// small: ...", or nothing. A limit a class does not state, or a queue does not, is not
// compared.
Status check_queue_limits(const Routes& routes, const QueueListingOf& listing_of);

// A listing as JSON, {"read", "complete", "problem", "queues": {NAME: {"time_s", "cpus",
// "mem_bytes"}}} (yard routes --json), and back (yard routes check asks the daemon).
nlohmann::json queue_listing_json(const QueueListing& listing);
QueueListing queue_listing_from_json(const nlohmann::json& j);

}  // namespace yard
