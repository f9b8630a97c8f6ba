// Per-job supervision with real processes: walltime, cancellation of whole process
// trees, memory limits, exit codes and signals, output files.
#include <signal.h>

#include <fstream>

#include "harness.h"

namespace yard::test {
namespace {

class Supervision : public YardWorld {};

TEST_F(Supervision, WalltimeEndsTheJobAsTimeout) {
  long id = submit({"-t", "0:01", "--", "sleep", "60"});
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "TIMEOUT");
  EXPECT_EQ(j["signal"], SIGTERM);
}

TEST_F(Supervision, AJobIgnoringSigtermIsKilledAfterTheGrace) {
  long id = submit({"-t", "0:01", "--", "sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"});
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "TIMEOUT");
  EXPECT_EQ(j["signal"], SIGKILL);
}

TEST_F(Supervision, CancelKillsGrandchildren) {
  long id = submit({"--", "sh", "-c", "sleep 300 & echo $! > grandchild.pid; wait"});
  ASSERT_TRUE(wait_until([&] { return !read("grandchild.pid").empty(); }, 20));
  long grandchild = std::stol(read("grandchild.pid"));
  ASSERT_TRUE(process_alive(grandchild));
  ASSERT_EQ(yard({"cancel", std::to_string(id)}).rc, 0);
  EXPECT_EQ(wait({id}), 1);
  EXPECT_EQ(job(id)["state"], "CANCELLED");
  EXPECT_TRUE(wait_until([&] { return !process_alive(grandchild); }, 10)) << "grandchild " << grandchild << " survived";
}

TEST_F(Supervision, CancelOfAPendingJob) {
  configure("cpus: 1\nkill_grace: 1\n");
  long blocker = submit({"--", "sleep", "30"});
  long pending = submit({"--", "true"});
  EXPECT_EQ(job(pending)["state"], "PENDING");
  ASSERT_EQ(yard({"cancel", std::to_string(pending), std::to_string(blocker)}).rc, 0);
  wait({blocker, pending});
  EXPECT_EQ(job(pending)["state"], "CANCELLED");
  EXPECT_TRUE(job(pending)["start_time"].is_null());
  EXPECT_EQ(job(blocker)["state"], "CANCELLED");
}

TEST_F(Supervision, MemoryLimitGivesOutOfMemory) {
  // tail buffers a whole "line"; 400 MB of zeros without a newline is one line.
  long id = submit({"--mem", "50M", "--", "sh", "-c", "head -c 400M /dev/zero | tail -n 1 > /dev/null"});
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "OUT_OF_MEMORY") << j.dump();
}

TEST_F(Supervision, MemoryLimitByPollingWhereNoCgroupIsUsed) {
  configure("memory_limit: poll\n");
  // Holds 100 MB for 30 s: only the poll of its resident memory can end it sooner.
  long id = submit({"--mem", "50M", "--", "perl", "-e", "$x = 'a' x 100_000_000; sleep 30"});
  EXPECT_EQ(wait({id}), 1);
  auto j = job(id);
  EXPECT_EQ(j["state"], "OUT_OF_MEMORY") << j.dump();  // not COMPLETED after its 30 s
}

TEST_F(Supervision, ExitCodesSignalsOutputAndAccounting) {
  long ok = submit({"-J", "named", "-o", "out-%x-%j.txt", "-e", "err-%j.txt", "--", "sh", "-c",
                    "echo to-out; echo to-err >&2; i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"});
  long failed = submit({"--", "sh", "-c", "exit 7"});
  long killed = submit({"--", "sh", "-c", "kill -9 $$"});
  long missing = submit({"--", "/no/such/program"});
  wait({ok, failed, killed, missing});
  EXPECT_EQ(job(ok)["state"], "COMPLETED");
  EXPECT_EQ(read("out-named-" + std::to_string(ok) + ".txt"), "to-out\n");
  EXPECT_EQ(read("err-" + std::to_string(ok) + ".txt"), "to-err\n");
  EXPECT_GT(job(ok)["cpu_seconds"].get<double>(), 0.0);
  EXPECT_EQ(yard({"logs", std::to_string(ok)}).out, "to-out\n");
  EXPECT_EQ(job(failed)["state"], "FAILED");
  EXPECT_EQ(job(failed)["exit_code"], 7);
  EXPECT_EQ(job(killed)["state"], "FAILED");
  EXPECT_EQ(job(killed)["signal"], 9);
  EXPECT_EQ(job(missing)["state"], "FAILED");
  EXPECT_NE(job(missing)["reason"].get<std::string>().find("/no/such/program"), std::string::npos);
}

TEST_F(Supervision, JobsArePinnedToTheirCpus) {
  long id = submit({"-c", "1", "--", "sh", "-c", "grep Cpus_allowed_list /proc/self/status > aff.txt"});
  ASSERT_EQ(wait({id}), 0);
  auto text = read("aff.txt");
  auto tab = text.find('\t');
  ASSERT_NE(tab, std::string::npos);
  std::string list = text.substr(tab + 1);
  EXPECT_EQ(list.find_first_of(",-"), std::string::npos) << "pinned to more than one CPU: " << list;
}

}  // namespace
}  // namespace yard::test
