#include "web/output_reader.h"

#include "web/site.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace yard::web {

Result<LogsReply> OutputReader::read(Site& site, const LogsRequest& request) {
  std::string path;
  {
    std::lock_guard lock(mu_);
    if (auto it = paths_.find({request.id, request.stderr_stream}); it != paths_.end()) path = it->second;
  }
  const auto state = site.feed->job_state(request.id);
  if (!path.empty() && state) {
    LogsReply reply;
    reply.path = path;
    reply.offset = request.offset;
    reply.ended = is_terminal(*state);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd >= 0 && ::fstat(fd, &st) == 0) {
      reply.size = st.st_size;
      const std::int64_t want = std::clamp<std::int64_t>(st.st_size - request.offset, 0, request.limit);
      reply.data.resize(static_cast<std::size_t>(want));
      const ssize_t n = want > 0 ? ::pread(fd, reply.data.data(), reply.data.size(), request.offset) : 0;
      reply.data.resize(static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    }
    if (fd >= 0) ::close(fd);
    if (fd >= 0) return reply;
  }
  auto daemon = site.daemon();
  auto reply = daemon.logs(request);
  if (reply && !reply->path.empty()) {
    std::lock_guard lock(mu_);
    paths_[{request.id, request.stderr_stream}] = reply->path;
  }
  return reply;
}

}  // namespace yard::web
