// Launch requests and hand-offs: a job sent to start the moment another ends.
#include <unistd.h>

#include <iostream>

#include "local/host.h"
#include "local/host_protocol.h"
#include "local/run_record.h"

namespace yard::job_host {

void Host::fail_launch(std::int64_t id, int record_fd, const std::string& why) {
  RunOutcome o;
  o.state = JobState::Failed;
  o.reason = why;
  o.end_time = now_s();
  const std::string text = self_ + format_outcome(o);  // (self_ again is harmless)
  if (record_fd >= 0) {
    append_record(record_fd, text);
    ::close(record_fd);
  }
  if (id > 0) tell_daemon(encode_ended(id, text));
  std::cerr << "yard job host: job " << id << ": " << why << std::endl;
}

void Host::launch(const std::string& request, int record_fd) {
  auto d = decode_launch(request);
  if (!d.plan) return fail_launch(d.job_id, record_fd, d.plan.error());
  if (record_fd < 0) return fail_launch(d.job_id, record_fd, "no run record was passed");
  dropped_.erase(d.job_id);  // sent again after the daemon heard of its drop: that is past
  std::int64_t after = d.after;
  for (auto x = dropped_.find(after); x != dropped_.end() && !by_id_.count(after); x = dropped_.find(after))
    after = x->second;
  if (after > 0 && (by_id_.count(after) || handed_behind_.count(after))) {
    if (handed_.count(after)) {
      // Someone waits for it already: the CPUs are not this job's to take.
      return end_unstarted(d.job_id, record_fd, JobState::Pending, "handed back: another job waits for the same CPUs");
    }
    // Behind a running job, or behind a hand-off itself (a chain: each starts as the
    // one before it ends).
    handed_behind_[d.job_id] = after;
    handed_[after] = Handed{d.job_id, std::move(*d.plan), record_fd};
    return;
  }
  start(d.job_id, *d.plan, record_fd);  // no predecessor, or it has ended already
}

void Host::drop_handed(std::int64_t id, JobState state, const std::string& reason) {
  auto b = handed_behind_.find(id);
  if (b == handed_behind_.end()) return;
  const std::int64_t pred = b->second;
  handed_behind_.erase(b);
  auto h = handed_.find(pred);
  if (h == handed_.end()) return;
  Handed gone = std::move(h->second);
  handed_.erase(h);
  // Whoever waited behind it waits for its predecessor now (as the daemon sees it).
  if (auto s = handed_.find(id); s != handed_.end()) {
    Handed next = std::move(s->second);
    handed_.erase(s);
    handed_behind_[next.id] = pred;
    handed_[pred] = std::move(next);
  }
  dropped_[id] = pred;
  dropped_order_.push_back(id);
  if (dropped_order_.size() > 4096) {
    dropped_.erase(dropped_order_.front());
    dropped_order_.pop_front();
  }
  end_unstarted(id, gone.record, state, reason);
}

void Host::end_unstarted(std::int64_t id, int record_fd, JobState state, const std::string& reason) {
  RunOutcome o;
  o.state = state;
  o.reason = reason;
  o.end_time = now_s();
  const std::string text = format_outcome(o);  // no host pid, no job pid: it never started
  append_record(record_fd, text);
  ::close(record_fd);
  tell_daemon(encode_ended(id, text));
}

}  // namespace yard::job_host
