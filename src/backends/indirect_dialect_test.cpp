// What a dialect tells the engine beyond argv and parsers, on a scripted scheduler
// (indirect_testing.h): dependencies the scheduler cannot hold a job on, array element
// ids of its own form, listings that say "nothing found" with a failing status, and
// cancelled jobs of which the scheduler keeps no record, a history that lags behind.
#include "backends/indirect_testing.h"

#include <functional>

#include "core/file_text.h"

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

// Answers every posted command with `answer(command)` until none is left.
template <class F>
void drain(ScriptedQueue& q, F answer, const std::function<void()>& step) {
  while (!q.posted.empty()) {
    q.answer(answer(q.posted.front()));
    step();
  }
}

// A job after a job of another backend (a flow's step after a local one): held here,
// saying so, and submitted once the store says that job completed.
TEST_F(IndirectTest, AJobAfterAnotherBackendsJobIsHeldUntilItCompletes) {
  JobSpec elsewhere = spec("local-step");
  elsewhere.backend = "local";
  auto parent = store_->insert_jobs(elsewhere, now_);
  ASSERT_TRUE(parent) << parent.error();
  auto after = spec("cluster-step");
  after.dependencies = {{DependencyKind::AfterOk, parent->front()}};
  const auto child = submit(after);
  step();
  EXPECT_TRUE(queue_.posted.empty()) << "submitted before its parent ended";
  EXPECT_NE(job(child).reason.find("waiting for job " + std::to_string(parent->front()) + " of backend 'local' to end"),
            std::string::npos)
      << job(child).reason;
  ASSERT_TRUE(store_->transition(parent->front(), JobState::Running, {}, now_));
  ASSERT_TRUE(store_->transition(parent->front(), JobState::Completed, {}, now_));
  now_ += 10;
  step();
  ASSERT_FALSE(queue_.posted.empty());
  EXPECT_EQ(queue_.posted.front().argv[0], "fsub");
}

TEST_F(IndirectTest, AnAfterOkTheSchedulerCannotExpressWaitsForTheParentToEndThenIsJudged) {
  dialect_.after_any_only = true;
  auto parent = submit(spec("parent"));
  auto ok = spec("ok-child");
  ok.dependencies = {{DependencyKind::AfterOk, parent}};
  auto ok_child = submit(ok);
  auto any = spec("any-child");
  any.dependencies = {{DependencyKind::AfterAny, parent}};
  auto any_child = submit(any);
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);  // only the parent
  queue_.answer("10\n");
  step();
  // The after-any child goes with the parent's id; the after-ok one waits, and says so.
  std::vector<std::string> submitted;
  drain(queue_, [&](const Command& c) {
    if (c.argv[0] == "fsub") {
      submitted.push_back(c.argv[1]);
      return std::string("11\n");
    }
    return std::string("10|RUNNING|None|x\n");
  }, [&] { step(); });
  ASSERT_EQ(submitted.size(), 1u);
  EXPECT_EQ(job(any_child).native_id, "11");
  EXPECT_EQ(job(ok_child).native_id, "");
  EXPECT_NE(job(ok_child).reason.find("waiting for job " + std::to_string(parent) + " to end"), std::string::npos)
      << job(ok_child).reason;
  // The parent fails: the after-ok child is never submitted.
  now_ += 10;
  step();
  queue_.answer("11|RUNNING|None|x\n");  // the parent has left the queue
  step();
  queue_.answer("10|FAILED|1|x\n");  // its history
  step();
  EXPECT_EQ(job(parent).state, JobState::Failed);
  step();
  EXPECT_EQ(job(ok_child).state, JobState::Cancelled);
  EXPECT_EQ(job(ok_child).reason, "DependencyNeverSatisfied");
  for (auto& c : queue_.posted) EXPECT_NE(c.argv[0], "fsub");
}

