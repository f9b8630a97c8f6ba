// The store is the commit point. The state directory sits on a small tmpfs that the test
// fills at each point of a job's life (submit, start, end, array hand-off, dependency
// release, cancel): every job appends its tag to a ledger outside it, and however the
// daemon copes (failing requests, restarting from the store, refusing to start until
// there is room), every acknowledged job runs exactly once and no refused one runs.
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <filesystem>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "harness.h"

namespace yard::test {
namespace {

class DiskFull : public YardWorld {
 protected:
  void SetUp() override {
    YardWorld::SetUp();
    std::filesystem::create_directories(dir_ + "/state");
    ASSERT_EQ(::mount("tmpfs", (dir_ + "/state").c_str(), "tmpfs", 0, "size=8m"), 0)
        << "mounting a tmpfs needs root (the test machine runs as root): " << std::strerror(errno);
    mounted_ = true;
  }
  void TearDown() override {
    free_disk();
    YardWorld::TearDown();
    if (mounted_) ::umount2((dir_ + "/state").c_str(), MNT_DETACH);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Takes every free byte of the tmpfs.
  void fill() {
    int fd = ::open((dir_ + "/state/filler").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    ASSERT_GE(fd, 0);
    static const std::string chunk(1 << 16, 'x');
    while (::write(fd, chunk.data(), chunk.size()) > 0) {
    }
    while (::write(fd, chunk.data(), 1) > 0) {
    }
    ::close(fd);
  }
  void free_disk() { ::unlink((dir_ + "/state/filler").c_str()); }

  // Submits a job that records `tag` in the ledger, then runs `rest`. Returns its id,
  // or 0 when the submission was refused (then it must never run).
  long submit_tagged(const std::string& tag, const std::vector<std::string>& flags = {},
                     const std::string& rest = "true") {
    std::vector<std::string> a{"submit", "--json", "-o", "/dev/null"};
    a.insert(a.end(), flags.begin(), flags.end());
    for (std::string w : {"--", "sh", "-c"}) a.push_back(w);
    a.push_back("echo " + tag + ".${SLURM_ARRAY_TASK_ID:-0} >> " + dir_ + "/ledger; " + rest);
    Output o = yard(a);
    if (o.rc != 0) {
      EXPECT_EQ(o.rc, 1) << "a store that cannot record a job is a failure, not bad input: " << o.err;
      EXPECT_NE(o.err.find("store"), std::string::npos) << "the message names the store: " << o.err;
      refused_.push_back(tag);
      return 0;
    }
    long id = nlohmann::json::parse(o.out).at("id").get<long>();
    acknowledged_[tag] = id;
    return id;
  }

  // Frees the disk, has a daemon running again, waits for every acknowledged job, and
  // checks the ledger: `runs` times each acknowledged tag (elements `.0`... of arrays of
  // `elements`), never a refused one.
  void settle_and_check(int elements = 1, const std::set<std::string>& maybe_not_run = {}) {
    free_disk();
    ASSERT_EQ(yard({"server", "start"}).rc, 0);
    std::vector<long> ids;
    for (auto& [tag, id] : acknowledged_) ids.push_back(id);
    std::vector<std::string> w{"wait", "--timeout", "120"};
    for (long id : ids) w.push_back(std::to_string(id));
    yard(w);
    for (auto& j : status())
      EXPECT_TRUE(j["state"] != "PENDING" && j["state"] != "RUNNING")
          << j.dump() << "\ndaemon.log:\n" << read("state/switchyard/daemon.log");
    std::map<std::string, int> runs;
    std::istringstream in(read("ledger"));
    std::string line;
    while (in >> line) ++runs[line];
    for (auto& [tag, id] : acknowledged_)
      for (int e = 0; e < elements; ++e) {
        const std::string key = tag + "." + std::to_string(elements > 1 ? e : 0);
        if (maybe_not_run.count(tag)) EXPECT_LE(runs[key], 1) << key;
        else EXPECT_EQ(runs[key], 1) << key << " (job " << id << ") ran " << runs[key] << " times";
      }
    for (auto& tag : refused_)
      for (int e = 0; e < elements; ++e) EXPECT_EQ(runs[tag + "." + std::to_string(e)], 0) << "refused " << tag << " ran";
  }

  std::map<std::string, long> acknowledged_;
  std::vector<std::string> refused_;
  bool mounted_ = false;
};

TEST_F(DiskFull, SubmitsAreRefusedNotAcknowledgedAndLost) {
  ASSERT_GT(submit_tagged("before"), 0);
  fill();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(submit_tagged("full" + std::to_string(i)), 0);
  free_disk();
  ASSERT_GT(submit_tagged("after"), 0);
  settle_and_check();
  // The refused submissions left no job behind: only the two acknowledged exist.
  EXPECT_EQ(status().size(), 2u);
}

TEST_F(DiskFull, StartsAndEndsWhileFull) {
  configure("cpus: 2\nkill_grace: 1\n");
  // Two hold the CPUs until `go`; the others wait for them: ends and starts both happen
  // while the disk is full.
  const std::string hold = "while [ ! -e " + dir_ + "/go ]; do sleep 0.02; done";
  for (int i = 0; i < 6; ++i) submit_tagged("j" + std::to_string(i), {}, i < 2 ? hold : "true");
  ASSERT_TRUE(wait_until([&] { return read("ledger").size() >= 2 * 5; }, 30));
  fill();
  write("go", "");
  // The daemon cannot record the ends: it restarts from the store (and cannot start
  // until there is room); the job host meanwhile finishes what it runs.
  ASSERT_TRUE(wait_until([&] { return read("state/switchyard/daemon.log").find("restarting") != std::string::npos; }, 30));
  settle_and_check();
}

TEST_F(DiskFull, ArrayHandOffsWhileFull) {
  configure("cpus: 2\nkill_grace: 1\nhandoff_wait: 0.5\n");
  submit_tagged("arr", {"-a", "0-39"}, "sleep 0.05");
  ASSERT_TRUE(wait_until([&] { return read("ledger").size() > 5 * 8; }, 30));
  fill();
  for (int i = 0; i < 3; ++i) submit_tagged("late" + std::to_string(i));
  settle_and_check(40);
}

TEST_F(DiskFull, DependencyReleaseWhileFull) {
  const long parent = submit_tagged("parent", {}, "while [ ! -e " + dir_ + "/go ]; do sleep 0.02; done");
  ASSERT_GT(parent, 0);
  submit_tagged("child", {"-d", "afterok:" + std::to_string(parent)});
  ASSERT_TRUE(wait_until([&] { return read("ledger").size() >= 9; }, 30));
  fill();
  write("go", "");
  ASSERT_TRUE(wait_until([&] { return read("state/switchyard/daemon.log").find("restarting") != std::string::npos; }, 30));
  settle_and_check();
  EXPECT_EQ(job(acknowledged_["child"])["state"], "COMPLETED");
}

TEST_F(DiskFull, CancelWhileFull) {
  const long running = submit_tagged("running", {}, "sleep 300");
  const long pending = submit_tagged("pending", {"-d", "afterok:" + std::to_string(running)});
  ASSERT_TRUE(wait_until([&] { return job(running)["state"] == "RUNNING"; }, 30));
  fill();
  // Either it is recorded, or the request fails and says so; never a silent success.
  Output o = yard({"cancel", std::to_string(running), std::to_string(pending)});
  if (o.rc == 0) EXPECT_TRUE(o.err.empty()) << o.err;
  else EXPECT_NE(o.err.find("store"), std::string::npos) << o.err;
  free_disk();
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
  yard({"cancel", std::to_string(running), std::to_string(pending)});
  settle_and_check(1, {"pending", "running"});
  EXPECT_EQ(job(running)["state"], "CANCELLED");
  EXPECT_NE(job(pending)["state"], "COMPLETED");
}

}  // namespace
}  // namespace yard::test
