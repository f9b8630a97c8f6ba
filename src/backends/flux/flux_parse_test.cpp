// Flux's readers and state map, on the published samples (tests/fixtures/flux:
// flux-core's guide and the test vectors of flux jobs' returncode) and on `flux jobs
// --json` as flux-jobs(1) describes it.
#include "backends/flux/flux_parse.h"

#include <gtest/gtest.h>

#include <sstream>

#include "backends/flux/flux_errors.h"
#include "backends/flux/flux_ids.h"
#include "backends/flux/flux_states.h"
#include "core/file_text.h"

namespace yard {
namespace {

std::string fixture(const std::string& name) {
  auto text = read_file(std::string(YARD_FLUX_FIXTURES) + "/" + name);
  EXPECT_TRUE(text) << text.error();
  return text ? *text : std::string();
}

TEST(FluxIds, F58BothWaysInEitherPrefix) {
  EXPECT_EQ(flux_f58(0), "f1");
  EXPECT_EQ(flux_f58(57), "fz");
  EXPECT_EQ(flux_f58(58), "f21");
  for (std::uint64_t id : {1ull, 106958577205248ull, 18446744073709551615ull}) EXPECT_EQ(flux_fluid(flux_f58(id)), id);
  EXPECT_EQ(flux_ascii_id("\xC6\x92" "3croSDd"), "f3croSDd");
  EXPECT_EQ(flux_ascii_id("f3croSDd"), "f3croSDd");
  EXPECT_EQ(flux_ascii_id("58"), "f21");  // decimal, as every flux command takes it
  EXPECT_FALSE(flux_fluid("f0OIl"));       // not in base58's alphabet
  EXPECT_FALSE(flux_fluid("fzzzzzzzzzzzzzz"));  // more than 64 bits
  EXPECT_FALSE(flux_fluid("x12"));
}

TEST(FluxParse, SubmitAnswersOfTheGuideOneIdACopy) {
  const std::string guide = fixture("flux_submit_and_jobs_default_interact_guide.txt");
  // The five ids flux submit --cc 1-5 printed, as the guide shows them.
  const auto from = guide.find("--cc 1-5");
  std::istringstream in(guide.substr(guide.find('\n', from) + 1));
  std::string answer, line;
  for (int i = 0; i < 5 && std::getline(in, line); ++i) answer += line + "\n";
  auto ids = parse_flux_submit(answer);
  ASSERT_TRUE(ids) << ids.error();
  EXPECT_EQ(*ids, (std::vector<std::string>{"f3croSDd", "f3ctHRVy", "f3ctHRVz", "f3cumQnK", "f3cwFQ4f"}));
  EXPECT_FALSE(parse_flux_submit(""));
  auto error = parse_flux_submit("flux-submit: ERROR: unsatisfiable request\n");
  ASSERT_FALSE(error);
  EXPECT_NE(error.error().find("not a Flux job id"), std::string::npos);
}

// job-list's records (numeric states and results) and the returncode flux jobs gives each.
TEST(FluxParse, ReturncodeVectorsOfFluxCore) {
  auto statuses = parse_flux_jobs(fixture("t_flux-jobs_returncode_input.txt"));
  ASSERT_TRUE(statuses) << statuses.error();
  std::istringstream expected(fixture("t_flux-jobs_returncode_output.txt"));
  std::vector<std::string> want;
  for (std::string line; std::getline(expected, line);) want.push_back(line);
  ASSERT_EQ(statuses->size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& s = (*statuses)[i];
    const std::string got = s.signal ? "-" + std::to_string(*s.signal)
                            : s.exit_code ? std::to_string(*s.exit_code)
                                          : (map_flux_state(s).state == JobState::Cancelled ? "-128" : "-");
    EXPECT_EQ(got, want[i]) << i << " " << s.raw_state;
  }
  EXPECT_EQ((*statuses)[0].raw_state, "RUN");
  EXPECT_EQ(map_flux_state((*statuses)[0]).state, JobState::Running);
  EXPECT_EQ((*statuses)[0].native_id, flux_f58(106958577205248ull));
  EXPECT_EQ(map_flux_state((*statuses)[2]).state, JobState::Cancelled);
  EXPECT_EQ((*statuses)[2].reason, "interrupted by ctrl-C");
  EXPECT_EQ(map_flux_state((*statuses)[3]).state, JobState::Failed);
  EXPECT_EQ((*statuses)[3].exit_code, 42);
  EXPECT_EQ(map_flux_state((*statuses)[5]).state, JobState::Completed);
}

TEST(FluxParse, OneIdsObjectSeveralIdsListAndTheStateMap) {
  auto one = parse_flux_jobs(R"({"id": 58, "jobid": "ƒ21", "state": "SCHED", "name": "yard-x"})");
  ASSERT_TRUE(one) << one.error();
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].native_id, "f21");
  EXPECT_EQ(map_flux_state((*one)[0]).state, JobState::Pending);
  auto many = parse_flux_jobs(R"json({"jobs": [
 {"id": 1, "state": "INACTIVE", "result": "FAILED", "returncode": 1, "exception": {"occurred": true, "severity": 0, "type": "dependency", "note": "dependency afterok:f2 can never be satisfied"}},
 {"id": 2, "state": "INACTIVE", "result": "TIMEOUT", "returncode": -14, "exception": {"occurred": true, "severity": 0, "type": "timeout", "note": "resource allocation expired"}},
 {"id": 3, "state": "INACTIVE", "result": "FAILED", "returncode": 143, "exception": {"occurred": false}},
 {"id": 4, "state": "INACTIVE", "result": "FAILED", "returncode": 1, "exception": {"occurred": true, "severity": 0, "type": "node-failure", "note": "lost node0"}},
 {"id": 5, "state": "CLEANUP", "t_run": 1700000000.5},
 {"id": 6, "state": "INACTIVE", "result": "FAILED", "returncode": 3, "t_inactive": 1700000010.25},
 {"id": 7, "state": "INACTIVE"},
 {"id": 8, "state": "WEIRD"}
]})json");
  ASSERT_TRUE(many) << many.error();
  ASSERT_EQ(many->size(), 8u);
  const auto& m = *many;
  EXPECT_EQ(map_flux_state(m[0]).state, JobState::Cancelled);
  EXPECT_EQ(map_flux_state(m[0]).detail, "DependencyNeverSatisfied");
  EXPECT_EQ(map_flux_state(m[1]).state, JobState::Timeout);
  EXPECT_EQ(m[2].signal, 15);  // a task killed by SIGTERM: the shell's 128+15
  EXPECT_EQ(map_flux_state(m[2]).state, JobState::Failed);
  EXPECT_EQ(map_flux_state(m[3]).state, JobState::NodeFail);
  EXPECT_EQ(map_flux_state(m[4]).state, JobState::Running);  // CLEANUP is not the end
  EXPECT_EQ(m[4].start_time, 1700000000.5);
  EXPECT_EQ(m[5].exit_code, 3);
  EXPECT_EQ(m[5].end_time, 1700000010.25);
  EXPECT_EQ(map_flux_state(m[6]).state, JobState::Unknown);  // inactive without a result: never success
  EXPECT_EQ(map_flux_state(m[7]).state, JobState::Unknown);
  EXPECT_EQ(map_flux_state(m[7]).detail, "WEIRD");
}

