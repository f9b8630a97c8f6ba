#include "core/mail_request.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

TEST(MailRequest, TypesAreReadAsSbatchReadsThem) {
  auto end_fail = parse_mail_types("END,fail");  // case does not matter
  ASSERT_TRUE(end_fail) << end_fail.error();
  EXPECT_EQ(*end_fail, kMailEnd | kMailFail);
  auto all = parse_mail_types("ALL");
  ASSERT_TRUE(all);
  EXPECT_TRUE(*all & kMailBegin && *all & kMailEnd && *all & kMailFail && *all & kMailRequeue);
  EXPECT_FALSE(*all & kMailArrayTasks);  // not part of ALL
  EXPECT_FALSE(*all & kMailTimeLimit);
  EXPECT_EQ(*parse_mail_types("BEGIN,NONE"), 0u);  // NONE clears what came before
  EXPECT_EQ(*parse_mail_types("END,ARRAY_TASKS"), kMailEnd | kMailArrayTasks);
  auto bad = parse_mail_types("END,sometimes");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("--mail-type: invalid value 'sometimes'"), std::string::npos) << bad.error();
  EXPECT_FALSE(parse_mail_types(""));
}

TEST(MailRequest, TheLastOptionWins) {
  MailRequest r = mail_request({{"mail-type", "BEGIN"}, {"exclusive", ""}, {"mail-user", "a@x"}, {"mail-type", "END"}});
  EXPECT_EQ(r.events, kMailEnd);
  EXPECT_EQ(r.user, "a@x");
  EXPECT_EQ(mail_request({{"mail-user", "a@x"}}).events, 0u);  // a user and no type: no mail, as sbatch
}

}  // namespace
}  // namespace yard
