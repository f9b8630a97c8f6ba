// The daemon's API as its clients use it (protocol/queries.h): the event stream, seen
// live and resumed from a cursor without a gap or a repeat; status pages and filters;
// logs that follow a running job; and requests of any bytes answered with an error kind,
// never a crash or a hang.
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "harness.h"

namespace yard::test {
namespace {

class Api : public YardWorld {
 protected:
  // Event ids and job states of `yard watch --json` output.
  static std::vector<nlohmann::json> events(const std::string& out) {
    std::vector<nlohmann::json> v;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) v.push_back(nlohmann::json::parse(line));
    return v;
  }
  // A connection to the daemon's socket with `request` sent on it.
  int open_with(const std::string& request) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string path = dir_ + "/run/switchyard/yard.sock";
    std::strcpy(addr.sun_path, path.c_str());
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << std::strerror(errno);
    EXPECT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
    return fd;
  }
  // One raw request line to the daemon's socket, and its reply line.
  std::string raw(const std::string& request) {
    const int fd = open_with(request);
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string in;
    char buf[4096];
    while (in.find('\n') == std::string::npos) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      in.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return in.substr(0, in.find('\n'));
  }
};

TEST_F(Api, AWatchSeesEveryChangeLiveAndOneResumedFromACursorMissesNothingAndRepeatsNothing) {
  Output live;
  std::thread watcher([&] { live = yard({"watch", "--json"}, {}, 120); });
  ASSERT_TRUE(wait_until([&] { return daemon_pid() != 0; }, 30));
  const long a = submit({"-o", "/dev/null", "--", "true"});
  const long b = submit({"-o", "/dev/null", "--array", "1-3", "--", "sh", "-c", "exit $SLURM_ARRAY_TASK_ID"});
  ASSERT_EQ(wait({a}), 0);
  ASSERT_EQ(wait({b}), 1);
  // The watch has seen the last end before the daemon stops (on a loaded machine it may
  // not even have connected yet): its output, as it goes, is a .out file of the world.
  const std::string last_end = "\"job\":\"" + std::to_string(b) + "_3\",";
  ASSERT_TRUE(wait_until(
      [&] {
        for (auto& f : std::filesystem::directory_iterator(dir_))
          if (f.path().filename().string().rfind(".out", 0) == 0) {
            std::istringstream text(read(f.path().filename().string()));
            for (std::string line; std::getline(text, line);)
              if (line.find(last_end) != std::string::npos && line.find("\"state\":\"FAILED\"") != std::string::npos)
                return true;
          }
        return false;
      },
      60));
  // The daemon's stop ends the stream with its reason (a watch does not start it again).
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  watcher.join();
  EXPECT_EQ(live.rc, 1) << live.err;
  EXPECT_NE(live.err.find("the daemon stopped"), std::string::npos) << live.err;
  auto seen = events(live.out);
  ASSERT_FALSE(seen.empty());
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i]["id"], static_cast<long>(i + 1)) << live.out;
  std::map<std::string, std::string> last;
  for (auto& e : seen) last[e["job"]] = e["state"];
  EXPECT_EQ(last, (std::map<std::string, std::string>{
                      {std::to_string(a), "COMPLETED"},
                      {std::to_string(b) + "_1", "FAILED"},
                      {std::to_string(b) + "_2", "FAILED"},
                      {std::to_string(b) + "_3", "FAILED"}}));
  // From a cursor: exactly what follows it.
  const long cursor = 3;
  Output resumed = yard({"watch", "--json", "--no-follow", "--since", std::to_string(cursor)});
  ASSERT_EQ(resumed.rc, 0) << resumed.err;
  auto rest = events(resumed.out);
  ASSERT_EQ(rest.size(), seen.size() - cursor);
  for (std::size_t i = 0; i < rest.size(); ++i) EXPECT_EQ(rest[i], seen[cursor + i]);
  // Filtered by job and state.
  Output failed = yard({"watch", "--json", "--no-follow", "--state", "FAILED", std::to_string(b)});
  ASSERT_EQ(failed.rc, 0) << failed.err;
  EXPECT_EQ(events(failed.out).size(), 3u) << failed.out;
  // A cursor this daemon never gave is refused, naming it.
  Output future = yard({"watch", "--since", "100000"});
  EXPECT_EQ(future.rc, 2);
  EXPECT_NE(future.err.find("cursor 100000 is ahead of the event log"), std::string::npos) << future.err;
}

