// The store's answers to clients' questions about jobs (Store::find) and its event log
// (Store::events_after): what the daemon serves to `yard status`, `yard watch`, the
// workflow engine and the web platform.
#include <variant>

#include "store/job_rows.h"
#include "store/store.h"

namespace yard {
namespace {

using Value = std::variant<std::int64_t, double, std::string>;

// "?,?,?" for `n` values.
std::string placeholders(std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += i ? ",?" : "?";
  return out;
}

}  // namespace

Result<std::vector<JobRecord>> Store::find(const JobQuery& q) {
  std::string where = "WHERE j.id > ?";
  std::vector<Value> args{q.after};
  if (!q.ids.empty()) {
    const std::string in = placeholders(q.ids.size());
    where += " AND (j.id IN (" + in + ") OR j.array_job_id IN (" + in + "))";
    for (int pass = 0; pass < 2; ++pass)
      for (auto id : q.ids) args.emplace_back(id);
  }
  if (!q.states.empty()) {
    where += " AND j.state IN (" + placeholders(q.states.size()) + ")";
    for (auto s : q.states) args.emplace_back(std::string(to_string(s)));
  }
  if (!q.name.empty()) where += " AND j.name = ?", args.emplace_back(q.name);
  if (!q.backend.empty()) where += " AND j.backend = ?", args.emplace_back(q.backend);
  if (q.array_job_id) where += " AND j.array_job_id = ?", args.emplace_back(*q.array_job_id);
  if (q.submitted_after) where += " AND j.submit_time >= ?", args.emplace_back(*q.submitted_after);
  if (q.submitted_before) where += " AND j.submit_time < ?", args.emplace_back(*q.submitted_before);
  where += " ORDER BY j.id";
  if (q.limit) where += " LIMIT " + std::to_string(q.limit);
  auto st = db_.prepare(std::string("SELECT ") + job_columns() + where);
  if (!st) return st.failure();
  for (std::size_t i = 0; i < args.size(); ++i)
    std::visit([&](const auto& v) { st->bind(static_cast<int>(i + 1), v); }, args[i]);
  return read_jobs(*st);
}

Result<std::vector<LoggedEvent>> Store::events_after(std::int64_t after, std::size_t limit) {
  auto prepared = cached("events_after",
                         "SELECT e.id, e.job_id, e.time, e.state, e.detail, j.array_job_id, j.array_index, j.name, "
                         "j.backend FROM events e JOIN jobs j ON j.id = e.job_id WHERE e.id > ? ORDER BY e.id LIMIT ?");
  if (!prepared) return prepared.failure();
  sql::Statement* st = *prepared;
  st->bind(1, after);
  st->bind(2, static_cast<std::int64_t>(limit));
  std::vector<LoggedEvent> out;
  for (;;) {
    auto row = st->step();
    if (!row) {
      st->reset();
      return row.failure();
    }
    if (!*row) break;
    LoggedEvent e;
    e.id = st->i64(0);
    e.job_id = st->i64(1);
    e.event = {st->real(2), parse_job_state(st->text(3)).value_or(JobState::Unknown), st->text(4)};
    e.array_job_id = st->opt_i64(5);
    e.array_index = st->opt_i64(6);
    e.name = st->text(7);
    e.backend = st->text(8);
    out.push_back(std::move(e));
  }
  st->reset();
  return out;
}

Result<std::int64_t> Store::last_event_id() {
  auto prepared = cached("last_event_id", "SELECT coalesce(max(id), 0) FROM events");
  if (!prepared) return prepared.failure();
  sql::Statement* st = *prepared;
  auto row = st->step();
  if (!row) {
    st->reset();
    return row.failure();
  }
  const std::int64_t id = *row ? st->i64(0) : 0;
  st->reset();
  return id;
}

}  // namespace yard
