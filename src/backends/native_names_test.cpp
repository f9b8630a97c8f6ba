#include "backends/native_names.h"

#include <gtest/gtest.h>

#include <cctype>
#include <vector>

#include "core/uid.h"

namespace yard {
namespace {

TEST(NativeNames, RoundTrip) {
  for (const std::string& name : std::vector<std::string>{"", "train", "a b|c\nd'$(x)", std::string(200, 'x'), std::string("\xff\xfe", 2)}) {
    const std::string uid = new_uid();
    const std::string native = native_job_name(uid, name);
    EXPECT_EQ(uid_from_native_job_name(native), uid) << native;
    for (char c : native) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || std::string("-_.+").find(c) != std::string::npos) << native;
  }
}

TEST(NativeNames, Shape) {
  EXPECT_EQ(native_job_name("yd0123456789abcdef", "my job"), "yard-yd0123456789abcdef-my_job");
  EXPECT_EQ(native_job_name("yd0123456789abcdef", ""), "yard-yd0123456789abcdef");
  EXPECT_EQ(native_job_name("yd0123456789abcdef", std::string(100, 'n')).size(), 5u + 18u + 1u + 64u);
}

TEST(NativeNames, NamesWithoutUid) {
  for (const char* n : {"", "plain", "allocation", "wrap", "yard-", "yard-yd0123", "yard-yd0123456789abcdeg",
                        "yard-yd0123456789ABCDEF", "yard-yd0123456789abcdefx", "yd0123456789abcdef",
                        "xyard-yd0123456789abcdef"})
    EXPECT_FALSE(uid_from_native_job_name(n)) << n;
  EXPECT_EQ(uid_from_native_job_name("yard-yd0123456789abcdef-"), "yd0123456789abcdef");
}

}  // namespace
}  // namespace yard
