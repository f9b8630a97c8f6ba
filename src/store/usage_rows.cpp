// Usage charged to accounts (migration 3's usage table) and the counts of jobs not ended
// by backend: what `yard accounts` and `yard routes` read.
#include "store/store.h"

namespace yard {

Status Store::add_usage(const UsageCharge& c) {
  auto st_prepared = cached("add_usage", "INSERT INTO usage(job_id, account, time, core_seconds) VALUES (?,?,?,?)");
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, c.job_id).bind(2, c.account).bind(3, c.time).bind(4, c.core_seconds);
  return st->run();
}

Result<std::vector<UsageCharge>> Store::usage(std::string_view backend) {
  auto st = db_.prepare(
      "SELECT u.job_id, u.account, u.time, u.core_seconds FROM usage u LEFT JOIN jobs j ON j.id = u.job_id "
      "WHERE ?1 = '' OR j.backend = ?1 ORDER BY u.time, u.id");
  if (!st) return st.failure();
  st->bind(1, backend);
  std::vector<UsageCharge> out;
  for (;;) {
    auto row = st->step();
    if (!row) return row.failure();
    if (!*row) break;
    out.push_back({st->i64(0), st->text(1), st->real(2), st->real(3)});
  }
  return out;
}

Result<std::vector<TargetUsage>> Store::usage_by_target() {
  auto st = db_.prepare(
      "SELECT u.account, COALESCE(j.backend, ''), SUM(u.core_seconds), COUNT(DISTINCT u.job_id) FROM usage u "
      "LEFT JOIN jobs j ON j.id = u.job_id GROUP BY 1, 2 ORDER BY 1, 2");
  if (!st) return st.failure();
  std::vector<TargetUsage> out;
  for (;;) {
    auto row = st->step();
    if (!row) return row.failure();
    if (!*row) break;
    out.push_back({st->text(0), st->text(1), st->real(2), st->i64(3)});
  }
  return out;
}

Result<std::vector<ActiveCount>> Store::active_counts() {
  auto st = db_.prepare(
      "SELECT backend, state, COUNT(*) FROM jobs WHERE state IN ('PENDING', 'RUNNING', 'UNKNOWN') "
      "GROUP BY backend, state ORDER BY backend");
  if (!st) return st.failure();
  std::vector<ActiveCount> out;
  for (;;) {
    auto row = st->step();
    if (!row) return row.failure();
    if (!*row) break;
    const std::string backend = st->text(0), state = st->text(1);
    if (out.empty() || out.back().backend != backend) out.push_back({backend, 0, 0, 0});
    (state == "PENDING" ? out.back().pending : state == "RUNNING" ? out.back().running : out.back().unknown) += st->i64(2);
  }
  return out;
}

}  // namespace yard
