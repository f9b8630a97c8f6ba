// What every handler of the web service shares: its settings, its database, the event
// feed, the login limiter, and a way to the daemon. The service is one site: it runs as
// the site's service account, whose daemon runs every user's jobs on every backend.
#pragma once

#include <memory>
#include <string>

#include "client/daemon_client.h"
#include "web/event_feed.h"
#include "web/login_limiter.h"
#include "web/output_reader.h"
#include "web/run_cache.h"
#include "web/templates.h"
#include "web/web_db.h"
#include "web/webhooks.h"

namespace yard::web {

struct SiteSettings {
  std::string site_dir;       // web.db, runs/, uploads/ (0700)
  std::string templates_dir;  // the admin's templates (*.yaml)
  std::string static_dir;     // the built pages (index.html, assets/)
  bool secure_cookies = false;  // behind TLS (a reverse proxy): cookies marked Secure
};

struct Site {
  SiteSettings settings;
  std::unique_ptr<WebDb> db;
  Paths daemon_paths;
  std::unique_ptr<EventFeed> feed;
  LoginLimiter logins;
  RunCache runs;
  OutputReader outputs;
  TemplateShelf template_shelf;
  Webhooks webhooks;

  // A client of the service account's daemon (started when it is not running). One per
  // request: it holds no connection between calls.
  DaemonClient daemon() const { return DaemonClient(daemon_paths, true); }
  // The templates as the admin's files are now (read at each use: an edit needs no restart).
  Result<std::vector<Template>> templates() { return template_shelf.load(settings.templates_dir); }
  std::string run_dir(std::int64_t run) const { return settings.site_dir + "/runs/" + std::to_string(run); }
  std::string upload_dir(const std::string& user) const { return settings.site_dir + "/uploads/" + user; }
};

}  // namespace yard::web
