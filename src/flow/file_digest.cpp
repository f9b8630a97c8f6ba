#include "flow/file_digest.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace yard {
namespace {

std::string hex128(XXH128_hash_t h) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

Result<std::string> file_digest(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return err("cannot read input " + path + ": " + std::strerror(errno));
  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), XXH3_freeState);
  XXH3_128bits_reset(state.get());
  std::vector<char> buf(1 << 20);
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      return err("cannot read input " + path + ": " + std::strerror(e));
    }
    if (n == 0) break;
    XXH3_128bits_update(state.get(), buf.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  return "xxh128:" + hex128(XXH3_128bits_digest(state.get()));
}

}  // namespace

Result<FileDigest> stat_for_digest(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return err("input " + path + ": " + std::strerror(errno));
  FileDigest d;
  d.path = path;
  d.size = static_cast<std::int64_t>(st.st_size);
  d.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  d.inode = static_cast<std::int64_t>(st.st_ino);
  if (S_ISDIR(st.st_mode)) {
    // A directory's own time does not change when a file in it is rewritten: its stamp is
    // every entry's path, size, time and inode below it, folded into one number.
    std::string listing;
    std::error_code ec;
    d.size = 0;
    for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      struct stat e{};
      if (::stat(it->path().c_str(), &e) != 0) continue;
      listing += it->path().string() + '\0' + std::to_string(e.st_size) + ' ' + std::to_string(e.st_mtim.tv_sec) + '.' +
                 std::to_string(e.st_mtim.tv_nsec) + ' ' + std::to_string(e.st_ino) + '\n';
      ++d.size;
    }
    if (ec) return err("cannot list input " + path + ": " + ec.message());
    d.mtime_ns = static_cast<std::int64_t>(XXH3_64bits(listing.data(), listing.size()) >> 1);
  }
  return d;
}

Result<std::string> content_digest(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return err("input " + path + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return file_digest(path);
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(path, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec))
    names.push_back(it->path().filename().string());
  if (ec) return err("cannot list input " + path + ": " + ec.message());
  std::sort(names.begin(), names.end());
  std::string text;
  for (const auto& n : names) {
    auto d = content_digest(path + "/" + n);
    if (!d) return d.failure();
    text += n + '\0' + *d + '\n';
  }
  return "dir:" + hex128(XXH3_128bits(text.data(), text.size()));
}

Result<InputDigests> digest_inputs(const std::vector<std::string>& paths, const std::vector<FileDigest>& known,
                                   const std::function<void(const std::string&, std::int64_t)>& progress) {
  InputDigests out;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    auto now = stat_for_digest(paths[i]);
    if (!now) return now.failure();
    const FileDigest* was = i < known.size() ? &known[i] : nullptr;
    if (was && !was->digest.empty() && was->size == now->size && was->mtime_ns == now->mtime_ns &&
        was->inode == now->inode) {
      out.by_path[paths[i]] = was->digest;
      continue;
    }
    if (progress) progress(paths[i], now->size);
    auto d = content_digest(paths[i]);
    if (!d) return d.failure();
    out.bytes_read += now->size;
    now->digest = *d;
    out.by_path[paths[i]] = *d;
    out.fresh.push_back(std::move(*now));
  }
  return out;
}

}  // namespace yard
