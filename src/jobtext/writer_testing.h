// Jobs for the translators' tests: one with every field the round trips compare, built
// as read_job would resolve it.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "jobtext/script_job.h"
#include "jobtext/directive_writer.h"

namespace yard::jobtext::testing {

inline constexpr std::uint64_t kGiB = 1ULL << 30, kMiB = 1ULL << 20;

// name alpha, 2 nodes, 8 tasks of 2 CPUs, 1G a CPU, 1:30:00, out-%j.txt and err-%j.txt,
// queue short, account proj1, afterok:42 and afterany:43.
inline Job full_job() {
  Job j;
  JobSpec& s = j.spec;
  s.name = "alpha";
  j.name_given = true;
  s.res.nodes = 2, s.res.ntasks = 8, s.res.cpus_per_task = 2, s.res.mem_per_cpu_bytes = kGiB;
  s.res.walltime_s = 5400;
  s.stdout_path = "out-%j.txt", s.stderr_path = "err-%j.txt";
  s.partition = "short", s.account = "proj1";
  s.dependencies = {{DependencyKind::AfterOk, 42}, {DependencyKind::AfterAny, 43}};
  s.script = "#!/bin/sh\necho hi\n";
  j.script_path = "job.sh";
  return j;
}

// An array 1-10%3 of one task of 4 CPUs with 8G, out-%A_%a.out, stderr with it.
inline Job array_job() {
  Job j;
  JobSpec& s = j.spec;
  s.name = "job.sh";
  s.res.cpus_per_task = 4, s.res.mem_bytes = 8 * kGiB, s.res.walltime_s = 600;
  s.stdout_path = "out-%A_%a.out";
  s.array = ArraySpec{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 3};
  s.script = "#!/bin/sh\necho hi\n";
  j.script_path = "job.sh";
  return j;
}

// The losses as "what: why" lines.
inline std::vector<std::string> losses(const Directives& d) {
  std::vector<std::string> out;
  for (const auto& l : d.losses) out.push_back(std::to_string(l.line) + ": " + l.what + ": " + l.why);
  return out;
}

// `d` is `text`, and loses `lost` ("LINE: what: why").
inline void expect_directives(const Directives& d, const std::string& text, const std::vector<std::string>& lost) {
  EXPECT_EQ(d.text, text);
  EXPECT_EQ(losses(d), lost);
}

}  // namespace yard::jobtext::testing
