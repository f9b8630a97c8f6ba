// The local backend under a scheduling policy (policy.yaml), through the real daemon and
// real processes: tiers order the queue, EASY backfilling starts short jobs in the gap
// before a wide one without delaying it, best-effort jobs are preempted and requeued, and
// usage is charged to accounts. Jobs wait on gate files the test creates, so nothing
// depends on how fast the machine is.
#include <ctime>
#include <string>

#include "harness.h"

namespace yard::test {
namespace {

const char* kTiers = R"(weights: {tier: 1}
tiers:
  - {name: gold, priority: 2}
  - {name: silver, priority: 1}
  - {name: scavenger, priority: 0.5, best_effort: true}
accounts:
  - {name: g, tier: gold}
  - {name: s, tier: silver}
  - {name: x, tier: scavenger}
  - {name: physics, tier: silver, share: 1, allocation_core_hours: 10}
)";

const char* kGate = "while [ ! -e go ]; do sleep 0.05; done";

class Policy : public YardWorld {
 protected:
  void policy(const std::string& yaml) { write("config/switchyard/policy.yaml", yaml); }
  std::string state(long id) { return job(id)["state"].get<std::string>(); }
  bool running(long id) { return state(id) == "RUNNING"; }
};

TEST_F(Policy, TheHigherTierStartsFirstWhenBothWait) {
  configure("cpus: 2\nkill_grace: 1\n");
  policy(kTiers);
  const long gate = submit({"-c", "2", "--", "sh", "-c", kGate});
  ASSERT_TRUE(wait_until([&] { return running(gate); }, 20));
  const long silver = submit({"-c", "2", "-A", "s", "--", "sleep", "0.2"});  // submitted first
  const long gold = submit({"-c", "2", "-A", "g", "--", "sleep", "0.2"});
  EXPECT_EQ(state(silver), "PENDING");
  EXPECT_EQ(state(gold), "PENDING");
  write("go", "");
  ASSERT_EQ(wait({gate, silver, gold}), 0);
  const auto g = job(gold), s = job(silver);
  EXPECT_LT(seconds(g["start_time"]), seconds(s["start_time"]));
  EXPECT_LE(seconds(g["end_time"]), seconds(s["start_time"]) + 0.01);
}

TEST_F(Policy, EasyBackfillsAShortJobWithoutDelayingTheWideOne) {
  configure("cpus: 4\nkill_grace: 1\n");
  // No policy file: the default is EASY backfilling.
  const long head = submit({"-c", "2", "-t", "5", "--", "sh", "-c", kGate});  // estimate 5 min
  ASSERT_TRUE(wait_until([&] { return running(head); }, 20));
  const long wide = submit({"-c", "4", "-t", "1", "--", "sleep", "0.2"});  // reserved at head's end
  const long lng = submit({"-c", "2", "-t", "10", "--", "sleep", "0.2"});  // would delay it: waits
  const long shrt = submit({"-c", "2", "-t", "1", "--", "sleep", "0.2"});  // ends before: backfilled
  ASSERT_EQ(wait({shrt}), 0);
  EXPECT_EQ(state(wide), "PENDING");
  EXPECT_EQ(state(lng), "PENDING");
  EXPECT_TRUE(running(head));
  write("go", "");
  ASSERT_EQ(wait({head, wide, lng}), 0);
  const auto h = job(head), w = job(wide), l = job(lng), s = job(shrt);
  EXPECT_LT(seconds(s["end_time"]), seconds(w["start_time"]));
  EXPECT_GE(seconds(w["start_time"]) + 0.01, seconds(h["end_time"]));
  // Started as soon as it could: at the head's end, not at some later pass (a loaded
  // machine may take seconds to tell the daemon of that end; the bound allows it).
  EXPECT_LT(seconds(w["start_time"]) - seconds(h["end_time"]), 15.0);
  EXPECT_GE(seconds(l["start_time"]) + 0.01, seconds(w["end_time"]));
}

TEST_F(Policy, ABestEffortJobIsPreemptedRequeuedAndRunsAgain) {
  configure("cpus: 2\nkill_grace: 1\n");
  policy(kTiers);
  // First run: counts and waits forever; second run: counts and ends.
  const long scav = submit({"-c", "2", "-A", "x", "--", "sh", "-c",
                            "n=$(cat runs 2>/dev/null || echo 0); echo $((n+1)) > runs; "
                            "[ \"$n\" -ge 1 ] && exit 0; while :; do sleep 0.05; done"});
  ASSERT_TRUE(wait_until([&] { return running(scav) && read("runs") == "1\n"; }, 20));
  const long gold = submit({"-c", "2", "-A", "g", "--", "sh", "-c", kGate});
  ASSERT_TRUE(wait_until([&] { return running(gold); }, 20));
  auto s = job(scav);
  EXPECT_EQ(s["state"], "PENDING");
  EXPECT_EQ(s["reason"], "preempted: requeued");
  write("go", "");
  ASSERT_EQ(wait({gold, scav}), 0);
  EXPECT_EQ(read("runs"), "2\n");
  s = job(scav);
  EXPECT_EQ(s["state"], "COMPLETED");
  EXPECT_GE(seconds(s["start_time"]) + 0.01, seconds(job(gold)["end_time"]));
  // Both runs were charged: the preempted one too.
  auto o = yard({"accounts", "--json"});
  ASSERT_EQ(o.rc, 0) << o.err;
  for (auto& a : nlohmann::json::parse(o.out))
    if (a["account"] == "x") {
      EXPECT_GT(a["usage_core_hours"].get<double>(), 0);
    }
}

// --no-requeue: a preempted job is not run again; it ends there, charged what it ran.
TEST_F(Policy, APreemptedJobThatSaidNoRequeueEnds) {
  configure("cpus: 2\nkill_grace: 1\n");
  policy(kTiers);
  const long scav = submit({"--no-requeue", "-c", "2", "-A", "x", "--", "sh", "-c",
                            "echo run >> runs; while :; do sleep 0.05; done"});
  ASSERT_TRUE(wait_until([&] { return running(scav) && read("runs") == "run\n"; }, 20));
  const long gold = submit({"-c", "2", "-A", "g", "--", "true"});
  ASSERT_EQ(wait({gold}), 0);
  auto s = job(scav);
  EXPECT_EQ(s["state"], "CANCELLED");
  EXPECT_EQ(s["reason"], "preempted; not submitted again (--no-requeue)");
  EXPECT_LE(seconds(s["end_time"]), seconds(job(gold)["start_time"]) + 0.01);
  EXPECT_EQ(read("runs"), "run\n");  // once
}

TEST_F(Policy, AccountsShowChargedUsage) {
  configure("cpus: 4\nkill_grace: 1\n");
  policy(kTiers);
  const long a = submit({"-c", "2", "-A", "physics", "--", "sleep", "0.3"});
  const long b = submit({"--", "sleep", "0.1"});  // no -A: the account "default"
  ASSERT_EQ(wait({a, b}), 0);
  auto o = yard({"accounts", "--json"});
  ASSERT_EQ(o.rc, 0) << o.err;
  const auto accounts = nlohmann::json::parse(o.out);
  bool physics = false, fallback = false;
  for (auto& acc : accounts) {
    const double used = acc["usage_core_hours"].get<double>();
    if (acc["account"] == "physics") {
      physics = true;
      EXPECT_EQ(acc["tier"], "silver");
      EXPECT_GE(used, 2 * 0.3 / 3600 * 0.9);
      EXPECT_LT(used, 2 * 10.0 / 3600);
      EXPECT_DOUBLE_EQ(acc["allocation_core_hours"].get<double>(), 10);
      EXPECT_NEAR(acc["remaining_core_hours"].get<double>(), 10 - used, 1e-9);
      EXPECT_LE(acc["fairshare"].get<double>(), 1);
    } else if (acc["account"] == "default") {
      fallback = true;
      EXPECT_TRUE(acc["tier"].is_null());
      EXPECT_GT(used, 0);
    } else {
      EXPECT_DOUBLE_EQ(used, 0) << acc["account"];
    }
  }
  EXPECT_TRUE(physics) << o.out;
  EXPECT_TRUE(fallback) << o.out;
  o = yard({"accounts"});
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.out.find("physics"), std::string::npos);
  EXPECT_NE(o.out.find("ACCOUNT"), std::string::npos);
}

