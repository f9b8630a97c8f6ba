#include "local/hosted_backends.h"

#include <algorithm>
#include <iostream>

#include "local/report_coalescing.h"

namespace yard {

Result<HostedBackends> HostedBackends::start() {
  auto host = JobHostLink::start();
  if (!host) return Error{host.failure()};
  return HostedBackends(std::move(*host));
}

void HostedBackends::add(std::unique_ptr<LocalBackend> b) {
  b->use_host(host_.get());
  backends_.push_back(std::move(b));
}

Status HostedBackends::recover() {
  for (auto& b : backends_)
    if (auto s = b->recover(); !s) return s;
  return {};
}

std::vector<int> HostedBackends::watched_fds() const {
  std::vector<int> fds{host_->socket_fd(), host_->pidfd()};
  for (auto& b : backends_)
    for (int fd : b->watched_fds()) fds.push_back(fd);
  return fds;
}

void HostedBackends::ready(const std::vector<int>& fds) {
  for (int fd : fds) {
    if (fd == host_->socket_fd() || fd == host_->pidfd()) {
      for (const auto& report : host_->take_reports())
        for (auto& b : backends_)
          if (b->job_ended(report)) break;  // the backend that ran it records it
      if (fd == host_->pidfd()) {
        // The host died (it never ends while the daemon lives): its jobs are settled from
        // their records, and a new host runs the next ones.
        std::cerr << "yard daemon: the job host (pid " << host_->pid() << ") died; starting another" << std::endl;
        for (auto& b : backends_) b->host_died();
        host_->reap();
        auto again = JobHostLink::start();
        if (again) *host_ = std::move(*again);
        else std::cerr << "yard daemon: " << again.error() << std::endl;
      }
    } else {
      for (auto& b : backends_) b->fd_ready(fd);
    }
  }
}

void HostedBackends::coalesce(std::vector<pollfd>& fds) {
  std::vector<LocalBackend*> locals;
  for (auto& b : backends_) locals.push_back(b.get());
  coalesce_host_reports(fds, host_->socket_fd(), locals);
}

void HostedBackends::step(double now, bool start_new) {
  for (auto& b : backends_) b->tick(now);
  if (start_new)
    for (auto& b : backends_) b->plan_starts();
}

void HostedBackends::after_commit() {
  for (auto& b : backends_) b->launch();
}

double HostedBackends::next_wakeup_s(double now) const {
  double wake = 3600;
  for (auto& b : backends_) wake = std::min(wake, b->next_wakeup_s(now));
  return wake;
}

std::size_t HostedBackends::running() const {
  std::size_t n = 0;
  for (auto& b : backends_) n += b->running();
  return n;
}

std::size_t HostedBackends::pending() const {
  std::size_t n = 0;
  for (auto& b : backends_) n += b->pending();
  return n;
}

void HostedBackends::cancel_all_running() {
  for (auto& b : backends_) b->cancel_all_running();
}

Result<std::vector<std::int64_t>> HostedBackends::cancel(const std::vector<std::int64_t>& ids) {
  std::vector<std::int64_t> acted;
  for (auto& b : backends_) {
    auto mine = b->cancel(ids);
    if (!mine) return mine;
    acted.insert(acted.end(), mine->begin(), mine->end());
  }
  return acted;
}

}  // namespace yard
