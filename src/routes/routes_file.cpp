#include "routes/routes_file.h"

#include <sys/stat.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>

namespace yard {

RoutesFile::RoutesFile(std::vector<std::string> files, std::function<bool(const std::string&)> is_backend,
                       std::function<void(const std::string&)> log, QueueListingOf listing_of,
                       std::function<void(const Routes&)> ask)
    : files_(std::move(files)),
      is_backend_(std::move(is_backend)),
      log_(std::move(log)),
      listing_of_(std::move(listing_of)),
      ask_(std::move(ask)) {}

std::string RoutesFile::listings_signature() const {
  std::string sig;
  if (!listing_of_) return sig;
  for (const auto& backend : targets_)
    if (const QueueListing* l = listing_of_(backend)) sig += backend + ":" + std::to_string(l->version) + ";";
  return sig;
}

std::string RoutesFile::signature() const {
  std::string sig;
  for (const auto& f : files_) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0) {
      sig += "-;";
      continue;
    }
    sig += std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec) + ";";
    // A file changed within the file system's time granularity of the last look may keep
    // its size and time: one that recent is told by its bytes (a few hundred).
    if (std::time(nullptr) - st.st_mtim.tv_sec < 3) {
      std::ifstream in(f, std::ios::binary);
      sig += std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()) + ";";
    }
  }
  return sig;
}

const Routes& RoutesFile::current() {
  std::string now = signature();
  if (now == signature_ && listings_signature() == listings_) return routes_;
  const bool first = signature_ == "(never read)";
  signature_ = std::move(now);
  auto read = load_routes(files_, is_backend_);
  if (read) {
    targets_.clear();
    for (const auto& [backend, target] : read->targets) targets_.push_back(backend);
    if (ask_) ask_(*read);
    if (auto s = check_queue_limits(*read, listing_of_); !s) read = s.failure();
  }
  listings_ = listings_signature();
  if (!read) {
    if (read.error() == problem_) return routes_;  // said already (a listing changed elsewhere)
    problem_ = read.error();
    log_(problem_ + "; the routes read before stay in force");
    return routes_;
  }
  problem_.clear();
  routes_ = std::move(*read);
  if (!first || !routes_.empty())
    log_("routes read" + std::string(first ? "" : " again") + ": " + std::to_string(routes_.wishes.size()) +
         " wishes, " + std::to_string(routes_.classes.size()) + " classes, " + std::to_string(routes_.targets.size()) +
         " targets");
  return routes_;
}

std::vector<std::string> routes_files(const std::string& config_dir) {
  const char* site = std::getenv("YARD_SITE_CONFIG_DIR");
  return {std::string(site && *site ? site : "/etc/switchyard") + "/routes.yaml", config_dir + "/routes.yaml"};
}

}  // namespace yard
