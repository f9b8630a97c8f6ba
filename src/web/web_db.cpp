#include "web/web_db.h"


#include "core/clock.h"
#include "web/secrets.h"

namespace yard::web {
namespace {

constexpr const char* kSchema = R"SQL(
PRAGMA journal_mode=WAL;
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users(name TEXT PRIMARY KEY, password_hash TEXT NOT NULL,
  admin INTEGER NOT NULL, account TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tokens(digest TEXT PRIMARY KEY, user TEXT NOT NULL, kind TEXT NOT NULL,
  expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL,
  template TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, dir TEXT NOT NULL,
  input TEXT NOT NULL, jobs TEXT NOT NULL DEFAULT '[]', steps TEXT NOT NULL DEFAULT '[]',
  created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS runs_by_owner ON runs(owner, id);
CREATE TABLE IF NOT EXISTS webhooks(run INTEGER PRIMARY KEY, url TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit(id INTEGER PRIMARY KEY AUTOINCREMENT, time REAL NOT NULL,
  user TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS audit_keeps_rows BEFORE UPDATE ON audit
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_keeps_every_row BEFORE DELETE ON audit
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
)SQL";

// The next row; false at the end, and on an error (a read that fails finds nothing).
bool has_row(sql::Statement& s) {
  auto r = s.step();
  return r.ok() && *r;
}

std::vector<std::int64_t> ids_of(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  std::vector<std::int64_t> out;
  if (j.is_array())
    for (const auto& v : j)
      if (v.is_number_integer()) out.push_back(v.get<std::int64_t>());
  return out;
}

RunRow run_of(const sql::Statement& s) {
  RunRow r;
  r.id = s.i64(0);
  r.owner = s.text(1);
  r.template_name = s.text(2);
  r.kind = s.text(3);
  r.name = s.text(4);
  r.dir = s.text(5);
  r.values = nlohmann::json::parse(s.text(6), nullptr, false);
  if (!r.values.is_object()) r.values = nlohmann::json::object();
  r.jobs = ids_of(s.text(7));
  r.steps = nlohmann::json::parse(s.text(8), nullptr, false);
  if (!r.steps.is_array()) r.steps = nlohmann::json::array();
  r.created = s.real(9);
  return r;
}

constexpr const char* kRunColumns = "id, owner, template, kind, name, dir, input, jobs, steps, created";

}  // namespace

Result<std::unique_ptr<WebDb>> WebDb::open(const std::string& path) {
  auto db = sql::Db::open(path, false);
  if (!db) return db.failure();
  std::unique_ptr<WebDb> web(new WebDb);
  web->db_ = std::move(*db);
  if (auto st = web->db_.exec(kSchema); !st) {
    return Error{"cannot set up " + path + ": " + st.error(), ErrorKind::Unavailable};
  }
  auto key = web->db_.prepare("SELECT value FROM meta WHERE key = 'site_key'");
  if (key && has_row(*key)) {
    web->site_key_ = key->text(0);
  } else {
    web->site_key_ = random_token();
    auto put = web->db_.prepare("INSERT INTO meta(key, value) VALUES('site_key', ?)");
    if (!put || !put->bind(1, std::string_view(web->site_key_)).run()) {
        return Error{"cannot write " + path, ErrorKind::Unavailable};
    }
  }
  return web;
}

Status WebDb::add_user(const std::string& name, const std::string& password_hash, bool admin,
                       const std::string& account) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare("INSERT INTO users(name, password_hash, admin, account, created) VALUES(?, ?, ?, ?, ?)");
  if (!s) return s.failure();
  s->bind(1, std::string_view(name)).bind(2, std::string_view(password_hash)).bind(3, admin ? 1 : 0);
  s->bind(4, std::string_view(account)).bind(5, wall_now());
  if (auto st = s->run(); !st)
    return Error{"user " + name + " exists already", ErrorKind::Conflict};
  return {};
}

Status WebDb::set_password(const std::string& name, const std::string& password_hash) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare("UPDATE users SET password_hash = ? WHERE name = ?");
  if (!s) return s.failure();
  if (auto st = s->bind(1, std::string_view(password_hash)).bind(2, std::string_view(name)).run(); !st) return st;
  if (db_.changes() == 0) return Error{"no user " + name, ErrorKind::NotFound};
  // A new password ends every session and token of the old one.
  auto drop = db_.prepare("DELETE FROM tokens WHERE user = ?");
  if (!drop) return drop.failure();
  return drop->bind(1, std::string_view(name)).run();
}

Status WebDb::remove_user(const std::string& name) {
  std::lock_guard lock(mu_);
  for (const char* sql : {"DELETE FROM tokens WHERE user = ?", "DELETE FROM users WHERE name = ?"}) {
    auto s = db_.prepare(sql);
    if (!s) return s.failure();
    if (auto st = s->bind(1, std::string_view(name)).run(); !st) return st;
  }
  if (db_.changes() == 0) return Error{"no user " + name, ErrorKind::NotFound};
  return {};
}

std::vector<User> WebDb::users() {
  std::lock_guard lock(mu_);
  std::vector<User> out;
  auto s = db_.prepare("SELECT name, admin, account FROM users ORDER BY name");
  while (s && has_row(*s)) out.push_back({s->text(0), s->text(2), s->i64(1) != 0});
  return out;
}

std::optional<std::pair<User, std::string>> WebDb::user_with_hash(const std::string& name) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare("SELECT name, admin, account, password_hash FROM users WHERE name = ?");
  if (!s) return std::nullopt;
  s->bind(1, std::string_view(name));
  if (!has_row(*s)) return std::nullopt;
  return std::make_pair(User{s->text(0), s->text(2), s->i64(1) != 0}, s->text(3));
}

Status WebDb::add_token(const std::string& digest, const std::string& user, const std::string& kind, double expires) {
  std::lock_guard lock(mu_);
  // Expired tokens go as new ones come: the table holds only live ones.
  if (auto old = db_.prepare("DELETE FROM tokens WHERE expires < ?")) (void)old->bind(1, wall_now()).run();
  auto s = db_.prepare("INSERT INTO tokens(digest, user, kind, expires) VALUES(?, ?, ?, ?)");
  if (!s) return s.failure();
  s->bind(1, std::string_view(digest)).bind(2, std::string_view(user)).bind(3, std::string_view(kind)).bind(4, expires);
  return s->run();
}

std::optional<std::pair<User, double>> WebDb::token_user(const std::string& digest, const std::string& kind, double now) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare_kept(  // every request asks it
      "SELECT u.name, u.admin, u.account, t.expires FROM tokens t JOIN users u ON u.name = t.user "
      "WHERE t.digest = ? AND t.kind = ? AND t.expires > ?");
  if (!s) return std::nullopt;
  s->bind(1, std::string_view(digest)).bind(2, std::string_view(kind)).bind(3, now);
  if (!has_row(*s)) return std::nullopt;
  return std::make_pair(User{s->text(0), s->text(2), s->i64(1) != 0}, s->real(3));
}

