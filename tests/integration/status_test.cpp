// What `yard status` shows of text that users chose: every row whole and on its own line
// however long its REASON, names cut between characters, and control characters escaped
// instead of reaching the terminal.
#include <sstream>

#include "harness.h"

namespace yard::test {
namespace {

class Status : public YardWorld {};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST_F(Status, RowsAreWholeEscapedAndCutBetweenCharacters) {
  const long failed = submit({"-o", "/nonexistent/" + std::string(300, 'd') + "/x.out", "--", "true"});
  const long after = submit({"-J", "after", "--", "true"});
  const long red = submit({"-J", "\x1b[31mred", "--", "true"});
  std::string accents;
  for (int i = 0; i < 20; ++i) accents += "\xc3\xa9";  // é
  const long wide = submit({"-J", accents, "--", "true"});
  wait({failed, after, red, wide});
  Output o = yard({"status", std::to_string(failed), std::to_string(after), std::to_string(red), std::to_string(wide)});
  ASSERT_EQ(o.rc, 0) << o.err;
  auto lines = lines_of(o.out);
  ASSERT_EQ(lines.size(), 5u) << o.out;
  EXPECT_NE(lines[1].find("cannot open output file /nonexistent/" + std::string(300, 'd')), std::string::npos)
      << lines[1];
  EXPECT_EQ(lines[2].rfind(std::to_string(after) + " ", 0), 0u) << lines[2];
  EXPECT_EQ(o.out.find('\x1b'), std::string::npos);
  EXPECT_NE(lines[3].find("\\x1b[31mred"), std::string::npos) << lines[3];
  std::string sixteen;
  for (int i = 0; i < 16; ++i) sixteen += "\xc3\xa9";
  EXPECT_NE(lines[4].find(" " + sixteen + " "), std::string::npos) << lines[4];
  // JSON keeps the name as it is.
  EXPECT_EQ(job(red)["name"], "\x1b[31mred");
}

}  // namespace
}  // namespace yard::test
