#include "server/read_requests.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/file_text.h"
#include "local/local_scheduler.h"
#include "sched/accounts.h"
#include "sched/engine.h"

namespace yard {
namespace {

Result<JobRecord> known_job(Store& store, std::int64_t id) {
  auto job = store.job(id);
  if (!job) return job.failure();
  if (!*job) return Error{"no job " + std::to_string(id), ErrorKind::NotFound};
  return std::move(**job);
}

// Closes its descriptor whatever way the read ends.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<JobsReply> handle(Store& store, const JobsRequest& r) {
  JobQuery q = r.query;
  if (q.limit == 0 || q.limit > kMaxJobsPage) q.limit = kMaxJobsPage;
  auto jobs = store.find(q);
  if (!jobs) return jobs.failure();
  JobsReply reply;
  if (jobs->size() == q.limit) reply.next = jobs->back().id;
  reply.jobs = std::move(*jobs);
  return reply;
}

Result<JobReply> handle(Store& store, const JobRequest& r) {
  auto job = known_job(store, r.id);
  if (!job) return job.failure();
  auto spec = store.spec(job->spec_id);
  if (!spec) return spec.failure();
  auto events = store.events(r.id);
  if (!events) return events.failure();
  return JobReply{std::move(*job), std::move(*spec), std::move(*events)};
}

Result<LogsReply> handle(Store& store, const LogsRequest& r) {
  auto job = known_job(store, r.id);
  if (!job) return job.failure();
  LogsReply reply;
  reply.ended = is_terminal(job->state);
  reply.path = r.stderr_stream ? job->stderr_path : job->stdout_path;
  reply.offset = r.offset;
  if (reply.path.empty()) return reply;  // not started: nothing written yet
  // A job's output may be anything its script made of it: only a regular file is read
  // (a FIFO would block the daemon).
  Fd f{::open(reply.path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) {
    if (errno == ENOENT && !reply.ended) return reply;  // not created yet
    return Error{"cannot read " + reply.path + ": " + std::strerror(errno), ErrorKind::NotFound};
  }
  struct stat st{};
  if (::fstat(f.fd, &st) != 0) return Error{"cannot read " + reply.path + ": " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode))
    return Error{"the output of job " + std::to_string(r.id) + ", " + reply.path + ", is " + file_type_name(st.st_mode) +
                 ", not a file that can be read"};
  reply.size = st.st_size;
  const std::int64_t want = std::min({r.limit, kMaxLogChunk, std::max<std::int64_t>(0, st.st_size - r.offset)});
  reply.data.resize(static_cast<std::size_t>(want));
  std::size_t got = 0;
  while (got < reply.data.size()) {
    const ssize_t n = ::pread(f.fd, reply.data.data() + got, reply.data.size() - got, r.offset + static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{"cannot read " + reply.path + ": " + std::strerror(errno)};
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  reply.data.resize(got);
  return reply;
}

Result<AccountsReply> handle(Store& store, const Paths& paths, const AccountsRequest&, double now) {
  auto config = load_local_policy(paths.policy);
  if (!config) return config.failure();
  sched::Accounts ledger = sched::Accounts::from_config(*config);
  auto usage = store.usage(kDefaultBackend);  // the local policy's ledger, as the local scheduler keeps it
  if (!usage) return Error{"cannot read the accounts' usage from " + paths.store + ": " + usage.error()};
  auto by_target = store.usage_by_target();
  if (!by_target) return Error{"cannot read the accounts' usage from " + paths.store + ": " + by_target.error()};
  for (auto& c : *usage) ledger.charge(c.account, c.core_seconds, static_cast<sched::Time>(c.time));
  const sched::PolicyEngine engine(*config, {1});
  AccountsReply reply;
  for (auto& s : ledger.report(static_cast<sched::Time>(now))) {
    AccountRow row;
    row.account = s.name;
    if (const sched::TierConfig* t = engine.tier_of(s.name)) {
      row.tier = t->name;
      row.best_effort = t->best_effort;
    }
    row.share = s.share;
    row.fairshare = s.fairshare;
    row.used_core_seconds = s.used_core_seconds;
    row.decayed_usage_core_seconds = s.decayed_usage;
    row.allocation_core_seconds = s.allocation_core_seconds;
    row.remaining_core_seconds = s.remaining_core_seconds;
    reply.accounts.push_back(std::move(row));
  }
  for (auto& t : *by_target) reply.by_target.push_back({t.account, t.backend, t.core_seconds, t.jobs});
  return reply;
}

}  // namespace yard