Status WebDb::touch_token(const std::string& digest, double expires) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare("UPDATE tokens SET expires = ? WHERE digest = ?");
  if (!s) return s.failure();
  return s->bind(1, expires).bind(2, std::string_view(digest)).run();
}

Status WebDb::drop_token(const std::string& digest) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare("DELETE FROM tokens WHERE digest = ?");
  if (!s) return s.failure();
  return s->bind(1, std::string_view(digest)).run();
}

Result<std::int64_t> WebDb::add_run(RunRow run) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare(
      "INSERT INTO runs(owner, template, kind, name, dir, input, created) VALUES(?, ?, ?, ?, ?, ?, ?)");
  if (!s) return s.failure();
  const std::string input = run.values.dump();
  s->bind(1, std::string_view(run.owner)).bind(2, std::string_view(run.template_name));
  s->bind(3, std::string_view(run.kind)).bind(4, std::string_view(run.name)).bind(5, std::string_view(run.dir));
  s->bind(6, std::string_view(input)).bind(7, run.created > 0 ? run.created : wall_now());
  if (auto st = s->run(); !st) return st.failure();
  const std::int64_t id = db_.last_insert_id();
  if (!run.webhook.empty()) {
    auto hook = db_.prepare("INSERT INTO webhooks(run, url) VALUES(?, ?)");
    if (!hook) return hook.failure();
    if (auto st = hook->bind(1, id).bind(2, std::string_view(run.webhook)).run(); !st) return st.failure();
  }
  return id;
}

