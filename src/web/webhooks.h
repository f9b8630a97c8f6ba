// The optional webhook of a run: when the run ends, the service POSTs the run (as the API
// shows it) to the URL given when it was started, tried three times (1, 4 and 16 s apart),
// each try in the audit log. A site sends webhooks only to the places its admin allows
// (`yard web serve --webhook-prefix URL`, repeatable): the service's own network position
// is not lent to whoever starts a run.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"

namespace yard::web {

struct Site;

class Webhooks {
 public:
  ~Webhooks();
  // Checks a URL against the allowed prefixes: an error for the field "webhook" if not.
  Status check(const std::string& url) const;
  void start(Site& site, std::vector<std::string> allowed);
  // The run ended: its webhook, if any, is sent by the sender's thread.
  void run_ended(std::int64_t run);

 private:
  void send_all(Site& site);
  std::vector<std::string> allowed_;
  std::mutex mu_;
  std::condition_variable queued_;
  std::deque<std::int64_t> queue_;
  bool stop_ = false;
  std::thread sender_;
};

}  // namespace yard::web
