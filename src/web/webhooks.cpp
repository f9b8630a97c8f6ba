#include "web/webhooks.h"

#include <httplib.h>

#include <chrono>

#include "web/site.h"

namespace yard::web {

Webhooks::~Webhooks() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  queued_.notify_all();
  if (sender_.joinable()) sender_.detach();
}

Status Webhooks::check(const std::string& url) const {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
    return Error{"webhook: an http:// or https:// URL, not '" + url + "'", ErrorKind::Invalid};
  for (const auto& prefix : allowed_)
    if (url.rfind(prefix, 0) == 0) return {};
  if (allowed_.empty()) return Error{"webhook: this site sends no webhooks", ErrorKind::Invalid};
  std::string list;
  for (const auto& p : allowed_) list += (list.empty() ? "" : ", ") + p;
  return Error{"webhook: this site sends webhooks only to " + list, ErrorKind::Invalid};
}

void Webhooks::start(Site& site, std::vector<std::string> allowed) {
  allowed_ = std::move(allowed);
  sender_ = std::thread([this, &site] { send_all(site); });
}

void Webhooks::run_ended(std::int64_t run) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back(run);
  }
  queued_.notify_one();
}

void Webhooks::send_all(Site& site) {
  while (true) {
    std::int64_t run = 0;
    {
      std::unique_lock lock(mu_);
      queued_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      run = queue_.front();
      queue_.pop_front();
    }
    const std::string url = site.db->webhook(run);
    auto row = site.db->run(run);
    if (url.empty() || !row) continue;
    auto shown = site.runs.runs(site, {*row});
    const std::string body = nlohmann::json{{"run", shown ? shown->front() : nlohmann::json{{"id", run}}}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
    // scheme://host[:port] and the path after it.
    const auto host_end = url.find('/', url.find("://") + 3);
    const std::string origin = url.substr(0, host_end), path = host_end == std::string::npos ? "/" : url.substr(host_end);
    std::string outcome;
    for (int attempt = 0, wait_s = 1; attempt < 3; ++attempt, wait_s *= 4) {
      httplib::Client client(origin);
      client.set_connection_timeout(5, 0);
      client.set_read_timeout(10, 0);
      auto res = client.Post(path.c_str(), body, "application/json");
      outcome = res ? "HTTP " + std::to_string(res->status) : "not delivered: " + httplib::to_string(res.error());
      if (res && res->status >= 200 && res->status < 300) break;
      std::unique_lock lock(mu_);
      if (queued_.wait_for(lock, std::chrono::seconds(wait_s), [this] { return stop_; })) return;
    }
    (void)site.db->audit(row->owner, "webhook", "run " + std::to_string(run) + " to " + url + ": " + outcome);
  }
}

}  // namespace yard::web
