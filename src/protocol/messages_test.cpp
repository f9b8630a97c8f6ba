#include "protocol/messages.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(Protocol, EveryRequestRoundTrips) {
  SubmitRequest s;
  s.spec.name = std::string("caf\xe9", 4);  // Latin-1: travels as base64
  s.spec.argv = {"echo", "a b"};
  s.job_class = "sweep";
  s.key = "k1";
  auto back = decode_request(encode_request(s));
  ASSERT_TRUE(back) << back.error();
  auto* got = std::get_if<SubmitRequest>(&*back);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->spec.name, s.spec.name);
  EXPECT_EQ(got->spec.argv, s.spec.argv);
  EXPECT_EQ(got->job_class, "sweep");
  EXPECT_EQ(got->key, "k1");

  auto c = decode_request(encode_request(CancelRequest{{3, 4}}));
  ASSERT_TRUE(c);
  EXPECT_EQ(std::get<CancelRequest>(*c).ids, (std::vector<std::int64_t>{3, 4}));
  auto sh = decode_request(encode_request(ShutdownRequest{true}));
  ASSERT_TRUE(sh);
  EXPECT_TRUE(std::get<ShutdownRequest>(*sh).kill_jobs);
  auto p = decode_request(encode_request(PingRequest{}));
  ASSERT_TRUE(p);
  EXPECT_TRUE(std::holds_alternative<PingRequest>(*p));
}

TEST(Protocol, BadRequestsAreRefusedWithWhatWasWrong) {
  EXPECT_NE(decode_request("{").error().find("malformed request"), std::string::npos);
  EXPECT_NE(decode_request("[1]").error().find("not a JSON object"), std::string::npos);
  EXPECT_NE(decode_request(R"({"op":"dance"})").error().find("unknown request 'dance'"), std::string::npos);
  EXPECT_NE(decode_request(R"({"op":7})").error().find("unknown request ''"), std::string::npos);
  EXPECT_NE(decode_request(R"({"op":"submit"})").error().find("malformed job spec"), std::string::npos);
  EXPECT_NE(decode_request(R"({"op":"cancel","ids":"x"})").error().find("malformed cancel request"), std::string::npos);
  EXPECT_EQ(decode_request(R"({"op":"submit"})").kind(), ErrorKind::Invalid);
}

TEST(Protocol, RepliesAndRefusalsKeepTheirKind) {
  auto ids = decode_submit_reply(encode_reply(SubmitReply{{7, 8}, std::nullopt, {"no sendmail"}, "wish a -> local"}));
  ASSERT_TRUE(ids);
  EXPECT_EQ(ids->ids, (std::vector<std::int64_t>{7, 8}));
  EXPECT_FALSE(ids->job);
  EXPECT_EQ(ids->warnings, (std::vector<std::string>{"no sendmail"}));
  // A test-only submission: no ids, the job as it would be submitted.
  JobSpec spec;
  spec.name = "would";
  spec.argv = {"true"};
  spec.workdir = "/tmp";
  spec.backend = "local";
  SubmitRequest req{spec, "", "", true};
  auto back = decode_request(encode_request(req));
  ASSERT_TRUE(back);
  EXPECT_TRUE(std::get<SubmitRequest>(*back).test_only);
  auto checked = decode_submit_reply(encode_reply(SubmitReply{{}, spec, {}, ""}));
  ASSERT_TRUE(checked);
  EXPECT_TRUE(checked->ids.empty());
  ASSERT_TRUE(checked->job);
  EXPECT_EQ(checked->job->name, "would");
  auto unsatisfiable = decode_submit_reply(encode_error(Error{"too big", ErrorKind::Unsatisfiable}));
  EXPECT_EQ(unsatisfiable.kind(), ErrorKind::Unsatisfiable);
  auto refused = decode_cancel_reply(encode_error(Error{"no job 9", ErrorKind::NotFound}));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(), "no job 9");
  EXPECT_EQ(refused.kind(), ErrorKind::NotFound);
  auto full = decode_submit_reply(encode_error(Error{"disk full", ErrorKind::Unavailable}));
  EXPECT_EQ(full.kind(), ErrorKind::Unavailable);
  for (const char* bad : {"", "null", "{}", R"({"ok":true})", R"({"ok":"yes"})"}) {
    auto r = decode_submit_reply(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.kind(), ErrorKind::Internal) << bad;
  }
}

