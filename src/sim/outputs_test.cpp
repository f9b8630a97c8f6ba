#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "sim/jobs_csv.h"
#include "sim/metrics.h"
#include "sim/svg_plot.h"

namespace yard::sim {
namespace {

// Two jobs on 4 processors: one waits 100 s behind the other.
const std::vector<SimJob> kJobs = {{7, 0, 100, 4, 200}, {8, 0, 5, 2, 10}};
const SimResult kResult{{0, 100}};

TEST(Metrics, WaitSlowdownUtilizationMakespan) {
  const Metrics m = compute_metrics(kJobs, kResult, 4);
  EXPECT_EQ(m.jobs, 2u);
  EXPECT_DOUBLE_EQ(m.avg_wait_s, 50.0);
  EXPECT_EQ(m.max_wait_s, 100);
  // Job 7: 1; job 8: (100 + 5) / max(5, 10) = 10.5.
  EXPECT_DOUBLE_EQ(m.avg_bounded_slowdown, (1.0 + 10.5) / 2);
  EXPECT_EQ(m.makespan_s, 105);
  EXPECT_DOUBLE_EQ(m.utilization, (400.0 + 10.0) / (4.0 * 105.0));
  EXPECT_EQ(compute_metrics({}, {}, 4).jobs, 0u);
}

TEST(JobsCsv, OneLinePerJob) {
  std::ostringstream out;
  write_jobs_csv(out, kJobs, kResult);
  EXPECT_EQ(out.str(), "job_id,submit,start,run,procs,est\n7,0,0,100,4,200\n8,0,100,5,2,10\n");
}

TEST(SvgPlot, DrawsBothSeriesAndEscapesTheTitle) {
  std::ostringstream out;
  PlotOptions options;
  options.title = "a<b & 'c'";
  options.buckets = 10;
  write_svg_plot(out, kJobs, kResult, 4, options);
  const std::string svg = out.str();
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("a&lt;b &amp; &apos;c&apos;"), std::string::npos);
  EXPECT_NE(svg.find("utilization"), std::string::npos);
  EXPECT_NE(svg.find("queued jobs"), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  std::ostringstream empty;
  write_svg_plot(empty, {}, {}, 4);
  EXPECT_NE(empty.str().find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace yard::sim
