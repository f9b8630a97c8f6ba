#include "web/safe_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace yard::web {
namespace {

std::vector<std::string> names_of(const std::string& relative) {
  std::vector<std::string> names;
  std::stringstream in(relative);
  std::string name;
  while (std::getline(in, name, '/')) names.push_back(name);
  return names;
}

void walk(int dir_fd, const std::string& prefix, std::vector<FileEntry>& out, std::size_t limit, int depth) {
  DIR* d = ::fdopendir(dir_fd);
  if (!d) {
    ::close(dir_fd);
    return;
  }
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    if (out.size() >= limit) break;
    struct stat st {};
    if (::fstatat(::dirfd(d), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISREG(st.st_mode)) {
      out.push_back({prefix + name, static_cast<std::int64_t>(st.st_size),
                     static_cast<double>(st.st_mtim.tv_sec) + static_cast<double>(st.st_mtim.tv_nsec) / 1e9});
    } else if (S_ISDIR(st.st_mode) && depth < 32) {
      const int sub = ::openat(::dirfd(d), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) walk(sub, prefix + name + "/", out, limit, depth + 1);
    }
  }
  ::closedir(d);
}

}  // namespace

std::vector<FileEntry> list_files(const std::string& dir, std::size_t limit) {
  std::vector<FileEntry> out;
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) walk(fd, "", out, limit, 0);
  return out;
}

Result<OpenFile> open_below(const std::string& dir, const std::string& relative) {
  const Error missing{"no file '" + relative + "'", ErrorKind::NotFound};
  auto names = names_of(relative);
  if (names.empty() || relative.back() == '/' || relative.find('\0') != std::string::npos) return missing;
  for (const auto& n : names)
    if (n.empty() || n == "." || n == "..") return missing;
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (std::size_t i = 0; fd >= 0 && i < names.size(); ++i) {
    const bool last = i + 1 == names.size();
    const int next = ::openat(fd, names[i].c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY));
    ::close(fd);
    fd = next;
  }
  if (fd < 0) return missing;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return missing;
  }
  return OpenFile{fd, static_cast<std::int64_t>(st.st_size)};
}

bool good_upload_name(const std::string& name) {
  if (name.empty() || name.size() > 255 || name[0] == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
  });
}

Status write_upload(const std::string& dir, const std::string& name, const std::string& bytes) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{"cannot make " + dir + ": " + ec.message(), ErrorKind::Unavailable};
  const std::string part = dir + "/." + name + ".part";
  ::unlink(part.c_str());
  const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Error{"cannot write " + part, ErrorKind::Unavailable};
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const bool ok = done == bytes.size() && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(part.c_str(), (dir + "/" + name).c_str()) != 0) {
    ::unlink(part.c_str());
    return Error{"cannot store the upload " + name + " (disk full?)", ErrorKind::Unavailable};
  }
  return {};
}

}  // namespace yard::web