TEST_F(Policy, FairShareUsesTheUsageChargedBeforeADaemonRestart) {
  configure("cpus: 2\nkill_grace: 1\n");
  policy("weights: {fairshare: 1}\ntiers: [{name: t, priority: 1}]\n"
         "accounts:\n  - {name: a, tier: t}\n  - {name: b, tier: t}\n");
  ASSERT_EQ(wait({submit({"-c", "2", "-A", "a", "--", "sleep", "0.2"})}), 0);
  const long pid = daemon_pid();
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return !process_alive(pid); }, 20));
  // The next daemon rebuilds the ledger: a has used its share, b nothing, so b goes first.
  const long gate = submit({"-c", "2", "--", "sh", "-c", kGate});
  ASSERT_TRUE(wait_until([&] { return running(gate); }, 20));
  const long from_a = submit({"-c", "2", "-A", "a", "--", "sleep", "0.1"});
  const long from_b = submit({"-c", "2", "-A", "b", "--", "sleep", "0.1"});
  write("go", "");
  ASSERT_EQ(wait({gate, from_a, from_b}), 0);
  EXPECT_LT(seconds(job(from_b)["start_time"]), seconds(job(from_a)["start_time"]));
}

TEST_F(Policy, ABadPolicyFileIsReportedWithFileLineAndKey) {
  policy("weights: {age: high}\n");
  auto o = yard({"accounts"});
  EXPECT_NE(o.rc, 0);
  EXPECT_NE(o.err.find("policy.yaml:1: weights.age"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace yard::test