// --dependency=after: the child is submitted once the parent is seen running, not before.
TEST_F(IndirectTest, AnAfterTheSchedulerCannotExpressIsMetOnceTheParentRuns) {
  dialect_.after_any_only = true;
  auto parent = submit(spec("parent"));
  auto s = spec("after-child");
  s.dependencies = {{DependencyKind::After, parent}};
  auto child = submit(s);
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);  // only the parent
  queue_.answer("10\n");
  step();
  std::vector<std::string> submitted;
  auto answer_with = [&](const std::string& parent_state) {
    return [&, parent_state](const Command& c) {
      if (c.argv[0] == "fsub") {
        submitted.push_back(c.argv[1]);
        return std::string("11\n");
      }
      return "10|" + parent_state + "|None|x\n";
    };
  };
  drain(queue_, answer_with("PENDING"), [&] { step(); });
  EXPECT_TRUE(submitted.empty());
  EXPECT_NE(job(child).reason.find("waiting for job " + std::to_string(parent) + " to start (after:"), std::string::npos)
      << job(child).reason;
  now_ += 10;
  step();
  drain(queue_, answer_with("RUNNING"), [&] { step(); });
  EXPECT_EQ(job(parent).state, JobState::Running);
  step();
  drain(queue_, answer_with("RUNNING"), [&] { step(); });
  ASSERT_EQ(submitted.size(), 1u);
  EXPECT_EQ(job(child).native_id, "11");
}

// '?' (any one): judged by yard whatever the scheduler; the child goes, with no dependency
// of the scheduler's, once one of them is met (here: the parent's start).
TEST_F(IndirectTest, AnyOneOfTheDependenciesIsJudgedHere) {
  auto parent = submit(spec("parent"));
  auto s = spec("after-child");
  s.dependencies = {{DependencyKind::AfterOk, parent}, {DependencyKind::After, parent}};
  s.dependency_any = true;
  auto child = submit(s);
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);  // only the parent
  queue_.answer("10\n");
  step();
  std::vector<std::string> submitted;
  auto answer_with = [&](const std::string& parent_state) {
    return [&, parent_state](const Command& c) {
      if (c.argv[0] == "fsub") {
        submitted.push_back(c.argv[1]);
        return std::string("11\n");
      }
      return "10|" + parent_state + "|None|x\n";
    };
  };
  drain(queue_, answer_with("PENDING"), [&] { step(); });
  EXPECT_TRUE(submitted.empty());
  EXPECT_NE(job(child).reason.find("waiting for one of jobs " + std::to_string(parent) + ", " + std::to_string(parent) + " (--dependency with '?')"), std::string::npos)
      << job(child).reason;
  now_ += 10;
  step();
  drain(queue_, answer_with("RUNNING"), [&] { step(); });
  EXPECT_EQ(job(parent).state, JobState::Running);
  step();
  drain(queue_, answer_with("RUNNING"), [&] { step(); });
  ASSERT_EQ(submitted.size(), 1u);
  EXPECT_EQ(job(child).native_id, "11");
}

TEST_F(IndirectTest, ArrayElementIdsAreTheDialectsOwn) {
  dialect_.dotted_elements = true;
  auto s = spec();
  s.array = *parse_array_spec("1-3");
  auto head = submit(s);
  step();
  queue_.answer("7\n");
  step();
  EXPECT_EQ(job(head).native_id, "7.1");
  EXPECT_EQ(job(head + 2).native_id, "7.3");
  queue_.answer("7.1|RUNNING|None|x\n7.2|PENDING|None|x\n7.3|PENDING|None|x\n");
  step();
  EXPECT_EQ(job(head).state, JobState::Running);
}

TEST_F(IndirectTest, AHistoryThatFoundNothingIsAnEmptyAnswerNotAFailure) {
  auto id = submit(spec());
  step();
  queue_.answer("12\n");
  step();
  queue_.answer("");  // gone from the queue at once
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "fh");
  const auto failed_before = backend_->stats().failed_calls;
  queue_.answer("", 1, "error: job name yard-* not found\n");
  step();
  EXPECT_EQ(backend_->stats().failed_calls, failed_before);  // not counted as a failed call
  // Nothing found for lost_after: LOST, as for any empty history.
  for (int i = 0; i < 4; ++i) {
    now_ += 10;
    step();
    drain(queue_, [](const Command&) { return std::string(); }, [&] { step(); });
  }
  EXPECT_EQ(job(id).state, JobState::Lost);
}

