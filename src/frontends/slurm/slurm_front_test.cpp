// The front ends' readers and writers of Slurm's own forms, on their own (and so under the
// sanitizers too): squeue's and sacct's column specs and how a value fits a column,
// Slurm's time forms, state lists and durations.
#include <gtest/gtest.h>

#include <ctime>

#include "frontends/slurm/field_format.h"
#include "frontends/slurm/sacct_times.h"
#include "frontends/slurm/slurm_fields.h"
#include "frontends/slurm/slurm_states.h"

namespace yard::slurm_front {
namespace {

TEST(SlurmFrontFormat, SqueuePercentSpecsKeepLettersWidthsJustificationAndTextBetween) {
  const auto items = parse_percent_format("%.18i %9P|%t%%");
  ASSERT_EQ(items.size(), 6u);
  EXPECT_EQ(items[0].field, "i");
  EXPECT_EQ(items[0].width, 18);
  EXPECT_TRUE(items[0].right);
  EXPECT_EQ(items[1].literal, " ");
  EXPECT_EQ(items[2].field, "P");
  EXPECT_FALSE(items[2].right);
  EXPECT_EQ(items[3].literal, "|");
  EXPECT_EQ(items[4].field, "t");
  EXPECT_FALSE(items[4].width.has_value());
  EXPECT_EQ(items[5].literal, "%");
  EXPECT_EQ(fit("12", items[0]), std::string(16, ' ') + "12");
  EXPECT_EQ(fit("a-very-long-partition", items[2]), "a-very-lo");  // left: cut to its width
}

TEST(SlurmFrontFormat, SqueueNamedSpecsAreTwentyWideUnlessGivenAWidthAndASuffix) {
  auto items = parse_named_format("JobID,Name:.5 ,State:", 20);
  ASSERT_TRUE(items.ok());
  ASSERT_EQ(items->size(), 3u);
  EXPECT_EQ((*items)[0].width, 20);
  EXPECT_EQ((*items)[1].width, 5);
  EXPECT_TRUE((*items)[1].right);
  EXPECT_EQ((*items)[1].suffix, " ");
  EXPECT_EQ(fit("RUNNING", (*items)[2]), "RUNNING");  // "name:" alone: as long as the value
  EXPECT_FALSE(parse_named_format(",,", 20).ok());
}

TEST(SlurmFrontFormat, SacctWidthsReplaceTheSignAndACutValueEndsInAPlus) {
  auto items = parse_sacct_format("jobid%-20,state%4,exit");
  ASSERT_TRUE(items.ok());
  EXPECT_FALSE((*items)[0].right);
  EXPECT_EQ((*items)[0].width, 20);
  EXPECT_TRUE((*items)[1].right);
  EXPECT_EQ(fit("COMPLETED", (*items)[1], true), "COM+");
  EXPECT_FALSE((*items)[2].width.has_value());  // the field's own default, chosen by sacct
  EXPECT_FALSE(parse_sacct_format("state%x").ok());
  // squeue lets a right-justified node list or time run over its width.
  FieldItem times{"", "M", 4, true, ""};
  EXPECT_EQ(fit("1-02:03:04", times, false, false), "1-02:03:04");
}

TEST(SlurmFrontTimes, SlurmsTimeFormsAndSacctsDefaultWindows) {
  const double now = 1700000000;  // 2023-11-14T22:13:20Z
  EXPECT_EQ(*slurm_time_of("now", now), now);
  EXPECT_EQ(*slurm_time_of("now-2days", now), now - 2 * 86400);
  EXPECT_EQ(*slurm_time_of("now+1hour", now), now + 3600);
  std::tm tm{};
  tm.tm_year = 124, tm.tm_mon = 0, tm.tm_mday = 31, tm.tm_hour = 12, tm.tm_min = 34, tm.tm_isdst = -1;
  EXPECT_EQ(*slurm_time_of("2024-01-31T12:34", now), static_cast<double>(std::mktime(&tm)));
  tm.tm_hour = tm.tm_min = 0;
  EXPECT_EQ(*slurm_time_of("013124", now), static_cast<double>(std::mktime(&tm)));
  EXPECT_EQ(*slurm_time_of("01/31/24", now), static_cast<double>(std::mktime(&tm)));
  auto bad = slurm_time_of("yesterdayish", now);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "Invalid time specification (pos=0): yesterdayish");
  EXPECT_FALSE(slurm_time_of("now-3fortnights", now).ok());
  auto today = sacct_window("", "", false, false, now);  // since today's midnight until now
  ASSERT_TRUE(today.ok());
  EXPECT_LE(now - today->start, 86400);
  EXPECT_EQ(today->end, now);
  auto named = sacct_window("", "", true, false, now);  // -j: any time
  EXPECT_EQ(named->start, 0);
  auto states_only = sacct_window("", "", false, true, now);  // -s alone: the jobs in them now
  EXPECT_EQ(states_only->start, now);
  EXPECT_EQ(states_only->end, now);
  EXPECT_FALSE(sacct_window("now", "now-1day", false, false, now).ok());
  JobRecord ended;
  ended.submit_time = now - 100;
  ended.end_time = now - 50;
  EXPECT_TRUE(in_window(ended, {now - 60, now}));
  EXPECT_FALSE(in_window(ended, {now - 40, now}));
}

TEST(SlurmFrontStates, ListsOfLongOrCompactNamesAndAllOnlyAlone) {
  auto all = yard_states_of("ALL");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 10u);
  auto some = yard_states_of("pd,R,out_of_memory");
  ASSERT_TRUE(some.ok());
  EXPECT_EQ(*some, (std::vector<JobState>{JobState::Pending, JobState::Unknown, JobState::Running,
                                          JobState::OutOfMemory}));
  auto bad = yard_states_of("PD,all");  // "all" only as the whole list, as Slurm reads it
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "Invalid job state specified: ALL");
  JobRecord lost;
  lost.state = JobState::Lost;
  EXPECT_EQ(slurm_state(lost), "NODE_FAIL");
  EXPECT_EQ(slurm_state_compact(lost), "NF");
  JobRecord unknown;
  unknown.state = JobState::Unknown;
  EXPECT_EQ(slurm_state(unknown), "PENDING");  // never shown as an end
  unknown.start_time = 1;
  EXPECT_EQ(slurm_state_compact(unknown), "R");
}

TEST(SlurmFrontFields, DurationsAsSqueueAndSacctWriteThem) {
  EXPECT_EQ(squeue_duration(5), "0:05");
  EXPECT_EQ(squeue_duration(3723), "1:02:03");
  EXPECT_EQ(squeue_duration(93784), "1-02:03:04");
  EXPECT_EQ(sacct_duration(5), "00:00:05");
  EXPECT_EQ(sacct_duration(93784), "1-02:03:04");
  JobRecord j;
  j.id = 15;
  j.array_job_id = 12;
  j.array_index = 3;
  j.state = JobState::Cancelled;
  j.reason = "cancelled";
  j.signal = 15;
  j.exit_code = 143;
  const FieldContext c{100, "me", "node1"};
  EXPECT_EQ(*field_value("array_id", j, c), "12_3");
  EXPECT_EQ(*field_value("raw_id", j, c), "15");
  EXPECT_EQ(*field_value("exit_code", j, c), "0:15");
  EXPECT_EQ(field_value("sacct_state", j, c)->rfind("CANCELLED by ", 0), 0u);
  EXPECT_EQ(*field_value("sacct_node_list", j, c), "None assigned");
  EXPECT_FALSE(field_value("no_such_field", j, c).has_value());
}

}  // namespace
}  // namespace yard::slurm_front
