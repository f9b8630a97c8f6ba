// yard hold, release and requeue (and Slurm's scontrol hold|release|requeue through the
// front end, tests/slurm-commands/): a held job never starts until released, also across
// a daemon restart; a requeued running job starts again under its id, also when it asks
// for it itself (submitit's checkpoint: `scontrol requeue $SLURM_JOB_ID`); a job that
// does not allow the action is an error naming it, and nothing is done.
#include "harness.h"

namespace yard::test {
namespace {

class JobActions : public YardWorld {
 protected:
  std::string state(long id) { return job(id)["state"].get<std::string>(); }
};

TEST_F(JobActions, AHeldJobWaitsUntilReleasedEvenAcrossARestart) {
  configure("cpus: 1\n");
  long busy = submit({"--", "sleep", "300"});
  ASSERT_TRUE(wait_until([&] { return state(busy) == "RUNNING"; }, 30));
  long held = submit({"-o", "held.out", "--", "echo", "ran"});
  Output hold = yard({"hold", std::to_string(held)});
  ASSERT_EQ(hold.rc, 0) << hold.err;
  EXPECT_EQ(job(held)["held"], true);
  EXPECT_NE(job(held)["reason"].get<std::string>().find("held (yard hold)"), std::string::npos) << job(held);
  // The CPU frees; a job submitted after it runs, the held one does not.
  Output cancel = yard({"cancel", std::to_string(busy)});
  ASSERT_EQ(cancel.rc, 0) << cancel.err;
  long later = submit({"--", "true"});
  ASSERT_EQ(wait({later}), 0);
  EXPECT_EQ(state(held), "PENDING");
  // A restarted daemon keeps it held.
  ASSERT_EQ(yard({"server", "stop"}).rc, 0);
  long after_restart = submit({"--", "true"});
  ASSERT_EQ(wait({after_restart}), 0);
  EXPECT_EQ(state(held), "PENDING");
  EXPECT_EQ(job(held)["held"], true);
  // Released, it runs.
  Output release = yard({"release", std::to_string(held)});
  ASSERT_EQ(release.rc, 0) << release.err;
  ASSERT_EQ(wait({held}), 0);
  EXPECT_EQ(read("held.out"), "ran\n");
  EXPECT_EQ(job(held)["held"], false);
}

TEST_F(JobActions, ARequeuedJobRunsAgainUnderItsIdAlsoWhenItAsksItself) {
  configure("cpus: 2\n");
  // Each start appends a line; stopped by yard requeue, it starts again.
  long looping = submit({"--", "sh", "-c", "echo start >> starts; sleep 300"});
  ASSERT_TRUE(wait_until([&] { return read("starts") == "start\n"; }, 30));
  Output requeue = yard({"requeue", std::to_string(looping)});
  ASSERT_EQ(requeue.rc, 0) << requeue.err;
  ASSERT_TRUE(wait_until([&] { return read("starts") == "start\nstart\n"; }, 30)) << read("starts");
  Output events = yard({"watch", "--json", "--no-follow"});
  EXPECT_NE(events.out.find("requeued (yard requeue)"), std::string::npos) << events.out;
  // Requeued and held: pending, until released, then it starts a third time.
  Output held = yard({"requeue", "--hold", std::to_string(looping)});
  ASSERT_EQ(held.rc, 0) << held.err;
  ASSERT_TRUE(wait_until([&] { return state(looping) == "PENDING"; }, 30)) << job(looping);
  EXPECT_EQ(job(looping)["held"], true);
  EXPECT_EQ(read("starts"), "start\nstart\n");
  ASSERT_EQ(yard({"release", std::to_string(looping)}).rc, 0);
  ASSERT_TRUE(wait_until([&] { return read("starts") == "start\nstart\nstart\n"; }, 30)) << read("starts");
  ASSERT_EQ(yard({"cancel", std::to_string(looping)}).rc, 0);
  // A job that requeues itself the first time it runs, as a checkpointing job does.
  const std::string yard_bin = YARD_BINARY;
  long self = submit({"--", "sh", "-c",
                      "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; "
                      "if [ $n -lt 2 ]; then '" + yard_bin + "' requeue $YARD_JOB_ID; sleep 300; fi"});
  ASSERT_EQ(wait({self}), 0);
  EXPECT_EQ(read("count"), "2\n");
  EXPECT_EQ(state(self), "COMPLETED");
}

TEST_F(JobActions, AJobThatDoesNotAllowTheActionIsAnErrorAndNothingIsDone) {
  configure("cpus: 1\n");
  long running = submit({"--", "sleep", "300"});
  ASSERT_TRUE(wait_until([&] { return state(running) == "RUNNING"; }, 30));
  long pending = submit({"--", "true"});
  // Held while running: refused, and the pending job named beside it is not held either.
  Output hold = yard({"hold", std::to_string(pending), std::to_string(running)});
  EXPECT_EQ(hold.rc, 2);
  EXPECT_NE(hold.err.find("yard hold: job " + std::to_string(running) +
                          " (RUNNING) cannot be held: only a pending job can"),
            std::string::npos)
      << hold.err;
  EXPECT_EQ(job(pending)["held"], false);
  Output release = yard({"release", std::to_string(pending)});
  EXPECT_EQ(release.rc, 2);
  EXPECT_NE(release.err.find("job " + std::to_string(pending) + " (PENDING) is not held"), std::string::npos)
      << release.err;
  Output requeue = yard({"requeue", std::to_string(pending)});
  EXPECT_EQ(requeue.rc, 2);
  EXPECT_NE(requeue.err.find("cannot be requeued: only a running job can"), std::string::npos) << requeue.err;
  Output unknown = yard({"hold", "999"});
  EXPECT_EQ(unknown.rc, 2);
  EXPECT_NE(unknown.err.find("yard hold: no job 999"), std::string::npos) << unknown.err;
  ASSERT_EQ(yard({"cancel", std::to_string(running)}).rc, 0);
  ASSERT_EQ(wait({pending}), 0);
}

}  // namespace
}  // namespace yard::test
