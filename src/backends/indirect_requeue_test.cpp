// On a scripted scheduler (indirect_testing.h): a preempted job submitted again when it
// asks for it (--requeue), and not otherwise; array elements that are jobs of their own,
// numbered on from the first (OAR), with dependencies on each of them.
#include "backends/indirect_testing.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

TEST_F(IndirectTest, APreemptedJobThatAsksForItIsSubmittedAgainUnderItsUid) {
  auto s = spec("scavenger");
  s.requeue = true;
  auto again = submit(s);
  auto once = submit(spec("once"));
  step();
  queue_.answer("20\n");
  queue_.answer("21\n");
  step();
  now_ += 10;
  step();
  queue_.answer("20|RUNNING|None|x\n21|RUNNING|None|x\n");
  step();
  EXPECT_EQ(job(again).state, JobState::Running);
  // Both preempted: gone from the queue, their records say so.
  now_ += 10;
  step();
  queue_.answer("");
  step();
  auto history = queue_.answer("20|PREEMPTED|0|x\n21|PREEMPTED|0|x\n");
  EXPECT_EQ(history.argv[0], "fh");
  step();
  EXPECT_EQ(job(once).state, JobState::Failed);
  EXPECT_EQ(job(once).reason, "preempted");
  auto j = job(again);
  EXPECT_EQ(j.state, JobState::Pending);
  EXPECT_EQ(j.native_id, "");
  EXPECT_NE(j.reason.find("fake job 20 preempted; submitted again (--requeue)"), std::string::npos) << j.reason;
  // Submitted again, under the same UID (its native name), and it runs to the end.
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "fsub");
  queue_.answer("30\n");
  step();
  EXPECT_EQ(job(again).native_id, "30");
  EXPECT_EQ(job(again).uid, j.uid);
  now_ += 10;
  step();
  queue_.answer("");
  step();
  queue_.answer("30|COMPLETED|0|x\n");
  step();
  EXPECT_EQ(job(again).state, JobState::Completed);
}

TEST_F(IndirectTest, AfterACrashTheNewestSubmissionOfAUidIsTracked) {
  auto s = spec("scavenger");
  s.requeue = true;
  auto id = submit(s);
  step();
  // Submitted (again, after a preemption), then a crash before its id was stored: the
  // look-up finds the old submission and the new one.
  ASSERT_TRUE(store_->note_submit_attempt(id));
  make_backend();
  queue_.posted.clear();
  ASSERT_TRUE(backend_->recover(now_));
  step();
  ASSERT_FALSE(queue_.posted.empty());
  EXPECT_EQ(queue_.posted.front().argv[0], "ffind");
  const std::string name = "yard-" + uid_of(id);
  queue_.answer("9|PREEMPTED|None|" + name + "\n12|RUNNING|None|" + name + "\n");
  step();
  EXPECT_EQ(job(id).native_id, "12");
}

TEST_F(IndirectTest, ElementsNumberedOnFromTheFirstAndDependenciesOnEachOfThem) {
  dialect_.numbered_elements = true;
  dialect_.after_any_only = true;
  auto s = spec();
  s.array = *parse_array_spec("0,5,17");
  auto head = submit(s);
  auto after = spec("after");
  after.dependencies = {{DependencyKind::AfterAny, head}};
  auto child = submit(after);
  step();
  queue_.answer("40\n");
  step();
  EXPECT_EQ(job(head).native_id, "40");
  EXPECT_EQ(job(head + 1).native_id, "41");
  EXPECT_EQ(job(head + 2).native_id, "42");
  ASSERT_FALSE(queue_.posted.empty());
  auto sub = queue_.answer("43\n");
  ASSERT_EQ(sub.argv[0], "fsub");
  std::ifstream script(sub.argv[1]);
  std::string text((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("# after 40\n# after 41\n# after 42\n"), std::string::npos) << text;
  step();
  EXPECT_EQ(job(child).native_id, "43");
}

}  // namespace
}  // namespace yard
