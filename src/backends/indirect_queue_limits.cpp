// The limits of the queues routes.yaml sends jobs to, read from the scheduler's own queue
// listing (Dialect::queue_limits_argv) at once when the routes name them, then every 10
// minutes: a queue's limits change rarely, and the listing is one background call. The
// routes are checked against them (routes/queue_limits_check.h) whenever they change.
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

}  // namespace yard
