#include "core/warning_signal.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace yard {
namespace {

TEST(WarningSignal, EveryFormSbatchTakes) {
  auto plain = parse_warning_signal("USR1");
  ASSERT_TRUE(plain) << plain.error();
  EXPECT_EQ(plain->signal, SIGUSR1);
  EXPECT_EQ(plain->seconds_before, 60);  // sbatch's default
  EXPECT_FALSE(plain->batch_only);
  auto batch = parse_warning_signal("B:SIGUSR2@90");
  ASSERT_TRUE(batch) << batch.error();
  EXPECT_EQ(batch->signal, SIGUSR2);
  EXPECT_EQ(batch->seconds_before, 90);
  EXPECT_TRUE(batch->batch_only);
  auto number = parse_warning_signal("R:10@0");
  ASSERT_TRUE(number) << number.error();
  EXPECT_EQ(number->signal, 10);
  EXPECT_EQ(number->seconds_before, 0);
  EXPECT_EQ(parse_warning_signal("sigterm")->signal, SIGTERM);
}

TEST(WarningSignal, BadValuesAreNamedWithWhatIsExpected) {
  for (const char* bad : {"", "B:", "FOO", "USR1@", "USR1@x", "USR1@-1", "USR1@70000", "0", "99", "B:@5", "@5"}) {
    auto w = parse_warning_signal(bad);
    ASSERT_FALSE(w) << "'" << bad << "' was taken";
    EXPECT_NE(w.error().find("--signal: invalid value '" + std::string(bad) + "'"), std::string::npos) << w.error();
    EXPECT_NE(w.error().find("expected [B:]SIG[@SECONDS]"), std::string::npos) << w.error();
  }
}

}  // namespace
}  // namespace yard
