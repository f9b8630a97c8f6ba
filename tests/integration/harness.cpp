#include "harness.h"

#include <atomic>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace yard::test {
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

double seconds(const nlohmann::json& t) {
  if (!t.is_string()) return -1;
  std::tm tm{};
  int ms = 0;
  const std::string s = t.get<std::string>();
  if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec, &ms) != 7)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<double>(::timegm(&tm)) + static_cast<double>(ms) / 1000.0;
}

bool wait_until(const std::function<bool()>& done, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto delay = std::chrono::milliseconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds(100));
  }
  return done();
}

long pid_running(const std::vector<std::string>& args) {
  DIR* proc = ::opendir("/proc");
  if (!proc) return 0;
  std::string want;
  for (const auto& a : args) want += a + '\0';
  long found = 0;
  while (dirent* e = ::readdir(proc)) {
    const long pid = std::strtol(e->d_name, nullptr, 10);
    if (pid <= 0) continue;
    std::ifstream f("/proc/" + std::string(e->d_name) + "/cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (cmdline.find(want) != std::string::npos) found = pid;
  }
  ::closedir(proc);
  return found;
}

bool process_alive(long pid) {
  if (pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0) return false;
  // A zombie is dead for our purposes.
  std::string st = slurp("/proc/" + std::to_string(pid) + "/stat");
  auto close = st.rfind(')');
  return close == std::string::npos || st.size() < close + 3 || st[close + 2] != 'Z';
}

void YardWorld::SetUp() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  // Short: the daemon's socket lives below it, and socket paths hold at most 107 bytes.
  // A parameterized test's name has a '/' ("Test/sge"): one directory, not a parent that
  // the first test's user (root, for another backend's suite) would own.
  std::string name = std::string(info->name()).substr(0, 40);
  std::replace(name.begin(), name.end(), '/', '-');
  dir_ = (fs::temp_directory_path() / ("yard-it-" + name + "-" + std::to_string(::getpid()))).string();
  fs::remove_all(dir_);
  fs::create_directories(dir_ + "/run");
  configure("kill_grace: 1\n");
}

void YardWorld::TearDown() {
  long pid = daemon_pid();
  if (pid > 0) {
    yard({"server", "stop", "--kill-jobs"});
    if (!wait_until([&] { return !process_alive(pid); }, 30)) ::kill(static_cast<pid_t>(pid), SIGKILL);
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void YardWorld::configure(const std::string& yaml) {
  fs::create_directories(dir_ + "/config/switchyard");
  write("config/switchyard/local.yaml", yaml);
}

Output YardWorld::yard(const std::vector<std::string>& args, const std::vector<std::string>& extra_env,
                       double timeout_s) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    if (kv.rfind("HOME=", 0) == 0 || kv.rfind("XDG_", 0) == 0 || kv.rfind("YARD_CONFIG=", 0) == 0 ||
        kv.rfind("YARD_POLICY=", 0) == 0)
      continue;
    bool overridden = false;  // by extra_env: the first of two equal names would win
    for (auto& x : extra_env) overridden = overridden || kv.rfind(x.substr(0, x.find('=') + 1), 0) == 0;
    if (overridden) continue;
    env.push_back(kv);
  }
  env.push_back("HOME=" + dir_);
  env.push_back("XDG_RUNTIME_DIR=" + dir_ + "/run");
  env.push_back("XDG_STATE_HOME=" + dir_ + "/state");
  env.push_back("XDG_CONFIG_HOME=" + dir_ + "/config");
  for (auto& e : extra_env) env.push_back(e);
  std::vector<char*> envp, argv;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  // YARD_TEST_YARD: a copy the test's user can run (tests/integration/as_test_user.sh).
  const char* yard_copy = std::getenv("YARD_TEST_YARD");
  std::string bin = yard_copy && *yard_copy ? yard_copy : YARD_BINARY;
  argv.push_back(bin.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);

  // Files of their own per call: a test may run yard in several threads (a watch beside
  // the submissions it sees).
  static std::atomic<int> calls{0};
  const std::string n = std::to_string(calls++);
  const std::string out = dir_ + "/.out" + n, err = dir_ + "/.err" + n;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addchdir_np(&fa, (run_in_.empty() ? dir_ : run_in_).c_str());
  pid_t pid = 0;
  Output o;
  if (posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), envp.data()) != 0) {
    ADD_FAILURE() << "cannot run " << bin;
    return o;
  }
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  if (timeout_s > 0 && !wait_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, timeout_s)) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  } else if (timeout_s <= 0) {
    ::waitpid(pid, &status, 0);
  }
  o.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  o.out = slurp(out);
  o.err = slurp(err);
  ::unlink(out.c_str());
  ::unlink(err.c_str());
  return o;
}

long YardWorld::submit(const std::vector<std::string>& args) {
  std::vector<std::string> a{"submit", "--json"};
  a.insert(a.end(), args.begin(), args.end());
  Output o = yard(a);
  EXPECT_EQ(o.rc, 0) << o.err;
  try {
    return nlohmann::json::parse(o.out).at("id").get<long>();
  } catch (...) {
    ADD_FAILURE() << "submit printed: " << o.out << o.err;
    return -1;
  }
}

int YardWorld::wait(const std::vector<long>& ids) {
  std::vector<std::string> a{"wait", "--timeout", "120"};
  for (long id : ids) a.push_back(std::to_string(id));
  return yard(a).rc;
}

nlohmann::json YardWorld::status(const std::vector<long>& ids) {
  std::vector<std::string> a{"status", "--json"};
  for (long id : ids) a.push_back(std::to_string(id));
  Output o = yard(a);
  EXPECT_EQ(o.rc, 0) << o.err;
  try {
    return nlohmann::json::parse(o.out);
  } catch (...) {
    ADD_FAILURE() << "status printed: " << o.out << o.err;
    return nlohmann::json::array();
  }
}

nlohmann::json YardWorld::job(long id) {
  auto s = status({id});
  return s.empty() ? nlohmann::json() : s[0];
}

bool YardWorld::all_ended(double seconds) {
  return wait_until(
      [&] {
        for (auto& j : status())
          if (j["state"] == "PENDING" || j["state"] == "RUNNING") return false;
        return true;
      },
      seconds);
}

nlohmann::json YardWorld::stored_job(long id) {
  const std::string store = dir_ + "/state/switchyard/store.db";
  const std::string out = sh("sqlite3 -readonly -json '" + store +
                             "' \"SELECT uid, nullif(native_id, '') AS native_id, state FROM jobs WHERE id = " +
                             std::to_string(id) + "\"");
  auto rows = nlohmann::json::parse(out, nullptr, false);
  return rows.is_array() && !rows.empty() ? rows[0] : nlohmann::json();
}

long YardWorld::daemon_pid() {
  Output o = yard({"server", "status", "--json"});
  if (o.rc != 0) return 0;
  try {
    return nlohmann::json::parse(o.out).value("pid", 0L);
  } catch (...) {
    return 0;
  }
}

std::string YardWorld::read(const std::string& p) const { return slurp(dir_ + "/" + p); }

void YardWorld::write(const std::string& p, const std::string& text) const {
  std::ofstream(dir_ + "/" + p) << text;
}

std::map<std::string, int> line_counts(const std::string& text) {
  std::map<std::string, int> n;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) ++n[line];
  return n;
}

std::string sh(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = ::pclose(p);
  if (rc) *rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace yard::test
