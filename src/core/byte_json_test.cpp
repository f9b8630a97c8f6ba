#include "core/byte_json.h"

#include <gtest/gtest.h>

#include "core/job_spec.h"

namespace yard {
namespace {

TEST(ByteJson, Utf8IsTold) {
  EXPECT_TRUE(is_valid_utf8("plain ascii"));
  EXPECT_TRUE(is_valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(is_valid_utf8("caf\xe9"));           // Latin-1
  EXPECT_FALSE(is_valid_utf8("\xff"));
  EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xe2\x82"));          // cut short
}

TEST(ByteJson, Base64RoundTripsEveryLength) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  for (std::size_t n = 0; n <= all.size(); n += 1) {
    const std::string part = all.substr(0, n);
    EXPECT_EQ(base64_decode(base64_encode(part)), part) << n;
  }
  EXPECT_EQ(base64_encode("Man"), "TWFu");
  EXPECT_EQ(base64_encode("Ma"), "TWE=");
  EXPECT_THROW(base64_decode("TW!u"), nlohmann::json::exception);
}

TEST(ByteJson, Utf8StaysAStringOtherBytesAreEncoded) {
  EXPECT_EQ(bytes_to_json("caf\xc3\xa9"), nlohmann::json("caf\xc3\xa9"));
  auto j = bytes_to_json("caf\xe9");
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(bytes_from_json(j), "caf\xe9");
  EXPECT_NO_THROW((void)j.dump());
  EXPECT_THROW(bytes_from_json(nlohmann::json(3)), nlohmann::json::exception);
}

TEST(ByteJson, EnvironmentWithByteNamesAndValues) {
  std::map<std::string, std::string> env{{"PLAIN", "x"}, {"LATIN", "\xe9t\xe9"}, {"N\xff", "v"}};
  auto j = byte_map_to_json(env);
  EXPECT_TRUE(j.is_array());  // a name that is not UTF-8 cannot be an object key
  EXPECT_EQ(byte_map_from_json(nlohmann::json::parse(j.dump())), env);
  std::map<std::string, std::string> utf8{{"A", "b"}, {"C", "\xff"}};
  EXPECT_TRUE(byte_map_to_json(utf8).is_object());
  EXPECT_EQ(byte_map_from_json(byte_map_to_json(utf8)), utf8);
}

// Every text field of a spec crosses JSON (the socket, the store) byte for byte.
TEST(ByteJson, JobSpecRoundTripsBytes) {
  JobSpec s;
  s.name = "n\xff";
  s.argv = {"echo", "\xe9", std::string("nul\0byte", 8)};
  s.script = "#!/bin/sh\n# caf\xe9\necho hi\n";
  s.workdir = "/tmp/d\xff";
  s.env = {{"FOO", "\xff"}, {"B\xe9", "1"}};
  s.stdout_path = "/o\xfe";
  s.stderr_path = "/e\xfd";
  s.account = "a\xe9";
  s.partition = "p\xe9";
  s.qos = "q\xe9";
  const std::string text = nlohmann::json(s).dump();
  auto back = nlohmann::json::parse(text).get<JobSpec>();
  EXPECT_EQ(back.name, s.name);
  EXPECT_EQ(back.argv, s.argv);
  EXPECT_EQ(back.script, s.script);
  EXPECT_EQ(back.workdir, s.workdir);
  EXPECT_EQ(back.env, s.env);
  EXPECT_EQ(back.stdout_path, s.stdout_path);
  EXPECT_EQ(back.stderr_path, s.stderr_path);
  EXPECT_EQ(back.account, s.account);
  EXPECT_EQ(back.partition, s.partition);
  EXPECT_EQ(back.qos, s.qos);
}

}  // namespace
}  // namespace yard
