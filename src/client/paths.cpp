#include "client/paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace yard {
namespace {

// Only absolute paths count (the XDG spec says so of its variables): the daemon works
// from /, and a relative path would name another place for it than for its client.
std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v == '/' ? std::string(v) : fallback;
}

// A file the user named (YARD_CONFIG=local.yaml): from the directory it was named in.
std::string file_env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  std::error_code ec;
  auto absolute = std::filesystem::absolute(v, ec);
  return ec ? std::string(v) : absolute.string();
}

}  // namespace

Paths default_paths() {
  const std::string home = env_or("HOME", "/tmp");
  Paths p;
  p.runtime_dir = env_or("XDG_RUNTIME_DIR", "") .empty()
                      ? "/tmp/switchyard-" + std::to_string(::getuid())
                      : env_or("XDG_RUNTIME_DIR", "") + "/switchyard";
  p.state_dir = env_or("XDG_STATE_HOME", home + "/.local/state") + "/switchyard";
  p.socket = p.runtime_dir + "/yard.sock";
  p.store = p.state_dir + "/store.db";
  p.log = p.state_dir + "/daemon.log";
  p.lock = p.state_dir + "/daemon.lock";
  p.config = file_env_or("YARD_CONFIG", env_or("XDG_CONFIG_HOME", home + "/.config") + "/switchyard/local.yaml");
  p.policy = file_env_or("YARD_POLICY", env_or("XDG_CONFIG_HOME", home + "/.config") + "/switchyard/policy.yaml");
  return p;
}

Status ensure_dirs(const Paths& p) {
  std::error_code ec;
  // The parents as the umask makes them (~/.local/state is the user's to shape); the
  // state directory itself 0700: it holds every job's environment and script.
  std::filesystem::create_directories(std::filesystem::path(p.state_dir).parent_path(), ec);
  if (::mkdir(p.state_dir.c_str(), 0700) != 0 && errno != EEXIST)
    return err("cannot create state directory " + p.state_dir + ": " + std::strerror(errno));
  std::filesystem::create_directories(std::filesystem::path(p.runtime_dir).parent_path(), ec);
  if (::mkdir(p.runtime_dir.c_str(), 0700) != 0 && errno != EEXIST)
    return err("cannot create runtime directory " + p.runtime_dir);
  struct stat st{};
  if (::lstat(p.runtime_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return err(p.runtime_dir + " is not a directory");
  if (st.st_uid != ::getuid()) return err(p.runtime_dir + " belongs to another user; refusing to use it");
  if ((st.st_mode & 077) != 0 && ::chmod(p.runtime_dir.c_str(), 0700) != 0)
    return err("cannot make " + p.runtime_dir + " private (0700)");
  return {};
}

std::vector<std::string> make_state_private(const Paths& p) {
  std::vector<std::string> notes;
  auto tighten = [&notes](const std::string& path, mode_t mode) {
    struct stat st{};
    if (::lstat(path.c_str(), &st) != 0 || S_ISLNK(st.st_mode) || st.st_uid != ::getuid()) return;
    if ((st.st_mode & 077) == 0) return;
    char was[8];
    std::snprintf(was, sizeof was, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    if (::chmod(path.c_str(), mode) == 0)
      notes.push_back("made " + path + " private (" + (mode == 0700 ? "0700" : "0600") + "; it was " + was + ")");
    else
      notes.push_back("cannot make " + path + " private: " + std::strerror(errno));
  };
  tighten(p.state_dir, 0700);
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) tighten(p.store + suffix, 0600);
  tighten(p.log, 0600);
  tighten(p.lock, 0600);
  return notes;
}

}  // namespace yard
