// Which steps of a flow go as one array (step_packing.h): those of one foreach equal but
// for their command, in packs of at most kMaxPack; and the array that runs them.
#include "server/step_packing.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

SubmitManyRequest::Job step(const std::string& name, const std::string& pack, std::vector<std::string> argv) {
  SubmitManyRequest::Job j;
  j.spec.name = name;
  j.spec.argv = std::move(argv);
  j.spec.workdir = "/w";
  j.spec.stdout_path = "/runs/r/" + name + ".out";
  j.pack = pack;
  return j;
}

TEST(StepPacking, StepsOfOneForeachEqualButForTheirCommandArePacked) {
  SubmitManyRequest r;
  r.jobs.push_back(step("prep", "", {"true"}));
  for (int i = 1; i <= 3; ++i) {
    r.jobs.push_back(step("sim[" + std::to_string(i) + "]", "sim", {"/bin/sh", "-c", "echo " + std::to_string(i)}));
    r.jobs.back().needs = {0};
  }
  auto bigger = step("sim[4]", "sim", {"x"});  // more memory: a pack of its own (alone: none)
  bigger.spec.res.mem_bytes = 1 << 30;
  bigger.needs = {0};
  r.jobs.push_back(bigger);
  auto other_needs = step("sim[5]", "sim", {"x"});
  r.jobs.push_back(other_needs);
  auto own_log = step("sim[6]", "sim", {"x"});
  own_log.spec.stdout_path = "/elsewhere/sim6.out";
  own_log.needs = {0};
  r.jobs.push_back(own_log);
  auto retried = step("sim[7]", "sim", {"x"});
  retried.spec.retry = RetryPolicy{};
  retried.needs = {0};
  r.jobs.push_back(retried);
  std::vector<bool> submitting(r.jobs.size(), true);
  auto packs = find_packs(r, submitting);
  ASSERT_EQ(packs.size(), 1u);
  EXPECT_EQ(packs[0], (std::vector<std::size_t>{1, 2, 3}));
  // A step not submitted now (up to date) is no element.
  submitting[2] = false;
  packs = find_packs(r, submitting);
  ASSERT_EQ(packs.size(), 1u);
  EXPECT_EQ(packs[0], (std::vector<std::size_t>{1, 3}));

  const JobSpec s = packed_spec(r, {1, 2, 3});
  EXPECT_EQ(s.name, "sim");
  EXPECT_TRUE(s.argv.empty());
  ASSERT_TRUE(s.array);
  EXPECT_EQ(s.array->indices, (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(s.stdout_path, "/runs/r/sim_%a.out");
  EXPECT_EQ(s.workdir, "/w");
  EXPECT_NE(s.script.find("case \"$SLURM_ARRAY_TASK_ID\" in\n1) exec '/bin/sh' '-c' 'echo 1' ;;\n2) exec '/bin/sh' "
                          "'-c' 'echo 2' ;;\n3) exec '/bin/sh' '-c' 'echo 3' ;;\n*) "),
            std::string::npos)
      << s.script;
}

TEST(StepPacking, PacksAreSplitAtTheirLargestSize) {
  SubmitManyRequest r;
  for (std::size_t i = 0; i < 2 * kMaxPack + 1; ++i) r.jobs.push_back(step("s[" + std::to_string(i) + "]", "s", {"true"}));
  auto packs = find_packs(r, std::vector<bool>(r.jobs.size(), true));
  ASSERT_EQ(packs.size(), 2u);  // the one left over runs alone
  EXPECT_EQ(packs[0].size(), kMaxPack);
  EXPECT_EQ(packs[1].size(), kMaxPack);
  EXPECT_EQ(packs[1].front(), kMaxPack);
}

}  // namespace
}  // namespace yard
