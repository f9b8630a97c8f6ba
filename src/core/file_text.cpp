#include "core/file_text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace yard {

const char* file_type_name(unsigned st_mode) {
  switch (st_mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    case S_IFLNK: return "a symbolic link";
    default: return "not a regular file";
  }
}

std::string readable_size(std::size_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  char buf[32];
  const double kib = static_cast<double>(bytes) / 1024;
  if (kib < 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", kib);
  else std::snprintf(buf, sizeof buf, "%.1f MiB", kib / 1024);
  return buf;
}

Result<std::string> read_file(const std::string& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return err("cannot read '" + path + "': " + std::strerror(errno));
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return err("cannot read '" + path + "': " + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return err("'" + path + "' is " + file_type_name(st.st_mode) + ", not a file that can be read whole");
  }
  if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return err("'" + path + "' is " + readable_size(static_cast<std::size_t>(st.st_size)) + "; at most " +
               readable_size(max_bytes) + " can be read");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      return err("cannot read '" + path + "': " + std::strerror(e));
    }
    text.append(buf, static_cast<std::size_t>(n));
    // A file that grows while it is read (or a /proc entry of no stated size) is held to
    // the same bound.
    if (text.size() > max_bytes) {
      ::close(fd);
      return err("'" + path + "' grew past " + readable_size(max_bytes) + " while it was read; at most that can be read");
    }
  }
  ::close(fd);
  return text;
}

std::string read_file_or_empty(const std::string& path) {
  auto text = read_file(path);
  return text ? std::move(*text) : std::string();
}

Status write_whole_file(const std::string& path, std::string_view text, unsigned mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, static_cast<mode_t>(mode));
  if (fd < 0) return err("cannot write " + path + ": " + std::strerror(errno));
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = n < 0 ? errno : EIO;
      ::close(fd);
      return err("cannot write " + path + ": " + std::strerror(e));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return err("cannot write " + path + ": " + std::strerror(errno));
  return {};
}

}  // namespace yard
