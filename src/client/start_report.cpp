#include "client/start_report.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace yard {

StartReport StartReport::from_environment() {
  const char* v = std::getenv(kStartReportEnv);
  int fd = v ? std::atoi(v) : -1;
  ::unsetenv(kStartReportEnv);
  if (fd < 3 || ::fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) fd = -1;
  return StartReport(fd);
}

StartReport::~StartReport() {
  if (fd_ >= 0) ::close(fd_);
}

void StartReport::send(const std::string& line) {
  if (fd_ < 0) return;
  std::string out = line;
  for (char& c : out)
    if (c == '\n') c = ' ';
  out += '\n';
  (void)!::write(fd_, out.data(), out.size());
  ::close(fd_);
  fd_ = -1;
}

}  // namespace yard
