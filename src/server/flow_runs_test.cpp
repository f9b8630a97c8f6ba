// A flow run again (submit_many with a flow): what is done or under way under the same
// key is taken, never submitted again; the rest, and what follows it, is submitted.
#include "server/flow_runs.h"

#include <fstream>

#include "server/read_requests.h"
#include "server/requests_fixture.h"

namespace yard {
namespace {

using testing_requests::Requests;

class FlowRuns : public Requests {
 protected:
  // a -> b -> c, keys ka kb kc; a makes the file `a_out_`.
  SubmitManyRequest flow(const std::string& key) {
    SubmitManyRequest r;
    r.key = key;
    r.flow = SubmitManyRequest::FlowRun{"chain", "/flows/chain.yaml", "/runs/1", {}};
    auto step = [](const std::string& name) {
      JobSpec s;
      s.name = name;
      s.argv = {"/bin/true"};
      s.workdir = "/tmp";
      return s;
    };
    r.jobs = {{step("a"), "", {}, false, "ka", "", {a_out_}, false, ""},
              {step("b"), "", {0}, false, "kb", "", {}, false, ""},
              {step("c"), "", {1}, false, "kc", "", {}, false, ""}};
    return r;
  }
  void SetUp() override {
    Requests::SetUp();
    a_out_ = (dir_ / "a.out").string();
  }
  void set(std::int64_t id, JobState s) {
    auto job = store_->job(id);
    ASSERT_TRUE(job && *job);
    if ((**job).state == JobState::Pending) {
      ASSERT_TRUE(store_->transition(id, JobState::Running, {}, 1.0));
    }
    if (s != JobState::Running) {
      ASSERT_TRUE(store_->transition(id, s, {}, 1.0));
    }
  }
  std::string a_out_;
};

std::vector<StepOrigin> origins(std::initializer_list<StepOrigin> o) { return o; }
constexpr auto kSubmitted = StepOrigin::Submitted;
constexpr auto kAttached = StepOrigin::Attached;
constexpr auto kUpToDate = StepOrigin::UpToDate;

TEST_F(FlowRuns, ARunAgainTakesWhatIsDoneOrUnderWayAndSubmitsWhatIsNot) {
  auto d = daemon();
  auto first = handle(d, flow("run-1"), 1.0);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->origins, origins({kSubmitted, kSubmitted, kSubmitted}));
  EXPECT_GT(first->flow_id, 0);
  const auto a = first->ids[0][0], b = first->ids[1][0], c = first->ids[2][0];
  // The same run asked again (a broken connection): the same flow, nothing new.
  auto replay = handle(d, flow("run-1"), 1.5);
  ASSERT_TRUE(replay) << replay.error();
  EXPECT_EQ(replay->flow_id, first->flow_id);
  EXPECT_EQ(replay->ids, first->ids);
  EXPECT_EQ(*store_->count_jobs(), 3);

  // a completed without making its output: it is not taken as done.
  set(a, JobState::Completed);
  set(b, JobState::Running);
  auto second = handle(d, flow("run-2"), 2.0);
  ASSERT_TRUE(second) << second.error();
  EXPECT_EQ(second->origins, origins({kSubmitted, kSubmitted, kSubmitted}));
  EXPECT_EQ(*store_->count_jobs(), 6);

  // Its output there: a is done, b (running) and c (waiting) are taken over.
  std::ofstream(a_out_) << "made\n";
  const auto a2 = second->ids[0][0], b2 = second->ids[1][0], c2 = second->ids[2][0];
  set(a2, JobState::Completed);
  set(b2, JobState::Running);
  auto third = handle(d, flow("run-3"), 3.0);
  ASSERT_TRUE(third) << third.error();
  EXPECT_EQ(third->origins, origins({kUpToDate, kAttached, kAttached}));
  EXPECT_EQ(third->ids, (std::vector<std::vector<std::int64_t>>{{a2}, {b2}, {c2}}));
  EXPECT_EQ(*store_->count_jobs(), 6);

  // b failed: it runs again, and c after it (its old job waited on the failed one).
  set(b2, JobState::Failed);
  auto fourth = handle(d, flow("run-4"), 4.0);
  ASSERT_TRUE(fourth) << fourth.error();
  EXPECT_EQ(fourth->origins, origins({kUpToDate, kSubmitted, kSubmitted}));
  // The new b waits for nothing: a is done.
  auto b3 = store_->job(fourth->ids[1][0]);
  ASSERT_TRUE(b3 && *b3);
  EXPECT_TRUE(store_->spec((**b3).spec_id)->dependencies.empty());

  // --rerun a: a and everything after it, whatever their keys find.
  auto again = flow("run-5");
  again.jobs[0].rerun = true;
  auto fifth = handle(d, again, 5.0);
  ASSERT_TRUE(fifth) << fifth.error();
  EXPECT_EQ(fifth->origins, origins({kSubmitted, kSubmitted, kSubmitted}));

  // Each run is a flow, its steps named, their states their jobs'.
  auto listed = handle(*store_, FlowsRequest{0});
  ASSERT_TRUE(listed) << listed.error();
  ASSERT_EQ(listed->flows.size(), 5u);
  EXPECT_EQ(listed->flows.front().id, fifth->flow_id);  // newest first
  auto shown = handle(*store_, FlowRequest{third->flow_id});
  ASSERT_TRUE(shown) << shown.error();
  ASSERT_EQ(shown->steps.size(), 3u);
  EXPECT_EQ(shown->steps[1].name, "b");
  EXPECT_EQ(shown->steps[1].state, JobState::Failed);
  EXPECT_EQ(shown->steps[0].origin, kUpToDate);
  EXPECT_EQ(shown->flow.failed, 1);
  EXPECT_EQ(shown->flow.pending, 1);
  EXPECT_EQ(shown->flow.file, "/flows/chain.yaml");
  (void)b;
  (void)c;
  auto none = handle(*store_, FlowRequest{999});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.kind(), ErrorKind::NotFound);
}

TEST_F(FlowRuns, InputDigestsAreKeptForTheNextRun) {
  auto d = daemon();
  auto r = flow("digests");
  r.flow->digests = {{"/data/in.txt", 12, 34, 56, "xxh128:abc"}};
  ASSERT_TRUE(handle(d, r, 1.0));
  auto known = handle(*store_, DigestsRequest{{"/data/in.txt", "/data/other"}});
  ASSERT_TRUE(known) << known.error();
  ASSERT_EQ(known->digests.size(), 2u);
  EXPECT_EQ(known->digests[0].digest, "xxh128:abc");
  EXPECT_EQ(known->digests[0].mtime_ns, 34);
  EXPECT_EQ(known->digests[1].digest, "");
}

}  // namespace
}  // namespace yard
