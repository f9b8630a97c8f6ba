#include "sim/swf_reader.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/workload.h"

namespace yard::sim {
namespace {

constexpr const char* kTrace =
    "; Version: 2.2\n"
    "; MaxProcs: 128\n"
    ";\n"
    "    1   0  5  100   4  1.5 -1   4  200 -1 1 1 1 1 1 -1 -1 -1\n"
    "    2  10  5   -1  -1   -1 -1   8  300 -1 1 1 1 1 1 -1 -1 -1\n"
    "\n"
    "    3  20  5  500  -1   -1 -1 256   -1 -1 1 1 1 1 1 -1 -1 -1\r\n"
    "    4  30  5  400   2   -1 -1   2  300 -1 1 1 1 1 1 -1 -1 -1\n";

TEST(SwfReader, ReadsJobsAndTheMachineSize) {
  auto trace = parse_swf(kTrace);
  ASSERT_TRUE(trace.ok()) << trace.error();
  ASSERT_EQ(trace->records.size(), 4u);
  EXPECT_EQ(trace->max_procs, 128);
  EXPECT_EQ(trace->records[0].run, 100);
  EXPECT_EQ(trace->records[2].requested, 256);
  EXPECT_EQ(trace->records[3].requested_time, 300);
}

TEST(SwfReader, HeaderWithARemark) {
  auto trace = parse_swf("; MaxProcs: 338 (batch partition; 512 total)\n");
  ASSERT_TRUE(trace.ok());
  EXPECT_EQ(trace->max_procs, 338);
}

TEST(SwfReader, MalformedLineNamesItsNumber) {
  const std::string text = std::string(kTrace) + "5 40 5 x 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n";
  auto trace = parse_swf(text);
  ASSERT_FALSE(trace.ok());
  EXPECT_NE(trace.error().find("line 9"), std::string::npos) << trace.error();
  EXPECT_NE(trace.error().find("field 4"), std::string::npos) << trace.error();

  auto short_line = parse_swf("1 2 3\n");
  ASSERT_FALSE(short_line.ok());
  EXPECT_NE(short_line.error().find("line 1: expected 18 fields, found 3"), std::string::npos);

  auto long_line = parse_swf(std::string(kTrace).substr(0, 120) + "\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n");
  EXPECT_FALSE(long_line.ok());
}

TEST(SwfReader, LenientSkipsMalformedLines) {
  const std::string text = std::string(kTrace) + "garbage\n";
  auto trace = parse_swf(text, {.lenient = true});
  ASSERT_TRUE(trace.ok());
  EXPECT_EQ(trace->records.size(), 4u);
  EXPECT_EQ(trace->skipped_lines, 1u);
  EXPECT_NE(trace->first_skipped.find("line 9"), std::string::npos);
}

TEST(SwfReader, NumberForms) {
  auto trace = parse_swf("1 2 3 142.00 5 6 7 8 1e3 10 11 12 13 14 15 16 17 18\n"
                         "2 2 3 -1 5. 6 7 8 1234567890123456 10 11 12 13 14 15 16 17 18\n");
  ASSERT_TRUE(trace.ok()) << trace.error();
  EXPECT_EQ(trace->records[0].run, 142);
  EXPECT_EQ(trace->records[0].requested_time, 1000);
  EXPECT_EQ(trace->records[1].run, -1);
  EXPECT_EQ(trace->records[1].allocated, 5);
  EXPECT_EQ(trace->records[1].requested_time, 1234567890123456);
  EXPECT_FALSE(parse_swf("1 2 3 - 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n").ok());
  EXPECT_FALSE(parse_swf("1 2 3 4x 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n").ok());
}

TEST(SwfReader, RejectsHugeAndNonFiniteNumbers) {
  EXPECT_FALSE(parse_swf("1 2 3 1e300 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n").ok());
  EXPECT_FALSE(parse_swf("1 2 3 nan 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n").ok());
  EXPECT_FALSE(parse_swf("1 2 3 inf 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n").ok());
}

TEST(SwfReader, ReadsPlainAndGzipFiles) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string plain = (dir / "yard_swf_reader_test.swf").string();
  const std::string packed = (dir / "yard_swf_reader_test.swf.gz").string();
  { std::ofstream(plain) << kTrace; }
  gzFile gz = gzopen(packed.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  gzputs(gz, kTrace);
  gzclose(gz);
  for (const std::string& path : {plain, packed}) {
    auto trace = read_swf(path);
    ASSERT_TRUE(trace.ok()) << trace.error();
    EXPECT_EQ(trace->records.size(), 4u) << path;
  }
  std::remove(plain.c_str());
  std::remove(packed.c_str());
  EXPECT_FALSE(read_swf((dir / "yard_no_such_trace.swf").string()).ok());
}

TEST(SwfReader, LargeFilesAcrossReadBuffers) {
  std::string text = "; MaxProcs: 64\n";
  for (int i = 1; i <= 30000; ++i) {
    text += std::to_string(i) + " " + std::to_string(10 * i) +
            " 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n";
  }
  text += "30001 1 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1";  // no final newline
  const auto dir = std::filesystem::temp_directory_path();
  const std::string plain = (dir / "yard_swf_reader_large.swf").string();
  const std::string packed = (dir / "yard_swf_reader_large.swf.gz").string();
  { std::ofstream(plain) << text; }
  gzFile gz = gzopen(packed.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
  for (const std::string& path : {plain, packed}) {
    auto trace = read_swf(path);
    ASSERT_TRUE(trace.ok()) << trace.error();
    ASSERT_EQ(trace->records.size(), 30001u) << path;
    for (std::size_t i = 0; i < 30000; ++i) {
      ASSERT_EQ(trace->records[i].id, static_cast<std::int64_t>(i + 1));
      ASSERT_EQ(trace->records[i].submit, static_cast<std::int64_t>(10 * (i + 1)));
    }
  }
  // A line longer than the read buffer.
  { std::ofstream(plain) << std::string(600000, ' ') << "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n2 0 0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n"; }
  auto wide = read_swf(plain);
  ASSERT_TRUE(wide.ok()) << wide.error();
  EXPECT_EQ(wide->records.size(), 2u);
  // A malformed line deep in the file is reported with its own number.
  { std::ofstream(plain) << text << "\nbroken\n"; }
  auto broken = read_swf(plain);
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().find("line 30003"), std::string::npos) << broken.error();
  std::remove(plain.c_str());
  std::remove(packed.c_str());
}

TEST(Workload, AppliesThePyssInputRules) {
  auto trace = parse_swf(kTrace);
  ASSERT_TRUE(trace.ok());
  const auto jobs = jobs_from_swf(*trace, 128);
  ASSERT_EQ(jobs.size(), 3u);  // job 2 has no run time
  EXPECT_EQ(jobs[0].procs, 4);
  EXPECT_EQ(jobs[0].estimate, 200);
  EXPECT_EQ(jobs[1].id, 3);
  EXPECT_EQ(jobs[1].procs, 128);     // requested 256, capped at the machine
  EXPECT_EQ(jobs[1].estimate, 500);  // no request: the run time
  EXPECT_EQ(jobs[2].run, 300);       // ran past its request: cut at the estimate
  EXPECT_EQ(jobs_from_swf(*trace, 128, 2).size(), 2u);
}

}  // namespace
}  // namespace yard::sim
