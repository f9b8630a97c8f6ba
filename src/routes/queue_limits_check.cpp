#include "routes/queue_limits_check.h"

#include "core/duration.h"
#include "core/size.h"

namespace yard {
namespace {

// What of class `c` is above queue `q`'s limits ("time 2-00:00:00 is above ... 1-00:00:00"), or "".
std::string above(const SizeClass& c, const QueueLimits& q, const std::string& queue) {
  const std::string its = "queue " + queue + "'s limit of ";
  if (c.time_s && q.time_s && c.time_s > q.time_s)
    return "its time " + format_walltime(c.time_s) + " is above " + its + format_walltime(q.time_s);
  if (c.cpus && q.cpus && c.cpus > q.cpus)
    return "its " + std::to_string(c.cpus) + " CPUs are above " + its + std::to_string(q.cpus);
  if (c.mem_bytes && q.mem_bytes && c.mem_bytes > q.mem_bytes)
    return "its memory " + format_bytes(c.mem_bytes) + " is above " + its + format_bytes(q.mem_bytes);
  return "";
}

std::string names(const std::map<std::string, QueueLimits>& queues) {
  std::string out;
  for (const auto& [name, limits] : queues) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

}  // namespace

Status check_queue_limits(const Routes& routes, const QueueListingOf& listing_of) {
  if (!listing_of) return {};
  for (const auto& [backend, target] : routes.targets) {
    const QueueListing* listing = listing_of(backend);
    if (!listing || listing->version == 0) continue;
    for (const auto& [cls, queue] : target.queues) {
      auto w = target.queue_where.find(cls);
      const std::string at = (w != target.queue_where.end() ? w->second : target.where) + ": targets: " + backend +
                             ": queues: " + cls + ": ";
      auto q = listing->queues.find(queue);
      if (q == listing->queues.end()) {
        if (listing->complete)
          return err(at + "'" + queue + "' is not a queue of " + backend + "'s scheduler (its queues: " +
                     names(listing->queues) + ")");
        continue;
      }
      for (const auto& c : routes.classes)
        if (c.name == cls)
          if (auto why = above(c, q->second, queue); !why.empty())
            return err(at + "class " + cls + " (" + c.where + "): " + why + " on " + backend);
    }
  }
  return {};
}

nlohmann::json queue_listing_json(const QueueListing& listing) {
  nlohmann::json queues = nlohmann::json::object();
  for (const auto& [name, q] : listing.queues)
    queues[name] = {{"time_s", q.time_s}, {"cpus", q.cpus}, {"mem_bytes", q.mem_bytes}};
  return {{"read", listing.version > 0}, {"complete", listing.complete}, {"problem", listing.problem}, {"queues", queues}};
}

QueueListing queue_listing_from_json(const nlohmann::json& j) {
  QueueListing l;
  if (!j.is_object()) return l;
  l.version = j.value("read", false) ? 1 : 0;
  l.complete = j.value("complete", false);
  l.problem = j.value("problem", std::string());
  if (j.contains("queues") && j["queues"].is_object())
    for (const auto& [name, q] : j["queues"].items())
      if (q.is_object())
        l.queues[name] = {q.value("time_s", std::int64_t{0}), q.value("cpus", std::int64_t{0}),
                          q.value("mem_bytes", std::uint64_t{0})};
  return l;
}

}  // namespace yard