TEST_F(IndirectTest, ACancelledJobOfWhichTheSchedulerKeepsNoRecordIsCancelledNotLost) {
  auto pending = submit(spec("pending"));
  auto running = submit(spec("running"));
  step();
  drain(queue_, [&](const Command& c) {
    if (c.argv[0] == "fsub") return std::string(job(pending).native_id.empty() ? "20\n" : "21\n");
    return std::string("20|PENDING|None|x\n21|RUNNING|None|x\n");
  }, [&] { step(); });
  now_ += 10;
  step();
  queue_.answer("20|PENDING|None|x\n21|RUNNING|None|x\n");
  step();
  ASSERT_EQ(job(running).state, JobState::Running);
  ASSERT_TRUE(backend_->cancel({pending, running}));
  step();
  drain(queue_, [](const Command&) { return std::string(); }, [&] { step(); });
  now_ += 10;
  step();
  queue_.answer("");  // both gone from the queue
  step();
  queue_.answer("");  // and neither in the history yet
  step();
  // Deleted before it ran: no record will ever come.
  EXPECT_EQ(job(pending).state, JobState::Cancelled);
  EXPECT_EQ(job(pending).reason, "cancelled before it ran");
  // It ran: its record is waited for; a killed job's record ("FAILED") says cancelled.
  EXPECT_EQ(job(running).state, JobState::Running);
  now_ += 10;
  step();
  drain(queue_, [](const Command& c) {
    return c.argv[0] == "fh" ? std::string("21|FAILED|137|x\n") : std::string();
  }, [&] { step(); });
  EXPECT_EQ(job(running).state, JobState::Cancelled);
  EXPECT_EQ(job(running).exit_code, 137);
}

// The job may have ended just before the queue was listed, its record not written yet:
// the history is read only once it has caught up, and then the job is found there.
TEST_F(IndirectTest, AfterACrashTheHistoryIsReadOnlyOnceItCaughtUpWithTheQueueListing) {
  dialect_.history_lag = 20;
  auto id = submit(spec());
  step();
  queue_.posted.clear();  // submitted; the daemon dies before the answer is stored
  make_backend();
  ASSERT_TRUE(backend_->recover(now_));
  step();
  ASSERT_EQ(queue_.posted.front().argv[0], "ffind");
  queue_.answer("");  // not in the queue (any more)
  step();
  EXPECT_TRUE(queue_.posted.empty());  // the history may not know it yet: nothing asked
  EXPECT_NEAR(backend_->next_wakeup_s(now_), 20, 0.01);
  now_ += 19;
  step();
  EXPECT_TRUE(queue_.posted.empty());
  now_ += 1;
  step();
  ASSERT_EQ(queue_.posted.size(), 1u);
  EXPECT_EQ(queue_.posted.front().argv[0], "ffindh");
  queue_.answer("77|FAILED|3|yard-" + uid_of(id) + "\n");
  step();
  EXPECT_EQ(job(id).native_id, "77");
  EXPECT_EQ(job(id).submit_attempts, 1);  // never submitted again
}

}  // namespace
}  // namespace yard

