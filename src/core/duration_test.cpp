#include "core/duration.h"

#include <gtest/gtest.h>

namespace yard {

TEST(Walltime, EverySlurmForm) {
  EXPECT_EQ(*parse_walltime("30"), 30 * 60);
  EXPECT_EQ(*parse_walltime("90"), 90 * 60);
  EXPECT_EQ(*parse_walltime("5:30"), 5 * 60 + 30);
  EXPECT_EQ(*parse_walltime("1:02:03"), 3600 + 2 * 60 + 3);
  EXPECT_EQ(*parse_walltime("2-5"), 2 * 86400 + 5 * 3600);
  EXPECT_EQ(*parse_walltime("2-05:10"), 2 * 86400 + 5 * 3600 + 10 * 60);
  EXPECT_EQ(*parse_walltime("1-00:00:07"), 86400 + 7);
  EXPECT_EQ(*parse_walltime("UNLIMITED"), 0);
}

// sbatch 22.05 takes a field past its next one's range and carries it (measured on the
// test cluster: 0-24:00:00 is a day, 1-23:75 is 2-00:15:00, 100:99 is 1:41:39).
TEST(Walltime, FieldsCarryAsInSlurm) {
  EXPECT_EQ(*parse_walltime("0-24:00:00"), 86400);
  EXPECT_EQ(*parse_walltime("1-30:00"), 86400 + 30 * 3600);
  EXPECT_EQ(*parse_walltime("1-23:75"), 2 * 86400 + 15 * 60);
  EXPECT_EQ(*parse_walltime("10:75:00"), 11 * 3600 + 15 * 60);
  EXPECT_EQ(*parse_walltime("100:99"), 100 * 60 + 99);
  EXPECT_EQ(*parse_walltime("1-00:00:75"), 86400 + 75);
}

TEST(Walltime, RejectsWhatIsNotATimeWithTheValue) {
  auto r = parse_walltime("1:x:00");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("'1:x:00'"), std::string::npos) << r.error();
  EXPECT_FALSE(parse_walltime("abc").ok());
  EXPECT_FALSE(parse_walltime("").ok());
  EXPECT_FALSE(parse_walltime("1:2:3:4").ok());
  EXPECT_FALSE(parse_walltime("-5").ok());
  EXPECT_FALSE(parse_walltime("1:").ok());
  EXPECT_FALSE(parse_walltime("99999999999999999999").ok());
}

TEST(Walltime, HugeFieldsAreRefusedNotWrapped) {
  // 307445734561825861 x 60 wraps to 44 in 64 bits, 153722867280912931 x 3600 to 3120.
  for (const char* t : {"307445734561825861", "307445734561825861:00", "153722867280912931:00:00",
                        "9223372036854775807", "106751991167301-0"}) {
    auto r = parse_walltime(t);
    ASSERT_FALSE(r.ok()) << t << " gave " << *r;
    EXPECT_NE(r.error().find("longer than 100 years"), std::string::npos) << r.error();
  }
  EXPECT_EQ(*parse_walltime("36500-00:00:00"), 36500LL * 86400);
}

TEST(Walltime, FormatsLikeSlurm) {
  EXPECT_EQ(format_walltime(3723), "01:02:03");
  EXPECT_EQ(format_walltime(86400 + 7), "1-00:00:07");
}

}  // namespace yard
