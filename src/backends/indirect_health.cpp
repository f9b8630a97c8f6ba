// Whether the scheduler answers: down after failed calls in a row (or failing for long),
// up at its first answer. routes.yaml sends new jobs for a down backend to its fallback
// (backends/backend_registry.cpp); the jobs already here stay and are never submitted
// twice: their submissions are retried with backoff, looked up first when one may have
// gone through.
#include <algorithm>

#include "backends/indirect_backend.h"
#include "backends/indirect_shared.h"

namespace yard {

using indirect::log;

void IndirectBackend::note_health(bool failed, const std::string& what, double now) {
  Health& h = health_;
  if (!failed) {
    if (!h.down_why.empty())
      log(dialect_.name(), "up: the scheduler answers again (it was down: " + h.down_why + ")");
    h.failures_in_row = 0;
    h.failing_since = 0;
    h.down_why.clear();
    h.probe_backoff = 0;
    return;
  }
  if (h.failures_in_row++ == 0) h.failing_since = now;
  const double failing_s = now - h.failing_since;
  const bool was_down = !h.down_why.empty();
  if (!was_down && h.failures_in_row < config_.down_after_failures && failing_s < config_.down_after_s) return;
  h.down_why = std::to_string(h.failures_in_row) + " failed calls in a row over " +
               std::to_string(static_cast<long>(failing_s + 0.5)) + " s, the last: " + what;
  if (was_down) return;
  log(dialect_.name(), "down: " + h.down_why + "; routes.yaml's fallback takes its new jobs until it answers again");
  h.next_probe = now + config_.poll_interval_s;
}

void IndirectBackend::plan_probe(double now) {
  Health& h = health_;
  if (h.down_why.empty() || h.probe_in_flight || poll_in_flight_ || now < h.next_probe) return;
  for (auto& [id, m] : members_)
    if (!m.native_id.empty()) return;  // the status calls for its jobs are the probes
  if (!background_.try_take(now)) return;
  h.probe_in_flight = true;
  h.probe_backoff = std::min(std::max(config_.poll_interval_s, h.probe_backoff * 2), config_.retry_max_s);
  h.next_probe = now + h.probe_backoff;
  plan(Kind::Probe, dialect_.poll_argv({}), {});
}

}  // namespace yard