namespace yard {
namespace {

using namespace indirect_testing;  // NOLINT: the bench of this test

// PBS's qstat exits 153 when one id among those asked is unknown (purged), and still
// lists the others: one forgotten job must not stop the tracking of every other.
TEST_F(IndirectTest, AListingThatOnlySaysSomeIdsAreUnknownStillUpdatesTheOthers) {
  for (bool partial : {false, true}) {
    dialect_.partial_listings = partial;
    const auto a = submit(spec("a")), b = submit(spec("b"));
    step();
    answer_to("fsub", partial ? "20\n" : "10\n");
    answer_to("fsub", partial ? "21\n" : "11\n");
    step();
    now_ += 10;
    step();
    ASSERT_EQ(posted("fq"), 1);
    const std::string listed = partial ? "20" : "10";
    queue_.answer(listed + "|RUNNING|None|x\n", 153, "Unknown Job Id " + std::string(partial ? "21" : "11") + ".srv\n");
    step();
    EXPECT_EQ(job(a).state, partial ? JobState::Running : JobState::Pending) << partial;
    EXPECT_EQ(job(b).state, JobState::Pending);
    queue_.posted.clear();
  }
}

// OAR's oarsub prints each element's job id, and another submission may take an id
// between two of them: the printed ids are the elements', not the first one's successors.
TEST_F(IndirectTest, AnArraysElementIdsAsTheSubmitCommandPrintedThem) {
  dialect_.numbered_elements = true;
  dialect_.listed_elements = true;
  auto array = spec("array");
  array.array = *parse_array_spec("0,5,17");
  const auto head = submit(array);
  step();
  answer_to("fsub", "30\n32\n33\n");  // 31 went to someone else's job
  step();
  auto active = store_->active_jobs_of("fake");
  ASSERT_TRUE(active) << active.error();
  std::vector<std::string> natives;
  for (const auto& j : *active)
    if (j.array_job_id == head) natives.push_back(j.native_id);
  EXPECT_EQ(natives, (std::vector<std::string>{"30", "32", "33"}));
}

// LSF's bsub reads #BSUB lines only from a script on its stdin.
TEST_F(IndirectTest, ASubmitCommandThatReadsItsScriptOnStdinGetsIt) {
  for (bool on_stdin : {false, true}) {
    dialect_.script_on_stdin = on_stdin;
    submit(spec());
    step();
    ASSERT_EQ(posted("fsub"), 1);
    const Command c = queue_.posted.front();
    EXPECT_EQ(c.stdin_path, on_stdin ? c.argv.at(1) : "") << on_stdin;
    queue_.answer(on_stdin ? "41\n" : "40\n");
    step();
    queue_.posted.clear();
  }
}

// HTCondor's condor_submit reads a submit description saved beside the script, and the
// one job of cluster 50 is 50.0.
TEST_F(IndirectTest, ACompanionFileIsSavedBesideTheScriptAndASingleJobGetsItsOwnId) {
  dialect_.described = true;
  const auto id = submit(spec());
  step();
  ASSERT_EQ(posted("fsub"), 1);
  const std::string description = queue_.posted.front().argv.at(1);
  ASSERT_TRUE(description.ends_with(".sub")) << description;
  auto text = read_file(description);
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(*text, "executable = " + description.substr(0, description.size() - 4) + ".sh\n");
  queue_.answer("50\n");
  step();
  EXPECT_EQ(job(id).native_id, "50.0");
}

// HTCondor holds a job whose time ran out in its queue, and its history has no record of
// it until it is removed: the queue's record is the job's end.
TEST_F(IndirectTest, AnEndedJobTheQueueKeepsEndsByTheQueuesRecordWhereTheHistoryHasNone) {
  for (bool final_in_queue : {false, true}) {
    dialect_.queue_is_final = final_in_queue;
    const std::string native = final_in_queue ? "61" : "60";
    const auto id = submit(spec());
    step();
    queue_.answer(native + "\n");
    step();
    now_ += 10;
    step();
    ASSERT_EQ(posted("fq"), 1);
    queue_.answer(native + "|TIMEOUT|held|x\n");
    step();
    EXPECT_EQ(job(id).state, final_in_queue ? JobState::Timeout : JobState::Pending) << final_in_queue;
    ASSERT_EQ(posted("fh"), final_in_queue ? 0 : 1) << final_in_queue;  // the history asked, or not
    if (!final_in_queue) {
      queue_.answer(native + "|TIMEOUT|0|x\n");
      step();
      EXPECT_EQ(job(id).state, JobState::Timeout);
    }
  }
}

TEST_F(IndirectTest, ADependencyOnAWholeArrayIsMarkedSoForTheDialect) {
  auto array = spec("array");
  array.array = *parse_array_spec("1-3");
  const auto head = submit(array);
  const auto single = submit(spec("single"));
  step();
  answer_to("fsub", "30\n");
  answer_to("fsub", "31\n");
  step();
  auto after = spec("after");
  after.dependencies = {{DependencyKind::AfterOk, head}, {DependencyKind::AfterAny, single}};
  const auto child = submit(after);
  step();
  std::string script;
  for (auto& c : queue_.posted)
    if (c.argv[0] == "fsub") {
      auto text = read_file(c.argv[1]);
      script = text ? *text : text.error();
    }
  EXPECT_NE(script.find("# after 30[]\n# after 31\n"), std::string::npos) << script;
  EXPECT_NE(job(child).uid, "");
}

}  // namespace
}  // namespace yard
