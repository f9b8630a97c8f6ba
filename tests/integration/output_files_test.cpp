// Output files as sbatch makes them: -o/-e patterns expanded as Slurm expands them
// (zero-padded widths, %N %n %t %s), and files truncated when a job starts, again when a
// preempted job is requeued and starts again, unless --open-mode=append.
#include <unistd.h>

#include <string>

#include "harness.h"

namespace yard::test {
namespace {

class OutputFiles : public YardWorld {
 protected:
  std::string state(long id) { return job(id)["state"].get<std::string>(); }
};

std::string short_hostname() {
  char buf[256] = {};
  ::gethostname(buf, sizeof buf - 1);
  std::string h(buf);
  return h.substr(0, h.find('.'));
}

std::string padded(long n, std::size_t width) {
  std::string s = std::to_string(n);
  return std::string(s.size() < width ? width - s.size() : 0, '0') + s;
}

TEST_F(OutputFiles, PatternsAreExpandedAsSlurmDoes) {
  const long array = submit({"-a", "1-2", "-o", "%3j_%03a.out", "--", "sh", "-c", "echo $YARD_ARRAY_TASK_ID"});
  ASSERT_EQ(wait({array}), 0);
  for (auto& e : status({array})) {
    const long id = e["id"].get<long>(), index = e["array_task_id"].get<long>();
    EXPECT_EQ(read(padded(id, 3) + "_" + padded(index, 3) + ".out"), std::to_string(index) + "\n") << e.dump();
  }
  const long one = submit({"-J", "name", "-o", "%x-%N-%n-%t-%s-%5A-%%.out", "--", "echo", "one"});
  ASSERT_EQ(wait({one}), 0);
  const std::string file = "name-" + short_hostname() + "-0-0-batch-" + padded(one, 5) + "-%.out";
  EXPECT_EQ(read(file), "one\n") << file;
  EXPECT_EQ(job(one)["stdout"], dir_ + "/" + file);
}

TEST_F(OutputFiles, TruncatedWhenTheJobStartsUnlessAppendIsAsked) {
  write("t.out", "an old run\n");
  ASSERT_EQ(wait({submit({"-o", "t.out", "--", "echo", "new"})}), 0);
  EXPECT_EQ(read("t.out"), "new\n");
  ASSERT_EQ(wait({submit({"-o", "t.out", "--open-mode=append", "--", "echo", "appended"})}), 0);
  EXPECT_EQ(read("t.out"), "new\nappended\n");
  write("job.sh", "#!/bin/sh\n#SBATCH --open-mode=append\n#SBATCH -o t.out\necho from-script\n");
  ASSERT_EQ(wait({submit({"job.sh"})}), 0);
  EXPECT_EQ(read("t.out"), "new\nappended\nfrom-script\n");
  ASSERT_EQ(wait({submit({"--open-mode", "truncate", "job.sh"})}), 0);  // the command line wins
  EXPECT_EQ(read("t.out"), "from-script\n");
  Output bad = yard({"submit", "--open-mode", "sometimes", "--", "true"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--open-mode: invalid value 'sometimes'"), std::string::npos) << bad.err;
}

TEST_F(OutputFiles, ARequeuedJobTruncatesAgainUnlessAppendIsAsked) {
  configure("cpus: 2\nkill_grace: 1\n");
  write("config/switchyard/policy.yaml",
        "weights: {tier: 1}\ntiers:\n  - {name: gold, priority: 2}\n"
        "  - {name: scavenger, priority: 0.5, best_effort: true}\n"
        "accounts:\n  - {name: g, tier: gold}\n  - {name: x, tier: scavenger}\n");
  // Each run counts itself and prints its number; the first run waits to be preempted.
  auto counting = [](const std::string& counter) {
    return "n=$(cat " + counter + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + counter +
           "; echo run $n; [ $n -ge 2 ] && exit 0; while :; do sleep 0.05; done";
  };
  const long truncated = submit({"-c", "1", "-A", "x", "-o", "t.out", "--", "sh", "-c", counting("t.count")});
  const long appended =
      submit({"-c", "1", "-A", "x", "-o", "a.out", "--open-mode", "append", "--", "sh", "-c", counting("a.count")});
  ASSERT_TRUE(wait_until([&] { return read("t.count") == "1\n" && read("a.count") == "1\n"; }, 30));
  const long gold = submit({"-c", "2", "-A", "g", "--", "sh", "-c", "while [ ! -e go ]; do sleep 0.05; done"});
  ASSERT_TRUE(wait_until([&] { return state(gold) == "RUNNING"; }, 30));
  EXPECT_EQ(job(truncated)["reason"], "preempted: requeued");
  write("go", "");
  ASSERT_EQ(wait({gold, truncated, appended}), 0);
  EXPECT_EQ(read("t.out"), "run 2\n");
  EXPECT_EQ(read("a.out"), "run 1\nrun 2\n");
}

}  // namespace
}  // namespace yard::test
