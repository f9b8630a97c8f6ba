// Hand-offs: an array element given to the job host behind a running sibling, to start on
// its CPUs the moment it ends. It never shares CPUs with it, records its true start, goes
// back to the queue when it waits too long, can be cancelled before it starts, and
// survives a crash of the daemon like any running job. Arrays whose elements end quickly
// get chains of hand-offs (one behind another): the same holds for every link.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>

#include "harness.h"

namespace yard::test {
namespace {

class Handoff : public YardWorld {
 protected:
  void expect_one_after_another(long id);
  // SIGKILL of the daemon, then a new one: the job host and its jobs live on.
  void crash_and_restart_daemon();
};

void Handoff::crash_and_restart_daemon() {
  long pid = daemon_pid();
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 10));
  ASSERT_EQ(yard({"server", "start"}).rc, 0);
}

// The store's [start, end] of every element, in start order.
std::vector<std::pair<double, double>> spans(YardWorld& w, nlohmann::json jobs) {
  (void)w;
  std::vector<std::pair<double, double>> out;
  for (auto& j : jobs) out.push_back({seconds(j["start_time"]), seconds(j["end_time"])});
  std::sort(out.begin(), out.end());
  return out;
}

void Handoff::expect_one_after_another(long id) {
  nlohmann::json ran = nlohmann::json::array();
  for (auto& j : status({id}))
    if (!j["start_time"].is_null()) ran.push_back(j);  // not one cancelled before it started
  auto s = spans(*this, ran);
  for (std::size_t k = 1; k < s.size(); ++k)
    EXPECT_GE(s[k].first, s[k - 1].second) << "element starting at " << s[k].first << " overlaps the one before";
}

TEST_F(Handoff, ElementsOnOneCpuFollowEachOtherWithTheirTrueStartTimes) {
  configure("cpus: 1\n");
  long id = submit({"-a", "0-29", "--", "sh", "-c", "echo $YARD_ARRAY_TASK_ID >> ran.log"});
  EXPECT_EQ(wait({id}), 0);
  auto all = status({id});
  ASSERT_EQ(all.size(), 30u);
  for (auto& j : all) EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
  // One CPU: each element starts after the one before it ended, as recorded (a hand-off
  // is planned before its predecessor ends; its start is when the host started it).
  auto s = spans(*this, all);
  for (std::size_t k = 1; k < s.size(); ++k)
    EXPECT_GE(s[k].first, s[k - 1].second) << "element starting at " << s[k].first << " overlaps the one before";
  std::istringstream in(read("ran.log"));
  std::map<int, int> runs;
  int i;
  while (in >> i) ++runs[i];
  EXPECT_EQ(runs.size(), 30u);
  for (auto& [k, n] : runs) EXPECT_EQ(n, 1) << "element " << k;
}

// Jobs that are not an array's but ask the same CPUs, memory, GPUs and account (a flow's
// steps) are handed off behind each other, in chains, once a job of that shape was seen
// to end quickly; never behind the first of a shape, nor behind one of another shape.
TEST_F(Handoff, JobsOfOneShapeAreHandedOffBehindEachOtherOnceOneWasSeenShort) {
  configure("cpus: 1\nhandoff_wait: 600\n");
  const std::vector<std::string> hold = {"--", "sh", "-c", "echo $YARD_JOB_ID >> ran.log; while [ ! -e go ]; do sleep 0.05; done"};
  const std::vector<std::string> note = {"--", "sh", "-c", "echo $YARD_JOB_ID >> ran.log"};
  // The first of its shape, holding the CPU: nothing is known of the shape, no hand-off
  // (a hand-off is planned in the pass that answers the submission).
  const long first = submit(hold);
  ASSERT_TRUE(wait_until([&] { return job(first)["state"] == "RUNNING"; }, 20));
  const long waits = submit(note);
  EXPECT_EQ(job(waits)["state"], "PENDING");
  write("go", "");
  ASSERT_EQ(wait({first, waits}), 0);
  std::filesystem::remove(dir_ + "/go");
  // Now the shape's last job ended at once: a chain of two behind the holder.
  const long holder = submit(hold);
  ASSERT_TRUE(wait_until([&] { return job(holder)["state"] == "RUNNING"; }, 20));
  const long a = submit(note), b = submit(note);
  EXPECT_EQ(job(a)["state"], "RUNNING") << job(a).dump();
  EXPECT_EQ(job(b)["state"], "RUNNING") << job(b).dump();
  const long other = submit({"--mem", "10M", "--", "true"});  // another shape: it waits
  EXPECT_EQ(job(other)["state"], "PENDING") << job(other).dump();
  write("go", "");
  ASSERT_EQ(wait({holder, a, b, other}), 0);
  const auto h = job(holder), ja = job(a), jb = job(b);
  EXPECT_GE(seconds(ja["start_time"]), seconds(h["end_time"]));  // on the one CPU, in turn
  EXPECT_GE(seconds(jb["start_time"]), seconds(ja["end_time"]));
  const std::string ids = std::to_string(first) + "\n" + std::to_string(waits) + "\n" + std::to_string(holder) +
                          "\n" + std::to_string(a) + "\n" + std::to_string(b) + "\n";
  EXPECT_EQ(read("ran.log"), ids);  // each once, in order
}

