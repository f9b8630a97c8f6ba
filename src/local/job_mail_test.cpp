// The local backend's mail: subjects in Slurm's words for each moment the request asks
// for, and a real sendmail (a stand-in script) given the message and the recipient.
#include "local/job_mail.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/mail_request.h"

namespace yard {
namespace {

TEST(JobMail, SubjectsSayWhatHappenedInSlurmsWords) {
  const MailedJob j{12, std::nullopt, std::nullopt, "sim", false};
  EXPECT_EQ(*mail_subject(kMailBegin, j, {JobState::Running, 61, 0}), "Yard Job_id=12 Name=sim Began, Queued time 00:01:01");
  EXPECT_FALSE(mail_subject(kMailEnd, j, {JobState::Running, 61, 0}));
  EXPECT_EQ(*mail_subject(kMailEnd, j, {JobState::Completed, 3, 0}),
            "Yard Job_id=12 Name=sim Ended, Run time 00:00:03, COMPLETED, ExitCode 0");
  EXPECT_FALSE(mail_subject(kMailFail, j, {JobState::Completed, 3, 0}));  // FAIL: failures only
  EXPECT_EQ(*mail_subject(kMailFail, j, {JobState::Failed, 3, 2}),
            "Yard Job_id=12 Name=sim Failed, Run time 00:00:03, FAILED, ExitCode 2");
  EXPECT_FALSE(mail_subject(kMailFail, j, {JobState::Cancelled, 3, 0}));  // a cancel is no failure
  EXPECT_EQ(*mail_subject(kMailTimeLimit, j, {JobState::Timeout, 60, 0}),
            "Yard Job_id=12 Name=sim Reached time limit, Run time 00:01:00, TIMEOUT, ExitCode 0");
  EXPECT_EQ(*mail_subject(kMailRequeue, j, {JobState::Pending, 5, 0}), "Yard Job_id=12 Name=sim Requeued, Run time 00:00:05");
  const MailedJob task{14, 12, 2, "a\nSubject: forged", false};
  EXPECT_EQ(*mail_subject(kMailBegin, task, {JobState::Running, 0, 0}),
            "Yard Array Task Job_id=12_2 (14) Name=a Subject: forged Began, Queued time 00:00:00");  // one line
  const MailedJob whole{14, 12, 2, "a", true};
  EXPECT_EQ(*mail_subject(kMailEnd, whole, {JobState::Completed, 1, 0}),
            "Yard Array Summary Job_id=12_* (12) Name=a Ended, Run time 00:00:01, COMPLETED, ExitCode 0");
}

TEST(JobMail, SendmailGetsTheRecipientAndTheMessage) {
  const auto dir = std::filesystem::temp_directory_path() / ("yard-mail-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto script = dir / "sendmail", out = dir / "mail.txt";
  {
    std::ofstream f(script);
    f << "#!/bin/sh\n{ echo \"args: $*\"; cat; } > " << out.string() << ".tmp && mv " << out.string() << ".tmp "
      << out.string() << "\n";
  }
  ::chmod(script.c_str(), 0755);
  Mailer mailer(script.string());
  ASSERT_TRUE(mailer.available());
  ASSERT_TRUE(mailer.send("someone@example.org", "Yard Job_id=1 Name=x Began, Queued time 00:00:00"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!std::filesystem::exists(out) && std::chrono::steady_clock::now() < deadline) {
    mailer.reap();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "args: -oi -- someone@example.org\nTo: someone@example.org\n"
            "Subject: Yard Job_id=1 Name=x Began, Queued time 00:00:00\n\n");
  EXPECT_FALSE(mailer.send("-bogus", "x"));  // never an option to sendmail
  EXPECT_FALSE(Mailer((dir / "absent").string()).available());
  EXPECT_FALSE(Mailer("").send("a", "b"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace yard
