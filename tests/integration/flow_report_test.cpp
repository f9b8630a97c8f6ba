// What a person reads after a flow: report.html (self-contained: a timeline, the steps, the
// failures with their cause and log) and trace.tsv (Nextflow's column names) in the run
// directory, written by yard run and again by yard flow report.
#include <filesystem>
#include <sstream>

#include "harness.h"

namespace yard::test {
namespace {

class FlowReport : public YardWorld {};

TEST_F(FlowReport, ARunWritesItsReportAndTraceWithFailuresAndTheirLogs) {
  write("f.yaml",
        "name: reported\n"
        "steps:\n"
        "  - name: fine\n"
        "    array: 1-2\n"
        "    command: echo fine\n"
        "  - name: broken\n"
        "    command: echo 'the reason it broke' >&2; exit 3\n");
  auto o = yard({"run", "--run-dir", "run", "f.yaml"});
  EXPECT_EQ(o.rc, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("report: " + dir_ + "/run/report.html"), std::string::npos) << o.out;
  const std::string html = read("run/report.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<h1>Flow 1: reported</h1>"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg")) << "the report reaches for the network";
  EXPECT_NE(html.find("<h3 class=\"bad\">broken: FAILED</h3>"), std::string::npos) << html;
  EXPECT_NE(html.find("the reason it broke"), std::string::npos) << "the failed step's log is not in the report";
  // The trace: a header of Nextflow's names, then a line per job (an array's elements apart).
  std::istringstream trace(read("run/trace.tsv"));
  std::string header, line;
  std::getline(trace, header);
  EXPECT_EQ(header.rfind("task_id\thash\tnative_id\tname\tstatus\texit\tsubmit\tstart\tcomplete\tduration\trealtime", 0), 0u)
      << header;
  std::vector<std::string> lines;
  while (std::getline(trace, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[2].find("\tbroken\tFAILED\t3\t"), std::string::npos) << lines[2];
  // Again, elsewhere, from the daemon's record.
  auto again = yard({"flow", "report", "1", "--dir", "elsewhere"});
  ASSERT_EQ(again.rc, 0) << again.err;
  EXPECT_EQ(read("elsewhere/trace.tsv").size(), read("run/trace.tsv").size());
}

}  // namespace
}  // namespace yard::test
