// Store, part: flows and their steps (migration 5), and the file digests their keys are
// made of. A step's state is read from its jobs each time, never copied: the jobs are
// the truth, and a flow cannot disagree with them.
#include "store/store.h"

namespace yard {
namespace {

// The step columns, then its job's state: one row per job of the step (an array's
// elements share the step), in step order.
constexpr const char* kStepsOfFlow =
    "SELECT s.step, s.name, s.key, s.job_id, s.origin, j.state, j.id, s.parts FROM flow_steps s "
    "JOIN jobs j ON j.id = s.job_id OR (s.alone = 0 AND j.array_job_id = s.job_id) WHERE s.flow_id = ? ORDER BY s.step, j.id";

// Reads rows of kStepsOfFlow's columns into steps, each job tallied into its step (and
// its id into `ids`, one list per step, when asked).
Result<std::vector<FlowStepRecord>> read_steps(sql::Statement& st, std::vector<std::vector<std::int64_t>>* ids = nullptr) {
  std::vector<FlowStepRecord> steps;
  for (;;) {
    auto row = st.step();
    if (!row) return row.failure();
    if (!*row) break;
    const auto index = static_cast<std::int32_t>(st.i64(0));
    if (steps.empty() || steps.back().index != index) {
      FlowStepRecord s;
      s.index = index;
      s.name = st.text(1);
      s.key = st.text(2);
      s.job_id = st.i64(3);
      s.origin = step_origin_from(st.text(4)).value_or(StepOrigin::Submitted);
      s.parts = st.text(7);
      steps.push_back(std::move(s));
      if (ids) ids->emplace_back();
    }
    if (ids) ids->back().push_back(st.i64(6));
    steps.back().tally(parse_job_state(st.text(5)).value_or(JobState::Unknown));
  }
  return steps;
}

}  // namespace

Result<std::int64_t> Store::insert_flow(const NewFlow& f, double now) {
  auto st = cached("ins_flow", "INSERT INTO flows(name, file, run_dir, submit_time, key) VALUES (?, ?, ?, ?, ?)");
  if (!st) return st.failure();
  (*st)->bind(1, f.name).bind(2, f.file).bind(3, f.run_dir).bind(4, now).bind(5, f.key);
  if (auto s = (*st)->run(); !s) return s.failure();
  return db_.last_insert_id();
}

Status Store::insert_flow_step(std::int64_t flow_id, const FlowStepRecord& step) {
  auto st = cached("ins_flow_step",
                   "INSERT INTO flow_steps(flow_id, step, name, key, job_id, origin, parts, alone) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  if (!st) return st.failure();
  (*st)->bind(1, flow_id).bind(2, step.index).bind(3, step.name).bind(4, step.key).bind(5, step.job_id)
      .bind(6, std::string_view(to_string(step.origin)))
      .bind(7, step.parts)
      .bind(8, static_cast<std::int64_t>(step.alone));
  return (*st)->run();
}

Result<std::optional<Store::KeyedStep>> Store::latest_step_with_key(const std::string& key) {
  auto st = cached("step_by_key",
                   "SELECT s.step, s.name, s.key, s.job_id, s.origin, j.state, j.id, s.parts FROM "
                   "(SELECT * FROM flow_steps WHERE key = ? ORDER BY flow_id DESC LIMIT 1) s "
                   "JOIN jobs j ON j.id = s.job_id OR (s.alone = 0 AND j.array_job_id = s.job_id) ORDER BY j.id");
  if (!st) return st.failure();
  (*st)->bind(1, key);
  std::vector<std::vector<std::int64_t>> ids;
  auto steps = read_steps(**st, &ids);
  (*st)->reset();
  if (!steps) return steps.failure();
  if (steps->empty()) return std::optional<KeyedStep>();
  return std::optional<KeyedStep>(KeyedStep{std::move(steps->front()), std::move(ids.front())});
}

Result<std::optional<std::int64_t>> Store::flow_with_key(const std::string& key) {
  auto st = cached("flow_by_key", "SELECT id FROM flows WHERE key = ? AND key != ''");
  if (!st) return st.failure();
  (*st)->bind(1, key);
  auto row = (*st)->step();
  std::optional<std::int64_t> id;
  if (row && *row) id = (*st)->i64(0);
  (*st)->reset();
  if (!row) return row.failure();
  return id;
}

Result<std::vector<FlowStepRecord>> Store::flow_steps(std::int64_t flow_id,
                                                      std::vector<std::vector<std::int64_t>>* ids) {
  auto st = cached("flow_steps", kStepsOfFlow);
  if (!st) return st.failure();
  (*st)->bind(1, flow_id);
  auto steps = read_steps(**st, ids);
  (*st)->reset();
  return steps;
}

Result<std::vector<FlowRecord>> Store::flows(std::size_t limit) {
  std::string sql = "SELECT id, name, file, run_dir, submit_time FROM flows ORDER BY id DESC";
  if (limit) sql += " LIMIT " + std::to_string(limit);
  auto st = db_.prepare(sql);
  if (!st) return st.failure();
  std::vector<FlowRecord> flows;
  for (;;) {
    auto row = st->step();
    if (!row) return row.failure();
    if (!*row) break;
    FlowRecord f;
    f.id = st->i64(0);
    f.name = st->text(1);
    f.file = st->text(2);
    f.run_dir = st->text(3);
    f.submit_time = st->real(4);
    flows.push_back(std::move(f));
  }
  for (auto& f : flows) {
    auto steps = flow_steps(f.id);
    if (!steps) return steps.failure();
    for (const auto& s : *steps) f.count(s);
  }
  return flows;
}

Result<std::optional<FlowRecord>> Store::flow(std::int64_t id) {
  auto st = cached("flow_by_id", "SELECT id, name, file, run_dir, submit_time FROM flows WHERE id = ?");
  if (!st) return st.failure();
  (*st)->bind(1, id);
  auto row = (*st)->step();
  std::optional<FlowRecord> f;
  if (row && *row) {
    f.emplace();
    f->id = (*st)->i64(0);
    f->name = (*st)->text(1);
    f->file = (*st)->text(2);
    f->run_dir = (*st)->text(3);
    f->submit_time = (*st)->real(4);
  }
  (*st)->reset();
  if (!row) return row.failure();
  if (f) {
    auto steps = flow_steps(f->id);
    if (!steps) return steps.failure();
    for (const auto& s : *steps) f->count(s);
  }
  return f;
}

Result<std::vector<FileDigest>> Store::file_digests(const std::vector<std::string>& paths) {
  auto st = cached("get_digest", "SELECT size, mtime_ns, inode, digest FROM file_digests WHERE path = ?");
  if (!st) return st.failure();
  std::vector<FileDigest> out;
  out.reserve(paths.size());
  for (const auto& p : paths) {
    FileDigest d;
    d.path = p;
    (*st)->bind(1, p);
    auto row = (*st)->step();
    if (row && *row) {
      d.size = (*st)->i64(0);
      d.mtime_ns = (*st)->i64(1);
      d.inode = (*st)->i64(2);
      d.digest = (*st)->text(3);
    }
    (*st)->reset();
    if (!row) return row.failure();
    out.push_back(std::move(d));
  }
  return out;
}

Status Store::record_file_digest(const FileDigest& d) {
  auto st = cached("put_digest",
                   "INSERT OR REPLACE INTO file_digests(path, size, mtime_ns, inode, digest) VALUES (?, ?, ?, ?, ?)");
  if (!st) return st.failure();
  (*st)->bind(1, d.path).bind(2, d.size).bind(3, d.mtime_ns).bind(4, d.inode).bind(5, d.digest);
  return (*st)->run();
}

}  // namespace yard
