// What the scheduler allows: the limits of the queues routes.yaml sends jobs to, read from
// its own queue listing (Dialect::queue_limits_argv) at once when the routes name them,
// then every 10 minutes (a queue's limits change rarely; the listing is one background
// call), the routes checked against them (routes/queue_limits_check.h) whenever they
// change; and the most elements of one array, read once from its configuration, against
// which an array is checked at submission.
#include <algorithm>

#include "backends/indirect_backend.h"
#include "backends/indirect_shared.h"

namespace yard {

using indirect::log;

namespace {
constexpr double kQueueListingEvery = 600;
constexpr double kQueueListingRetry = 60;  // after a failed listing
}  // namespace

void IndirectBackend::want_queue_limits(const std::set<std::string>& queues) {
  if (queues == queues_.wanted) return;
  queues_.wanted = queues;
  queues_.listable = !queues.empty() && !dialect_.queue_limits_argv({queues.begin(), queues.end()}).empty();
  queues_.next_at = 0;  // read them at the next step
}

void IndirectBackend::plan_queue_limits(double now) {
  QueueReading& q = queues_;
  if (!q.listable || q.in_flight || now < q.next_at || !health_.down_why.empty()) return;
  if (!background_.try_take(now)) return;
  q.in_flight = true;
  q.next_at = now + kQueueListingEvery;
  plan(Kind::QueueLimits, dialect_.queue_limits_argv({q.wanted.begin(), q.wanted.end()}), {});
}

void IndirectBackend::apply_queue_limits(const CommandResult& r, double now) {
  QueueReading& q = queues_;
  q.in_flight = false;
  auto read = r.ok() ? dialect_.parse_queue_limits(r.out) : Result<QueueListing>(err(r.summary()));
  if (!read) {
    // The last line a command printed says most (Slurm's ends in "fatal: ..."): one line.
    std::string said = indirect::first_lines(r.err.empty() ? read.error() : r.err, 100000);
    said = said.substr(said.rfind('\n') == std::string::npos ? 0 : said.rfind('\n') + 1).substr(0, 200);
    if (said != q.listing.problem) log(dialect_.name(), "its queues' limits could not be read: " + said);
    q.listing.problem = said;
    q.next_at = now + std::min(kQueueListingRetry, kQueueListingEvery);
    return;
  }
  q.listing.problem.clear();
  if (q.listing.version > 0 && read->queues == q.listing.queues && read->complete == q.listing.complete) return;
  q.listing.queues = std::move(read->queues);
  q.listing.complete = read->complete;
  ++q.listing.version;
}

void IndirectBackend::plan_array_limit(double now) {
  ArrayLimitReading& a = array_limit_;
  if (a.done || a.in_flight || now < a.next_at || !health_.down_why.empty()) return;
  // Read once the backend is used (a job here, or a queue routes.yaml names), so that an
  // idle daemon runs no scheduler's command.
  if (members_.empty() && queues_.wanted.empty()) return;
  if (!background_.try_take(now)) return;
  a.in_flight = true;
  plan(Kind::ArrayLimit, dialect_.array_limit_argv(), {});
}

void IndirectBackend::apply_array_limit(const CommandResult& r, double now) {
  ArrayLimitReading& a = array_limit_;
  a.in_flight = false;
  auto limit = r.ok() ? dialect_.parse_array_limit(r.out) : std::nullopt;
  if (!limit) {  // its default holds meanwhile
    log(dialect_.name(), "its array limit could not be read (" + (r.ok() ? std::string("unreadable") : r.summary()) +
                             "); until it is, " + std::to_string(dialect_.default_array_limit()) + " (its default)");
    a.next_at = now + kQueueListingEvery;
    return;
  }
  a.read = *limit;
  a.done = true;
}

std::int64_t IndirectBackend::max_array_size() const {
  if (config_.max_array_size > 0) return config_.max_array_size;
  return array_limit_.read ? *array_limit_.read : dialect_.default_array_limit();
}

Status IndirectBackend::array_within_limit(const JobSpec& spec) const {
  if (!spec.array || spec.array->indices.empty()) return {};
  // A limit the scheduler's configuration may say otherwise is not held against a job
  // before it was read: the scheduler itself refuses what it does not take.
  if (array_limit_.readable && !array_limit_.read) return {};
  const std::int64_t limit = max_array_size();
  if (limit <= 0) return {};
  const std::string whose = config_.max_array_size > 0 ? "max_array_size in " + std::string(dialect_.name()) + ".yaml"
                            : array_limit_.read        ? std::string(dialect_.name()) + "'s configuration"
                                                       : std::string(dialect_.name()) + "'s default";
  if (dialect_.array_limit_is_on_indices()) {
    const std::int64_t highest = spec.array->indices.back();
    if (highest >= limit)
      return err("--array: index " + std::to_string(highest) + " is above the highest backend " +
                 std::string(dialect_.name()) + " takes, " + std::to_string(limit - 1) + " (" + whose + ": " +
                 std::to_string(limit) + ")");
    return {};
  }
  const auto n = static_cast<std::int64_t>(spec.array->indices.size());
  if (n > limit)
    return err("--array: " + std::to_string(n) + " elements are more than backend " + std::string(dialect_.name()) +
               " takes in one array, " + std::to_string(limit) + " (" + whose + "); split it");
  return {};
}

}  // namespace yard
