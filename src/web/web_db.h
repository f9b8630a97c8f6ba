// The web service's own database (site directory, web.db, 0600): its users, their
// session and API tokens (digests only), their runs (which daemon jobs are whose), and
// the audit log, append-only (triggers refuse UPDATE and DELETE on it). The jobs
// themselves are the daemon's: this file only says who owns them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "store/sqlite.h"

namespace yard::web {

struct User {
  std::string name, account;
  bool admin = false;
};

// A run: one job, an array or a workflow a user started from a template.
struct RunRow {
  std::int64_t id = 0;
  std::string owner, template_name, kind, name, dir;
  nlohmann::json values = nlohmann::json::object();  // the form's values, as given
  std::vector<std::int64_t> jobs;                     // the daemon's job ids (every element)
  nlohmann::json steps = nlohmann::json::array();     // workflows: [{"name","needs","jobs"}]
  double created = 0;
  std::string webhook;  // given when the run is added (kept apart: webhook())
};

struct RunFilter {
  std::string owner;  // "": everyone's
  std::string template_name;
  std::int64_t before = 0;  // the cursor: runs with a smaller id (0: from the newest)
  int limit = 50;
};

class WebDb {
 public:
  static Result<std::unique_ptr<WebDb>> open(const std::string& path);

  // Users
  Status add_user(const std::string& name, const std::string& password_hash, bool admin, const std::string& account);
  Status set_password(const std::string& name, const std::string& password_hash);
  Status remove_user(const std::string& name);
  std::vector<User> users();
  // The user and their stored password hash.
  std::optional<std::pair<User, std::string>> user_with_hash(const std::string& name);

  // Tokens, by digest; `kind` "session" or "api". Expired ones are never found.
  Status add_token(const std::string& digest, const std::string& user, const std::string& kind, double expires);
  // The token's user and when it expires.
  std::optional<std::pair<User, double>> token_user(const std::string& digest, const std::string& kind, double now);
  Status touch_token(const std::string& digest, double expires);
  Status drop_token(const std::string& digest);

  // Runs
  Result<std::int64_t> add_run(RunRow run);  // its id
  // The URL to POST the run to when it ends ("" for none).
  std::string webhook(std::int64_t run);
  // A run the daemon refused: nothing of it was submitted.
  Status drop_unsubmitted_run(std::int64_t id);
  Status set_run_jobs(std::int64_t id, const std::vector<std::int64_t>& jobs, const nlohmann::json& steps);
  std::optional<RunRow> run(std::int64_t id);
  std::vector<RunRow> runs(const RunFilter& filter);
  // Every run's jobs (the event feed's map of job to run).
  std::vector<std::pair<std::int64_t, std::vector<std::int64_t>>> all_run_jobs();

  // The audit log
  Status audit(const std::string& user, const std::string& action, const std::string& detail);
  std::vector<nlohmann::json> audit_tail(int limit);

  // The site's key (made once): CSRF tokens are derived from it.
  std::string site_key() const { return site_key_; }

 private:
  std::optional<RunRow> run_locked(std::int64_t id);
  sql::Db db_;
  std::mutex mu_;
  std::map<std::int64_t, RunRow> rows_;  // runs read whole, once they have their jobs
  std::string site_key_;
};

}  // namespace yard::web
