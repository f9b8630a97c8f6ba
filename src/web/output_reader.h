// A job's output as the logs request gives it, read by the service itself once the daemon
// has said where the file is: the service runs as the daemon's user on its machine, and a
// page following a log (or 200 of them) costs the daemon one request per job, not one per
// read. Until the daemon names a path (the job has not started), and when the feed does
// not know whether the job ended, the daemon is asked.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "protocol/queries.h"
#include "core/result.h"

namespace yard::web {

struct Site;

class OutputReader {
 public:
  Result<LogsReply> read(Site& site, const LogsRequest& request);

 private:
  std::mutex mu_;
  std::map<std::pair<std::int64_t, bool>, std::string> paths_;  // (job, stderr) -> file
};

}  // namespace yard::web
