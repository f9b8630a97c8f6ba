// The routes in force: the site's and the user's routes.yaml, read again when either
// changes (looked at before each routing decision: two stat calls), so that one line
// changed reroutes the next job without a restart. A file that no longer reads is
// refused whole, said once in the daemon's log naming its line, and the routes read
// before stay in force. The queues the routes name are checked against their
// schedulers' listings of them (queue_limits_check.h) whenever either changes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "routes/queue_limits_check.h"
#include "routes/routes.h"

namespace yard {

class RoutesFile {
 public:
  // `files`: the site's, then the user's; `log` gets a line for each reading. `ask` is
  // given each reading that parses, to have the limits of its queues read (they arrive
  // later, through `listing_of`, and the routes are checked again then).
  RoutesFile(std::vector<std::string> files, std::function<bool(const std::string&)> is_backend,
             std::function<void(const std::string&)> log, QueueListingOf listing_of = nullptr,
             std::function<void(const Routes&)> ask = nullptr);

  // The routes in force, read again first if a file changed.
  const Routes& current();
  // The last reading's refusal ("" when the files read well).
  const std::string& problem() const { return problem_; }
  const std::vector<std::string>& files() const { return files_; }

 private:
  std::string signature() const;
  // The versions of the queue listings of the last reading's targets.
  std::string listings_signature() const;

  std::vector<std::string> files_;
  std::function<bool(const std::string&)> is_backend_;
  std::function<void(const std::string&)> log_;
  QueueListingOf listing_of_;
  std::function<void(const Routes&)> ask_;
  std::vector<std::string> targets_;  // the backends the last reading named
  std::string signature_ = "(never read)", listings_;
  std::string problem_;
  Routes routes_;
};

// /etc/switchyard/routes.yaml (YARD_SITE_CONFIG_DIR instead of /etc/switchyard), then
// `config_dir`/routes.yaml.
std::vector<std::string> routes_files(const std::string& config_dir);

}  // namespace yard