TEST(Protocol, PingCarriesWhatEachBackendSays) {
  PingReply p{42, "/s", "/db", {{"running", 3}, {"slurm_active", 0}}};
  auto back = decode_ping_reply(encode_reply(p));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->pid, 42);
  EXPECT_EQ(back->socket, "/s");
  EXPECT_EQ(back->backends.value("running", -1), 3);
  EXPECT_FALSE(back->backends.contains("ok"));
  EXPECT_EQ(ping_json(*back).value("pid", 0), 42);
}

// Every field of a job crosses the socket unchanged: bytes that are not UTF-8, control
// characters, times to the last bit, absent and present optionals.
TEST(Protocol, JobsTravelAsATableWithEveryFieldAndByte) {
  JobRecord a;
  a.id = 12;
  a.uid = "u";
  a.name = std::string("na\"me\\ \x01 caf\xc3\xa9 \xff", 16);
  a.backend = "slurm";
  a.array_job_id = 10;
  a.array_index = 3;
  a.state = JobState::Failed;
  a.reason = "exit code 3\n";
  a.submit_time = 1764140000.123456789;
  a.start_time = 1764140001.5;
  a.exit_code = 3;
  a.cpu_seconds = 0.1 + 0.2;
  a.max_rss_bytes = std::int64_t{1} << 40;
  a.native_id = "991.pbs";
  a.cancel_requested = true;
  JobRecord b;
  b.id = 13;
  b.state = JobState::Pending;
  auto back = decode_jobs_reply(encode_reply(JobsReply{{a, b}, 13}));
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->jobs.size(), 2u);
  EXPECT_EQ(back->next, 13);
  const JobRecord& x = back->jobs[0];
  EXPECT_EQ(x.name, a.name);
  EXPECT_EQ(x.reason, a.reason);
  EXPECT_EQ(x.array_index, 3);
  EXPECT_EQ(x.state, JobState::Failed);
  EXPECT_EQ(x.submit_time, a.submit_time);
  EXPECT_EQ(x.start_time, a.start_time);
  EXPECT_FALSE(x.end_time);
  EXPECT_EQ(x.cpu_seconds, a.cpu_seconds);
  EXPECT_EQ(x.max_rss_bytes, a.max_rss_bytes);
  EXPECT_EQ(x.native_id, "991.pbs");
  EXPECT_TRUE(x.cancel_requested);
  EXPECT_EQ(back->jobs[1].id, 13);
  EXPECT_FALSE(back->jobs[1].exit_code);
  // A reply that is not a table of jobs is an error, never a crash.
  for (const char* bad : {R"({"ok":true,"jobs":{"columns":["id"],"rows":[[1,2]]}})",
                          R"({"ok":true,"jobs":{"columns":["name"],"rows":[["x"]]}})",
                          R"({"ok":true,"jobs":{"columns":["id","state"],"rows":[[1.5,"RUNNING"]]}})",
                          R"({"ok":true,"jobs":{"columns":["id","state"],"rows":[[1,"DONE"]]}})"}) {
    auto r = decode_jobs_reply(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.kind(), ErrorKind::Internal) << bad;
  }
}

TEST(Protocol, ReadRequestsRoundTripAndBadOnesNameTheirField) {
  JobsRequest q;
  q.query.ids = {3, 4};
  q.query.states = {JobState::Running};
  q.query.name = "n";
  q.query.after = 2;
  q.query.limit = 10;
  auto back = decode_request(encode_request(q));
  ASSERT_TRUE(back) << back.error();
  const auto& got = std::get<JobsRequest>(*back).query;
  EXPECT_EQ(got.ids, q.query.ids);
  EXPECT_EQ(got.states, q.query.states);
  EXPECT_EQ(got.limit, 10u);
  auto watch = decode_request(encode_request(WatchRequest{7, false, {}}));
  ASSERT_TRUE(watch);
  EXPECT_EQ(std::get<WatchRequest>(*watch).since, 7);
  EXPECT_FALSE(std::get<WatchRequest>(*watch).follow);
  for (const char* bad : {R"({"op":"jobs","ids":[1.5]})", R"({"op":"jobs","ids":"1"})", R"({"op":"job"})",
                          R"({"op":"logs","id":1,"limit":"x"})", R"({"op":"watch","follow":"yes"})",
                          R"({"op":"jobs","after":18446744073709551615})"}) {
    auto r = decode_request(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.kind(), ErrorKind::Invalid) << bad;
  }
}

}  // namespace
}  // namespace yard