// A job of a shape that has already run as long as a hand-off may wait is not taken for
// one of the short ones: nothing is handed off behind it.
TEST_F(Handoff, NothingIsHandedOffBehindAJobOfAShapeThatRanLongAlready) {
  configure("cpus: 1\nhandoff_wait: 0.5\n");
  ASSERT_EQ(wait({submit({"--", "true"})}), 0);  // the shape's jobs end at once
  const long holder = submit({"--", "sh", "-c", "while [ ! -e go ]; do sleep 0.05; done"});
  ASSERT_TRUE(wait_until([&] { return job(holder)["state"] == "RUNNING"; }, 20));
  // (A scenario's span, not a wait for something to happen: the holder runs past 0.5 s.)
  ASSERT_TRUE(wait_until([&] { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count() -
                                          seconds(job(holder)["start_time"]) >
                                      1.5; }, 20));
  const long next = submit({"--", "true"});
  EXPECT_EQ(job(next)["state"], "PENDING") << job(next).dump();
  write("go", "");
  ASSERT_EQ(wait({holder, next}), 0);
  EXPECT_GE(seconds(job(next)["start_time"]), seconds(job(holder)["end_time"]));
}

TEST_F(Handoff, AnElementWaitingTooLongGoesBackToTheQueue) {
  configure("cpus: 1\nhandoff_wait: 0.2\n");
  // Element 0 holds the CPU until told; element 1 is handed off behind it, then back.
  long id = submit({"-a", "0-1", "--", "sh", "-c", "[ $YARD_ARRAY_TASK_ID = 1 ] || while [ ! -e go ]; do sleep 0.05; done"});
  auto element = [&](int k) { return job(id + k); };  // element k's job id
  ASSERT_TRUE(wait_until([&] { return element(0)["state"] == "RUNNING"; }, 20));
  ASSERT_TRUE(wait_until([&] { return element(1)["state"] == "PENDING"; }, 20)) << element(1).dump();
  EXPECT_EQ(element(0)["state"], "RUNNING");
  write("go", "");
  EXPECT_EQ(wait({id}), 0);
  EXPECT_EQ(element(1)["state"], "COMPLETED");
  EXPECT_GE(seconds(element(1)["start_time"]), seconds(element(0)["end_time"]));
}

TEST_F(Handoff, AHandedOffElementCanBeCancelledBeforeItStarts) {
  configure("cpus: 1\nhandoff_wait: 600\n");
  long id = submit({"-a", "0-2", "--", "sh", "-c",
                    "echo $YARD_ARRAY_TASK_ID >> ran.log; [ $YARD_ARRAY_TASK_ID != 0 ] || while [ ! -e go ]; do sleep 0.05; done"});
  const std::string second = std::to_string(id + 1);  // element 1's job id
  ASSERT_TRUE(wait_until([&] { return job(id + 1)["state"] == "RUNNING"; }, 20));  // handed off behind element 0
  ASSERT_EQ(yard({"cancel", second}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return job(id + 1)["state"] == "CANCELLED"; }, 20)) << job(id + 1).dump();
  EXPECT_TRUE(job(id + 1)["start_time"].is_null()) << job(id + 1).dump();  // it never started
  write("go", "");
  wait({id});
  EXPECT_EQ(job(id)["state"], "COMPLETED");
  EXPECT_EQ(job(id + 2)["state"], "COMPLETED");
  EXPECT_EQ(read("ran.log"), "0\n2\n");  // element 1 never ran
}

TEST_F(Handoff, CancellingTheArrayStopsTheRunningElementAndItsHandOffNeverRuns) {
  configure("cpus: 1\nhandoff_wait: 600\n");
  long id = submit({"-a", "0-2", "--", "sh", "-c", "echo $YARD_ARRAY_TASK_ID >> ran.log; exec sleep 300"});
  ASSERT_TRUE(wait_until([&] { return job(id + 1)["state"] == "RUNNING"; }, 20));  // handed off behind element 0
  // Element 0 has started its command (a cancel before that would leave ran.log empty).
  ASSERT_TRUE(wait_until([&] { return read("ran.log") == "0\n"; }, 20));
  ASSERT_EQ(yard({"cancel", std::to_string(id)}).rc, 0);
  wait({id});
  for (int k = 0; k < 3; ++k) EXPECT_EQ(job(id + k)["state"], "CANCELLED") << job(id + k).dump();
  EXPECT_EQ(read("ran.log"), "0\n");
}

