// Store, part: job specs and their environments, and submissions by client key.
// An environment is stored once however many specs share it: a user's environment is
// often kilobytes, and every job of a session submits the same one (400 jobs stored 2 MB
// of copies before).
#include <xxhash.h>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/byte_json.h"
#include "store/store.h"

namespace yard {
namespace {

// Names the text: XXH3, the same on every machine and release (std::hash is not
// specified, and may change with the compiler). The text itself is compared too, so a
// collision costs only a copy. Digests of an older release (another form) simply do not
// match: their environment is stored once more, never mixed up.
std::string digest_of(std::string_view text) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "xxh3:%016llx-%zu", static_cast<unsigned long long>(XXH3_64bits(text.data(), text.size())),
                text.size());
  return buf;
}

}  // namespace

Result<std::int64_t> Store::insert_spec(const JobSpec& spec) {
  std::optional<std::int64_t> env_id;
  // The environment of the last spec again (a flow's steps, an array, a session's jobs):
  // its row, if it is still there (a rolled-back transaction may have taken it away),
  // without writing and hashing the environment's text once more.
  if (last_env_id_ && spec.env == last_env_) {
    auto exists = cached("env_exists", "SELECT 1 FROM environments WHERE id = ?");
    if (!exists) return exists.failure();
    (*exists)->bind(1, *last_env_id_);
    auto row = (*exists)->step();
    (*exists)->reset();
    if (!row) return row.failure();
    if (*row) env_id = last_env_id_;
  }
  bool collided = false;
  if (!env_id) {
    const std::string env_text = byte_map_to_json(spec.env).dump();
    auto find_env_prepared = cached("find_env", "SELECT id, json FROM environments WHERE digest = ?");
    if (!find_env_prepared) return find_env_prepared.failure();
    sql::Statement* find_env = *find_env_prepared;
    const std::string digest = digest_of(env_text);
    find_env->bind(1, digest);
    auto row = find_env->step();
    if (row && *row && find_env->text(1) == env_text) env_id = find_env->i64(0);
    collided = row && *row && !env_id;
    find_env->reset();
    if (!row) return row.failure();
    if (!env_id && !collided) {
      auto ins_env_prepared = cached("ins_env", "INSERT INTO environments(digest, json) VALUES (?, ?)");
      if (!ins_env_prepared) return ins_env_prepared.failure();
      sql::Statement* ins_env = *ins_env_prepared;
      ins_env->bind(1, digest).bind(2, env_text);
      if (auto s = ins_env->run(); !s) return s.failure();
      env_id = db_.last_insert_id();
    }
    if (env_id) {
      last_env_ = spec.env;
      last_env_id_ = env_id;
    }
  }
  nlohmann::json j = spec_json_without_env(spec);
  if (!env_id) j["env"] = byte_map_to_json(spec.env);  // a digest collision: the spec keeps its own copy
  auto ins_spec_prepared = cached("ins_spec", "INSERT INTO specs(json, env_id) VALUES (?, ?)");
  if (!ins_spec_prepared) return ins_spec_prepared.failure();
  sql::Statement* ins_spec = *ins_spec_prepared;
  ins_spec->bind(1, j.dump()).bind(2, env_id);
  if (auto s = ins_spec->run(); !s) return s.failure();
  return db_.last_insert_id();
}

Result<JobSpec> Store::spec(std::int64_t spec_id) {
  auto st_prepared = cached("get_spec",
                    "SELECT s.json, e.json FROM specs s LEFT JOIN environments e ON e.id = s.env_id WHERE s.id = ?");
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, spec_id);
  auto row = st->step();
  if (!row || !*row) {
    st->reset();
    if (!row) return row.failure();
    return Error{"no spec " + std::to_string(spec_id), ErrorKind::NotFound};
  }
  std::string text = st->text(0);
  const bool shared_env = !st->is_null(1);
  std::string env_text = shared_env ? st->text(1) : std::string();
  st->reset();
  try {
    auto spec = nlohmann::json::parse(text).get<JobSpec>();
    if (shared_env) spec.env = byte_map_from_json(nlohmann::json::parse(env_text));
    return spec;
  } catch (const std::exception& e) {
    return Error{"spec " + std::to_string(spec_id) + " is corrupt: " + e.what(), ErrorKind::Internal};
  }
}

Result<std::optional<std::vector<std::int64_t>>> Store::submission(const std::string& key) {
  auto st_prepared = cached("get_submission", "SELECT ids FROM submissions WHERE key = ?");
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, key);
  auto row = st->step();
  std::optional<std::vector<std::int64_t>> ids;
  if (row && *row) {
    ids.emplace();
    const std::string text = st->text(0);
    // "a-b" is a run of consecutive ids (an array's elements), "a" a single one.
    for (std::size_t pos = 0; pos < text.size();) {
      auto comma = text.find(',', pos);
      if (comma == std::string::npos) comma = text.size();
      const std::string part = text.substr(pos, comma - pos);
      const auto dash = part.find('-');
      const std::int64_t first = std::stoll(part.substr(0, dash));
      const std::int64_t last = dash == std::string::npos ? first : std::stoll(part.substr(dash + 1));
      for (std::int64_t id = first; id <= last; ++id) ids->push_back(id);
      pos = comma + 1;
    }
  }
  st->reset();
  if (!row) return row.failure();
  return ids;
}

Status Store::record_submission(const std::string& key, const std::vector<std::int64_t>& ids, double now) {
  std::string text;
  for (std::size_t k = 0; k < ids.size();) {
    std::size_t end = k;
    while (end + 1 < ids.size() && ids[end + 1] == ids[end] + 1) ++end;
    text += (text.empty() ? "" : ",") + std::to_string(ids[k]) + (end > k ? "-" + std::to_string(ids[end]) : "");
    k = end + 1;
  }
  auto st_prepared = cached("ins_submission", "INSERT INTO submissions(key, ids, time) VALUES (?, ?, ?)");
  if (!st_prepared) return st_prepared.failure();
  sql::Statement* st = *st_prepared;
  st->bind(1, key).bind(2, text).bind(3, now);
  return st->run();
}

}  // namespace yard