TEST_F(Api, StatusPagesAndFiltersAndLogsFollowARunningJobToItsEnd) {
  std::vector<long> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(submit({"-o", "/dev/null", "-J", i % 2 ? "odd" : "even", "--", "true"}));
  ASSERT_EQ(wait(ids), 0);
  Output page = yard({"status", "--json", "--limit", "2", "--after", std::to_string(ids[1])});
  ASSERT_EQ(page.rc, 0) << page.err;
  auto p = nlohmann::json::parse(page.out);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0]["id"], ids[2]);
  EXPECT_EQ(p[1]["id"], ids[3]);
  auto odd = nlohmann::json::parse(yard({"status", "--json", "--name", "odd", "--state", "COMPLETED"}).out);
  ASSERT_EQ(odd.size(), 2u);
  EXPECT_EQ(odd[0]["id"], ids[1]);
  Output bad = yard({"status", "--state", "DONE"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("unknown state 'DONE'"), std::string::npos) << bad.err;
  // A job that writes over a second: -f prints it all, and returns when the job ends.
  const long slow = submit({"--", "sh", "-c", "for i in 1 2 3 4 5; do echo line $i; sleep 0.2; done"});
  Output followed = yard({"logs", "-f", std::to_string(slow)}, {}, 60);
  EXPECT_EQ(followed.rc, 0) << followed.err;
  EXPECT_EQ(followed.out, "line 1\nline 2\nline 3\nline 4\nline 5\n");
  EXPECT_EQ(status({slow})[0]["state"], "COMPLETED");
}

TEST_F(Api, RequestsOfAnyBytesGetAnErrorWithItsKindAndTheDaemonGoesOn) {
  const long a = submit({"-o", "/dev/null", "--", "true"});
  ASSERT_EQ(wait({a}), 0);
  const long pid = daemon_pid();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {std::string("\x00\xff\xfe garbage", 12) + "\n", "not JSON"},
      {"[1,2]\n", "not a JSON object"},
      {"{\"op\":\"nope\"}\n", "unknown request 'nope'"},
      {"{\"op\":\"jobs\",\"states\":[\"BOGUS\"]}\n", "unknown job state 'BOGUS'"},
      {"{\"op\":\"jobs\",\"limit\":-1}\n", "malformed jobs request"},
      {"{\"op\":\"job\",\"id\":0}\n", "must be a job id"},
      {"{\"op\":\"job\",\"id\":424242}\n", "no job 424242"},
      {"{\"op\":\"logs\",\"id\":1,\"stream\":\"both\"}\n", "not stdout or stderr"},
      {"{\"op\":\"logs\",\"id\":1,\"offset\":-4}\n", "negative"},
      {"{\"op\":\"wait\",\"ids\":[]}\n", "no ids"},
      {"{\"op\":\"wait\",\"ids\":\"1\"}\n", "malformed wait request"},
      {"{\"op\":\"watch\",\"since\":-1}\n", "negative"},
      {"{\"op\":\"watch\",\"since\":1e300}\n", "malformed watch request"},
  };
  for (auto& [request, says] : cases) {
    const std::string reply = raw(request);
    auto j = nlohmann::json::parse(reply, nullptr, false);
    ASSERT_TRUE(j.is_object()) << request << " -> " << reply;
    EXPECT_EQ(j["ok"], false) << request;
    EXPECT_TRUE(j["kind"] == "invalid" || j["kind"] == "not_found") << reply;
    EXPECT_NE(j.value("error", "").find(says), std::string::npos) << request << " -> " << reply;
  }
  EXPECT_EQ(daemon_pid(), pid);
  // And it still answers: one job in full, with its spec and its history.
  auto one = nlohmann::json::parse(raw("{\"op\":\"job\",\"id\":" + std::to_string(a) + "}\n"));
  EXPECT_EQ(one["ok"], true);
  EXPECT_EQ(one["job"]["state"], "COMPLETED");
  EXPECT_EQ(one["spec"]["argv"], nlohmann::json({"true"}));
  EXPECT_EQ(one["events"].back()["state"], "COMPLETED");
}

TEST_F(Api, AThousandWatchersThatNeverReadDoNotHoldBackTenThousandJobs) {
  rlimit nofile{4096, 4096};
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &nofile), 0);
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  const long pid = daemon_pid();
  std::vector<int> unread;
  for (int i = 0; i < 1000; ++i) unread.push_back(open_with("{\"op\":\"watch\",\"since\":0}\n"));
  const long array = submit({"-o", "/dev/null", "--array", "1-10000", "--", "true"});
  EXPECT_EQ(yard({"wait", std::to_string(array)}, {}, 900).rc, 0);
  // What the daemon holds for them is bounded (64 KiB each at most), and it answers.
  long rss_kib = 0;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) rss_kib = std::stol(line.substr(6));
  EXPECT_LT(rss_kib, 1000 * 64 + 200 * 1024) << "KiB";
  EXPECT_EQ(daemon_pid(), pid);
  for (int fd : unread) ::close(fd);
  // A watcher that reads gets the whole log, every event once: 3 per job.
  Output all = yard({"watch", "--no-follow", "--state", "COMPLETED", std::to_string(array)}, {}, 300);
  ASSERT_EQ(all.rc, 0) << all.err;
  EXPECT_EQ(std::count(all.out.begin(), all.out.end(), '\n'), 10000);
}

}  // namespace
}  // namespace yard::test
