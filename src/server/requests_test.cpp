// The daemon's requests, answered without a socket.
#include "server/requests.h"

#include "server/requests_fixture.h"

namespace yard {
namespace {

using testing_requests::Requests;

TEST_F(Requests, ASubmissionKeySeenBeforeGetsItsFirstIdsBack) {
  auto d = daemon();
  SubmitRequest r;
  r.spec.argv = {"true"};
  r.key = "once";
  auto first = handle(d, r, 1.0);
  ASSERT_TRUE(first) << first.error();
  auto again = handle(d, r, 2.0);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->ids, first->ids);
  EXPECT_EQ(*store_->count_jobs(), 1);
}

TEST_F(Requests, ADrainingDaemonRefusesNewWorkAsUnavailable) {
  auto d = daemon();
  (void)handle(d, ShutdownRequest{true});
  EXPECT_TRUE(d.draining);
  SubmitRequest r;
  r.spec.argv = {"true"};
  auto refused = handle(d, r, 1.0);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.kind(), ErrorKind::Unavailable);
}

TEST_F(Requests, LinesAreDecodedAnsweredAndMarkedIfTheyChangedSomething) {
  auto d = daemon();
  bool changed = true;
  auto bad = handle_line(d, "{nope", 1.0, changed);
  EXPECT_FALSE(changed);
  EXPECT_NE(bad.find("malformed request"), std::string::npos) << bad;
  auto ping = decode_ping_reply(handle_line(d, R"({"op":"ping"})", 1.0, changed));
  ASSERT_TRUE(ping);
  EXPECT_FALSE(changed);
  EXPECT_EQ(ping->pid, ::getpid());
  EXPECT_EQ(ping->backends.value("running", -1), 0);
  auto unknown = decode_cancel_reply(handle_line(d, R"({"op":"cancel","ids":[99]})", 1.0, changed));
  EXPECT_FALSE(changed);
  EXPECT_EQ(unknown.kind(), ErrorKind::NotFound);
  SubmitRequest r;
  r.spec.argv = {"true"};
  auto ok = decode_submit_reply(handle_line(d, encode_request(r), 1.0, changed));
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_TRUE(changed);
}

// A flow's jobs in one request: needs become afterok on every id of the job needed (an
// array's elements), the flow's environment reaches each job, and a job that cannot be
// submitted leaves nothing of the request stored.
TEST_F(Requests, SubmitManyStoresAllWithTheirNeedsOrNothing) {
  auto d = daemon();
  auto spec = [](const std::string& name) {
    JobSpec s;
    s.name = name;
    s.argv = {"/bin/true"};
    s.workdir = "/tmp";
    return s;
  };
  SubmitManyRequest r;
  r.env = {{"FLOW", "1"}};
  r.key = "k-many";
  JobSpec sweep = spec("sweep");
  sweep.array = *parse_array_spec("1-3");
  JobSpec own = spec("own");
  own.env = {{"OWN", "1"}};
  r.jobs = {{spec("prepare"), "", {}, false, "", "", {}, false, ""},
            {sweep, "", {0}, false, "", "", {}, false, ""},
            {spec("reduce"), "", {1}, false, "", "", {}, false, ""},
            {own, "", {0}, true, "", "", {}, false, ""}};
  auto reply = handle(d, r, 1.0);
  ASSERT_TRUE(reply) << reply.error();
  ASSERT_EQ(reply->ids.size(), 4u);
  EXPECT_EQ(reply->ids[1].size(), 3u);
  auto reduce = store_->job(reply->ids[2][0]);
  ASSERT_TRUE(reduce && *reduce);
  auto reduce_spec = store_->spec((*reduce)->spec_id);
  ASSERT_TRUE(reduce_spec);
  std::vector<std::int64_t> after;
  for (const auto& dep : reduce_spec->dependencies) {
    EXPECT_EQ(dep.kind, DependencyKind::AfterOk);
    after.push_back(dep.job_id);
  }
  EXPECT_EQ(after, reply->ids[1]);
  EXPECT_EQ(reduce_spec->env, (std::map<std::string, std::string>{{"FLOW", "1"}}));
  auto own_job = store_->job(reply->ids[3][0]);
  EXPECT_EQ(store_->spec((*own_job)->spec_id)->env, (std::map<std::string, std::string>{{"OWN", "1"}}));
  // The same request again (a client whose connection broke): the same ids, nothing new.
  auto again = handle(d, r, 2.0);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->ids, reply->ids);
  const auto stored = *store_->count_jobs();
  // A bad last job, or needs across backends: refused, naming the job; nothing stored.
  SubmitManyRequest bad;
  bad.jobs = {{spec("a"), "", {}, false, "", "", {}, false, ""}, {spec("b"), "nosuch", {0}, false, "", "", {}, false, ""}};
  auto refused = handle(d, bad, 3.0);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().rfind("job 1 (b): ", 0), 0u) << refused.error();
  JobSpec elsewhere = spec("c");
  elsewhere.backend = "other";
  bad.jobs = {{spec("a"), "", {}, false, "", "", {}, false, ""}, {elsewhere, "", {0}, false, "", "", {}, false, ""}};
  refused = handle(d, bad, 3.0);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("job 1 (c) runs on backend 'other' and needs job 0 (a) of backend 'local'"),
            std::string::npos)
      << refused.error();
  EXPECT_EQ(*store_->count_jobs(), stored);
  // On the wire: a need that is not an earlier job is a malformed request.
  bool changed = false;
  const std::string line = handle_line(
      d, R"({"op":"submit_many","jobs":[{"spec":{"argv":["x"],"workdir":"/tmp"},"needs":[0]}]})", 4.0, changed);
  EXPECT_NE(line.find("job 0 needs job 0, which is not an earlier job of the request"), std::string::npos) << line;
  EXPECT_FALSE(changed && line.find("\"ok\":true") != std::string::npos);
}

}  // namespace
}  // namespace yard
