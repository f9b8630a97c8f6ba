#include "cli/job_refs.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

JobRecord element(std::int64_t id, std::int64_t array, std::int64_t index) {
  JobRecord j;
  j.id = id;
  j.array_job_id = array;
  j.array_index = index;
  return j;
}

TEST(JobRefs, IdAndIdIndexAsStatusPrintsThem) {
  auto r = parse_job_ref("100061_1");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->id, 100061);
  EXPECT_EQ(r->index, 1);
  EXPECT_EQ(parse_job_ref("12")->index, std::nullopt);
  for (const char* bad : {"", "x", "12_", "_3", "12_x", "-4", "0", "1_2_3", "99999999999999999999"}) {
    auto b = parse_job_ref(bad);
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_NE(b.error().find("ID_INDEX"), std::string::npos) << b.error();
  }
}

TEST(JobRefs, AnIndexNamesOneElementAndAnIdTheWholeArray) {
  const std::vector<JobRecord> jobs = {element(10, 10, 0), element(11, 10, 1), element(12, 10, 2)};
  auto one = resolve_job_refs({*parse_job_ref("10_1")}, jobs);
  ASSERT_EQ(one.jobs.size(), 1u);
  EXPECT_EQ(one.jobs[0].id, 11);
  EXPECT_EQ(resolve_job_refs({*parse_job_ref("10")}, jobs).jobs.size(), 3u);
  EXPECT_EQ(resolve_job_refs({*parse_job_ref("12")}, jobs).jobs.size(), 1u);  // an element by its own id
  auto missing = resolve_job_refs({*parse_job_ref("10_7"), *parse_job_ref("11_1"), *parse_job_ref("10_2")}, jobs);
  ASSERT_EQ(missing.unknown.size(), 2u);
  EXPECT_EQ(missing.unknown[0].text, "10_7");
  EXPECT_EQ(missing.unknown[1].text, "11_1");  // 11 is an element, not an array
  EXPECT_EQ(store_ids({*parse_job_ref("10_7"), *parse_job_ref("10"), *parse_job_ref("3")}),
            (std::vector<std::int64_t>{3, 10}));
}

}  // namespace
}  // namespace yard
