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
  auto ids = decode_submit_reply(encode_reply(SubmitReply{{7, 8}, std::nullopt, {"no sendmail"}}));
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
  auto checked = decode_submit_reply(encode_reply(SubmitReply{{}, spec, {}}));
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

}  // namespace
}  // namespace yard