TEST_F(Handoff, ADaemonCrashWithAHandedOffElementLosesNothingAndRunsNothingTwice) {
  configure("cpus: 1\nhandoff_wait: 600\n");
  long id = submit({"-a", "0-3", "--", "sh", "-c",
                    "echo $YARD_ARRAY_TASK_ID >> ran.log; [ $YARD_ARRAY_TASK_ID != 0 ] || while [ ! -e go ]; do sleep 0.05; done; "
                    "exit $YARD_ARRAY_TASK_ID"});
  ASSERT_TRUE(wait_until([&] { return job(id + 1)["state"] == "RUNNING"; }, 20));  // handed off behind element 0
  ASSERT_NO_FATAL_FAILURE(crash_and_restart_daemon());
  write("go", "");
  wait({id});
  for (int k = 0; k < 4; ++k) {
    auto j = job(id + k);
    EXPECT_EQ(j["state"], k == 0 ? "COMPLETED" : "FAILED") << j.dump();
    EXPECT_EQ(j["exit_code"], k) << j.dump();
  }
  EXPECT_EQ(read("ran.log"), "0\n1\n2\n3\n");  // each once, in order: one CPU
  auto s = spans(*this, status({id}));
  for (std::size_t k = 1; k < s.size(); ++k) EXPECT_GE(s[k].first, s[k - 1].second);
}


// An array whose element 0 ends at once (so its elements are known to be short) and whose
// element 1 then holds the one CPU until told: elements 2.. are chained behind it.
const char* kChainScript =
    "echo $YARD_ARRAY_TASK_ID >> ran.log; [ $YARD_ARRAY_TASK_ID != 1 ] || while [ ! -e go ]; do sleep 0.05; done; "
    "exit $(( YARD_ARRAY_TASK_ID % 3 ))";


TEST_F(Handoff, AChainBehindARunningElementStartsInOrderAndACancelInItsMiddleSkipsOnlyThatOne) {
  configure("cpus: 1\nhandoff_wait: 600\n");
  long id = submit({"-a", "0-5", "--", "sh", "-c", kChainScript});
  // Element 3 shows RUNNING while element 1 still holds the CPU: a chain 1 <- 2 <- 3.
  ASSERT_TRUE(wait_until([&] { return job(id + 3)["state"] == "RUNNING"; }, 20)) << job(id + 3).dump();
  // Element 1 is RUNNING as the chain is made; its line comes once its shell runs.
  EXPECT_TRUE(wait_until([&] { return read("ran.log") == "0\n1\n"; }, 20)) << read("ran.log");
  ASSERT_EQ(yard({"cancel", std::to_string(id + 2)}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return job(id + 2)["state"] == "CANCELLED"; }, 20)) << job(id + 2).dump();
  EXPECT_EQ(job(id + 3)["state"], "RUNNING");  // now behind element 1
  write("go", "");
  wait({id});
  EXPECT_EQ(read("ran.log"), "0\n1\n3\n4\n5\n");  // each once, in order; element 2 never ran
  for (int k : {0, 1, 3, 4, 5}) {
    auto j = job(id + k);
    EXPECT_EQ(j["exit_code"], k % 3) << j.dump();
    EXPECT_EQ(j["state"], k % 3 == 0 ? "COMPLETED" : "FAILED") << j.dump();
  }
  expect_one_after_another(id);
}

TEST_F(Handoff, AChainWaitingTooLongGoesBackToTheQueueWhole) {
  configure("cpus: 1\nhandoff_wait: 1\n");
  long id = submit({"-a", "0-5", "--", "sh", "-c", kChainScript});
  ASSERT_TRUE(wait_until([&] { return job(id + 3)["state"] == "RUNNING"; }, 20)) << job(id + 3).dump();
  // Handed back after a second of element 1: every link, not only the first.
  ASSERT_TRUE(wait_until(
      [&] {
        for (int k = 2; k <= 5; ++k)
          if (job(id + k)["state"] != "PENDING") return false;
        return true;
      },
      20));
  EXPECT_EQ(job(id + 1)["state"], "RUNNING");
  for (int k = 2; k <= 5; ++k) EXPECT_TRUE(job(id + k)["start_time"].is_null()) << job(id + k).dump();  // pending again
  write("go", "");
  wait({id});
  EXPECT_EQ(read("ran.log"), "0\n1\n2\n3\n4\n5\n");
  expect_one_after_another(id);
}

TEST_F(Handoff, ADaemonCrashWithAChainLosesNothingAndRunsNothingTwice) {
  configure("cpus: 1\nhandoff_wait: 600\n");
  long id = submit({"-a", "0-5", "--", "sh", "-c", kChainScript});
  ASSERT_TRUE(wait_until([&] { return job(id + 3)["state"] == "RUNNING"; }, 20)) << job(id + 3).dump();
  ASSERT_NO_FATAL_FAILURE(crash_and_restart_daemon());
  write("go", "");
  wait({id});
  EXPECT_EQ(read("ran.log"), "0\n1\n2\n3\n4\n5\n");
  for (int k = 0; k < 6; ++k) EXPECT_EQ(job(id + k)["exit_code"], k % 3) << job(id + k).dump();
  expect_one_after_another(id);
}

}  // namespace
}  // namespace yard::test
