#include "server/paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace yard {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
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
  p.config = env_or("YARD_CONFIG", env_or("XDG_CONFIG_HOME", home + "/.config") + "/switchyard/local.yaml");
  p.policy = env_or("YARD_POLICY", env_or("XDG_CONFIG_HOME", home + "/.config") + "/switchyard/policy.yaml");
  return p;
}

Status ensure_dirs(const Paths& p) {
  std::error_code ec;
  std::filesystem::create_directories(p.state_dir, ec);
  if (ec) return err("cannot create state directory " + p.state_dir + ": " + ec.message());
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

}  // namespace yard
