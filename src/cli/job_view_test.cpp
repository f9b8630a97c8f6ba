#include "cli/job_view.h"

#include <gtest/gtest.h>

#include <ctime>
#include <sstream>

#include "core/json_text.h"
#include "core/text.h"

namespace yard {
namespace {

JobRecord record(std::int64_t id, std::string name) {
  JobRecord j;
  j.id = id;
  j.name = std::move(name);
  j.state = JobState::Completed;
  j.submit_time = 1000;
  return j;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(JobTable, ALongReasonNeverSwallowsTheNextRow) {
  auto a = record(1, "first");
  a.state = JobState::Failed;
  a.reason = "cannot open output file /nonexistent/" + std::string(300, 'd') + "/x.out";
  auto b = record(2, "after");
  std::ostringstream out;
  print_job_table(out, {a, b}, 2000);
  auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u) << out.str();
  EXPECT_NE(lines[1].find(a.reason), std::string::npos);  // whole, not cut
  EXPECT_EQ(lines[2].rfind("2 ", 0), 0u) << lines[2];
  EXPECT_EQ(out.str().back(), '\n');
}

TEST(JobTable, NamesAreEscapedAndCutBetweenCharacters) {
  std::string accents;
  for (int i = 0; i < 20; ++i) accents += "\xc3\xa9";  // é, two bytes each
  std::ostringstream out;
  print_job_table(out, {record(1, accents), record(2, "\x1b[31mred"), record(3, "bad\xff" "byte\nx")}, 2000);
  const std::string text = out.str();
  EXPECT_TRUE(is_valid_utf8(text));
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), 4u) << text;
  std::string sixteen;
  for (int i = 0; i < 16; ++i) sixteen += "\xc3\xa9";
  EXPECT_NE(lines[1].find(sixteen + " "), std::string::npos);
  EXPECT_EQ(lines[1].find(sixteen + "\xc3"), std::string::npos);
  EXPECT_NE(lines[2].find("\\x1b[31mred"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find("bad\\xffbyte\\x0ax"), std::string::npos) << lines[3];
}

TEST(JobTable, ElapsedOfARunningJobUsesFractionalTime) {
  auto j = record(1, "run");
  j.state = JobState::Running;
  j.start_time = 100.1;
  std::ostringstream out;
  print_job_table(out, {j}, 101.9);  // 1.8 s: a whole-second clock (101) gave 0
  EXPECT_NE(out.str().find("00:00:01"), std::string::npos) << out.str();
  // The default `now` is the wall clock, with its fraction.
  EXPECT_GT(wall_clock_now() - static_cast<double>(std::time(nullptr)), -1.0);
}

TEST(JobJson, NonUtf8FieldsAreShownEscapedNotThrown) {
  auto j = record(1, "caf\xe9");
  j.reason = "\xff";
  j.stdout_path = "/tmp/d\xff/out";
  std::string text;
  ASSERT_NO_THROW(text = dump_json(nlohmann::json::array({job_json(j)}), 2));
  auto back = nlohmann::json::parse(text);
  EXPECT_EQ(back[0]["name"], "caf\\xe9");
  EXPECT_EQ(back[0]["reason"], "\\xff");
  EXPECT_EQ(back[0]["stdout"], "/tmp/d\\xff/out");
}

}  // namespace
}  // namespace yard

namespace yard {
namespace {

TEST(JobJson, WrittenStraightItIsExactlyWhatTheTreeDumps) {
  JobRecord j = record(7, "we\"ird\\ \x01\t\n\x7f caf\xc3\xa9 \xff\xfe end");
  j.uid = "u-1";
  j.backend = "local";
  j.reason = "exit code 3";
  j.native_id = "";
  j.array_job_id = 5;
  j.array_index = 2;
  j.exit_code = 3;
  j.cpu_seconds = 0.1 + 0.2;
  j.start_time = 1000.25;
  j.end_time = 1001.5;
  j.stdout_path = "/tmp/out \x1f";
  for (int variant = 0; variant < 2; ++variant) {
    if (variant) j.native_id = "1234.server", j.signal = 9, j.cpu_seconds.reset(), j.max_rss_bytes = 1 << 20;
    std::string direct;
    append_job_json(direct, j);
    EXPECT_EQ(direct, dump_json(job_json(j), 2));
    // One level in, as inside the status array.
    std::string nested = "[\n  ";
    append_job_json(nested, j, 1);
    nested += "\n]";
    EXPECT_EQ(nested, dump_json(nlohmann::json::array({job_json(j)}), 2));
  }
}

}  // namespace
}  // namespace yard