std::string WebDb::webhook(std::int64_t run) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare("SELECT url FROM webhooks WHERE run = ?");
  if (!s) return "";
  s->bind(1, run);
  return has_row(*s) ? s->text(0) : "";
}

Status WebDb::drop_unsubmitted_run(std::int64_t id) {
  std::lock_guard lock(mu_);
  rows_.erase(id);
  auto s = db_.prepare("DELETE FROM runs WHERE id = ? AND jobs = '[]'");
  if (!s) return s.failure();
  return s->bind(1, id).run();
}

Status WebDb::set_run_jobs(std::int64_t id, const std::vector<std::int64_t>& jobs, const nlohmann::json& steps) {
  std::lock_guard lock(mu_);
  rows_.erase(id);
  auto s = db_.prepare("UPDATE runs SET jobs = ?, steps = ? WHERE id = ?");
  if (!s) return s.failure();
  const std::string job_text = nlohmann::json(jobs).dump(), step_text = steps.dump();
  return s->bind(1, std::string_view(job_text)).bind(2, std::string_view(step_text)).bind(3, id).run();
}

std::optional<RunRow> WebDb::run(std::int64_t id) {
  std::lock_guard lock(mu_);
  return run_locked(id);
}

std::optional<RunRow> WebDb::run_locked(std::int64_t id) {
  if (auto kept = rows_.find(id); kept != rows_.end()) return kept->second;
  static const std::string sql = std::string("SELECT ") + kRunColumns + " FROM runs WHERE id = ?";
  auto s = db_.prepare_kept(sql);  // a run's every request asks it
  if (!s) return std::nullopt;
  s->bind(1, id);
  if (!has_row(*s)) return std::nullopt;
  RunRow row = run_of(*s);
  // A run with its jobs changes no more: kept, not read (and its ids parsed) again.
  if (!row.jobs.empty()) rows_.emplace(id, row);
  return row;
}

std::vector<RunRow> WebDb::runs(const RunFilter& filter) {
  std::lock_guard lock(mu_);
  std::string sql = "SELECT id FROM runs WHERE (? = '' OR owner = ?) AND (? = '' OR template = ?) AND "
                    "(? = 0 OR id < ?) ORDER BY id DESC LIMIT ?";
  std::vector<RunRow> out;
  auto s = db_.prepare(sql);
  if (!s) return out;
  s->bind(1, std::string_view(filter.owner)).bind(2, std::string_view(filter.owner));
  s->bind(3, std::string_view(filter.template_name)).bind(4, std::string_view(filter.template_name));
  s->bind(5, filter.before).bind(6, filter.before).bind(7, filter.limit);
  std::vector<std::int64_t> ids;
  while (has_row(*s)) ids.push_back(s->i64(0));
  for (auto id : ids)
    if (auto row = run_locked(id)) out.push_back(std::move(*row));
  return out;
}

std::vector<std::pair<std::int64_t, std::vector<std::int64_t>>> WebDb::all_run_jobs() {
  std::lock_guard lock(mu_);
  std::vector<std::pair<std::int64_t, std::vector<std::int64_t>>> out;
  auto s = db_.prepare("SELECT id, jobs FROM runs");
  while (s && has_row(*s)) out.emplace_back(s->i64(0), ids_of(s->text(1)));
  return out;
}

Status WebDb::audit(const std::string& user, const std::string& action, const std::string& detail) {
  std::lock_guard lock(mu_);
  auto s = db_.prepare("INSERT INTO audit(time, user, action, detail) VALUES(?, ?, ?, ?)");
  if (!s) return s.failure();
  s->bind(1, wall_now()).bind(2, std::string_view(user)).bind(3, std::string_view(action));
  return s->bind(4, std::string_view(detail)).run();
}

std::vector<nlohmann::json> WebDb::audit_tail(int limit) {
  std::lock_guard lock(mu_);
  std::vector<nlohmann::json> out;
  auto s = db_.prepare("SELECT id, time, user, action, detail FROM audit ORDER BY id DESC LIMIT ?");
  if (!s) return out;
  s->bind(1, limit);
  while (has_row(*s))
    out.push_back({{"id", s->i64(0)}, {"time", s->real(1)}, {"user", s->text(2)}, {"action", s->text(3)},
                   {"detail", s->text(4)}});
  return out;
}

}  // namespace yard::web