TEST(FluxParse, NothingIsNoJobAndBrokenTextIsNamed) {
  auto none = parse_flux_jobs("");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  auto broken = parse_flux_jobs("{\"jobs\": [\n{\"id\": 1,\n");
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().find("line 1"), std::string::npos) << broken.error();
  auto no_id = parse_flux_jobs(R"({"state": "RUN"})");
  ASSERT_FALSE(no_id);
  EXPECT_NE(no_id.error().find("without an id"), std::string::npos);
}

TEST(FluxErrors, UnknownIdsAreAUsableListingAnUnreachableBrokerIsTransient) {
  EXPECT_TRUE(flux_usable_despite(1, "JobID f3croSDd unknown\nflux-jobs: ERROR: JobID f21 unknown\n"));
  EXPECT_FALSE(flux_usable_despite(1, "JobID f3croSDd unknown\nsomething else\n"));
  EXPECT_FALSE(flux_usable_despite(0, ""));
  EXPECT_TRUE(flux_transient_failure(
      1, "flux-jobs: ERROR: Unable to connect to Flux: broker socket /run/flux/local was not found\n"));
  EXPECT_FALSE(flux_transient_failure(1, "flux-submit: ERROR: unsatisfiable request\n"));
  EXPECT_TRUE(flux_refused_for_a_dependency("[Errno 22] dependency: afterok: job f3kTFArSj failed or was canceled\n"));
  EXPECT_TRUE(flux_refused_for_a_dependency("flux-batch: ERROR: dependency: afternotok: job f21 succeeded\n"));
  EXPECT_FALSE(flux_refused_for_a_dependency("[Errno 22] dependency: afterok: id f21: job not found\n"));
}

}  // namespace
}  // namespace yard
