// PBS Pro's readers on the published samples (tests/fixtures/pbs: man page, OpenPBS and
// Parsl issues, a site's lesson) and on the layouts qstat.c prints.
#include "backends/pbs/pbs_parse.h"

#include <gtest/gtest.h>

#include "backends/pbs/pbs_errors.h"
#include "backends/pbs/pbs_states.h"
#include "core/file_text.h"

namespace yard {
namespace {

std::string fixture(const std::string& name) {
  auto text = read_file(std::string(YARD_PBS_FIXTURES) + "/" + name);
  EXPECT_TRUE(text) << text.error();
  return text ? *text : std::string();
}

// Section `n` ("### n. ...") of the file of verbatim JSON samples, without its title line.
std::string json_sample(int n) {
  const std::string all = fixture("qstat_json_samples_verbatim.txt");
  const std::string title = "### " + std::to_string(n) + ".";
  auto at = all.find(title);
  EXPECT_NE(at, std::string::npos) << title;
  at = all.find('\n', at) + 1;
  const auto end = all.find("\n### ", at);
  return all.substr(at, end == std::string::npos ? std::string::npos : end + 1 - at);
}

TEST(PbsParse, QsubGivesTheSequenceNumberOfAJobAndOfAnArray) {
  EXPECT_EQ(*parse_pbs_qsub("49230.gc-prd-hpcadm\n"), "49230");
  EXPECT_EQ(*parse_pbs_qsub("123[].server.example.org\n"), "123");
  EXPECT_EQ(*parse_pbs_qsub("Welcome to the cluster\n77.pbs\n"), "77");  // a banner first
  EXPECT_EQ(*parse_pbs_qsub("5\n"), "5");
  for (const char* bad : {"", "\n", "qsub: Unknown queue\n", "12x.server\n", "-3.s\n", "12. s\n"}) {
    auto r = parse_pbs_qsub(bad);
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_NE(r.error().find("qsub printed"), std::string::npos);
    }
  }
}

TEST(PbsParse, TheManPagesAndTheIssuesSamplesWithLiteralEllipsesAreRefusedNamingTheLine) {
  for (int n : {1, 2}) {
    auto r = parse_pbs_qstat_json(json_sample(n));
    ASSERT_FALSE(r) << n;
    EXPECT_NE(r.error().find("invalid JSON at line "), std::string::npos) << r.error();
    EXPECT_NE(r.error().find("..."), std::string::npos) << r.error();  // the offending line
  }
}

TEST(PbsParse, NoJobsKeyIsNoJobAndItsStderrSaysTheListingIsStillUsable) {
  // Parsl #3906: what qstat printed, on stdout and stderr, in a log line.
  const std::string log = json_sample(3);
  const auto out_at = log.find("STDOUT:") + 7, err_at = log.find(" STDERR:");
  const std::string out = log.substr(out_at, err_at - out_at), err = log.substr(err_at + 8);
  auto r = parse_pbs_qstat_json(out);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->empty());
  EXPECT_TRUE(pbs_usable_despite(35, err)) << err;
  EXPECT_TRUE(pbs_usable_despite(153, "qstat: Unknown Job Id 12.srv\nqstat: Unknown Job Id 13.srv\n"));
  EXPECT_FALSE(pbs_usable_despite(153, "qstat: Unknown Job Id 12.srv\nqstat: cannot connect to server srv\n"));
  EXPECT_FALSE(pbs_usable_despite(162, "qstat: Unknown Job Id 12.srv\n"));
  EXPECT_FALSE(pbs_usable_despite(153, ""));
}

TEST(PbsParse, ATableBeforeTheJsonIsSkipped) {
  auto r = parse_pbs_qstat_json(json_sample(4));  // OpenPBS PR #2675: -F json with -u
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->empty());
}

// Both printers: "key":value (PBS 14 to 2024) and cJSON's "key":<TAB>value (OpenPBS
// main); numbers sniffed, nested objects, an array with its subjobs.
TEST(PbsParse, QstatJsonOfJobsSubjobsAndArraysInBothPrinters) {
  const std::string old_printer = R"({
    "timestamp":1592976900,
    "pbs_version":"2020.1.0",
    "pbs_server":"gc-prd-hpcadm",
    "Jobs":{
        "49223.gc-prd-hpcadm":{
            "Job_Name":"yard-yd0000000000000001-sim",
            "job_state":"F",
            "exec_host":"n001/3+n002/0*2",
            "Resource_List":{"ncpus":1,"walltime":"00:00:30","select":1},
            "resources_used":{"walltime":"00:00:49"},
            "stime":"Wed Jun 24 15:33:18 2020",
            "obittime":"Wed Jun 24 15:34:09 2020",
            "substate":93,
            "comment":"Job run at Wed Jun 24 at 15:33 on (n001:ncpus=1) and failed",
            "Exit_status":271,
            "Rerunable":true
        },
        "50[].gc-prd-hpcadm":{"Job_Name":"arr","job_state":"B","array":true},
        "50[2].gc-prd-hpcadm":{"Job_Name":"arr","job_state":"X","Exit_status":3,"substate":93}
    }
})";
  auto r = parse_pbs_qstat_json(old_printer);
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->size(), 3u);
  const NativeStatus& j = (*r)[0];
  EXPECT_EQ(j.native_id, "49223");
  EXPECT_EQ(j.name, "yard-yd0000000000000001-sim");
  EXPECT_EQ(j.raw_state, "F");
  EXPECT_EQ(j.node_list, "n001,n002");
  EXPECT_EQ(j.signal, 15);
  EXPECT_FALSE(j.exit_code);
  ASSERT_TRUE(j.start_time && j.end_time);
  EXPECT_EQ(*j.end_time - *j.start_time, 51);
  EXPECT_EQ(map_pbs_state(j).state, JobState::Timeout);  // SIGTERM after using its walltime
  // The array and its subjob, in either order.
  const NativeStatus& sub = (*r)[1].native_id == "50[2]" ? (*r)[1] : (*r)[2];
  const NativeStatus& array = (*r)[1].native_id == "50[2]" ? (*r)[2] : (*r)[1];
  EXPECT_EQ(array.native_id, "50[]");
  EXPECT_EQ(sub.native_id, "50[2]");
  EXPECT_EQ(sub.submission_id, "50");
  EXPECT_EQ(sub.exit_code, 3);
  EXPECT_EQ(map_pbs_state(sub).state, JobState::Failed);

  const std::string cjson = "{\n\t\"timestamp\":\t1745411711,\n\t\"pbs_version\":\t\"latest\",\n\t\"pbs_server\":\t\"ip-10\",\n"
                            "\t\"Jobs\":\t{\n\t\t\"10.ip-10\":\t{\n\t\t\t\"Job_Name\":\t\"STDIN\",\n\t\t\t\"job_state\":\t\"R\",\n"
                            "\t\t\t\"Exit_status\":\t\"0\"\n\t\t}\n\t}\n}\n";
  auto c = parse_pbs_qstat_json(cjson);
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].native_id, "10");
  EXPECT_EQ(map_pbs_state((*c)[0]).state, JobState::Running);  // an Exit_status of an earlier run is not its end
}

// The printers' known bugs are all in Variable_List (openpbs #1255, #2541, PR #2049).
TEST(PbsParse, AnInvalidVariableListIsCutAndTheRestRead) {
  const std::string broken = R"J({
    "timestamp":1,
    "pbs_version":"19.1.1",
    "pbs_server":"s",
    "Jobs":{
        "7.s":{
            "Job_Name":"a",
            "job_state":"R",
            "Variable_List":{
                "foo":005,
                "BASH_FUNC_x()":"() {  echo "hi"
}"
            },
            "comment":"ok"
        }
    }
})J";
  auto r = parse_pbs_qstat_json(broken);
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].native_id, "7");
  EXPECT_EQ((*r)[0].reason, "ok");
  auto one_line = parse_pbs_qstat_json("{\"Jobs\":{\"8.s\":{\"job_state\":\"Q\",\"Variable_List\":{\"a\":007},\"Job_Name\":\"n\"}}}");
  ASSERT_TRUE(one_line) << one_line.error();
  EXPECT_EQ((*one_line)[0].name, "n");
  // Elsewhere, a precise error.
  auto bad = parse_pbs_qstat_json("{\n  \"Jobs\":{\n    \"9.s\":{\"job_state\":R}\n  }\n}\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("line 3"), std::string::npos) << bad.error();
  EXPECT_FALSE(parse_pbs_qstat_json("qstat: cannot connect to server s\n"));
  EXPECT_TRUE(parse_pbs_qstat_json(" \n")->empty());
  EXPECT_FALSE(parse_pbs_qstat_json("{\"Jobs\":[1]}"));
  EXPECT_FALSE(parse_pbs_qstat_json("{\"Jobs\":{\"1.s\":2}}"));
  EXPECT_FALSE(parse_pbs_qstat_json("[]"));
}

TEST(PbsParse, QstatFullTextOfAJobKilledAtItsWalltimeOnPbsPro2020) {
  auto r = parse_pbs_qstat_full(fixture("qstat_xf_failed_walltime_pbspro2020_griffith.txt"));
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->size(), 1u);
  const NativeStatus& s = (*r)[0];
  EXPECT_EQ(s.native_id, "49223");
  EXPECT_EQ(s.name, "simple_failing_test");
  EXPECT_EQ(s.raw_state, "F");
  EXPECT_EQ(s.node_list, "gc-prd-hpcn001");
  EXPECT_EQ(s.signal, 15);
  // A wrapped value is joined as it is: "fa" + "iled".
  EXPECT_EQ(s.reason, "Job run at Wed Jun 24 at 15:33 on (gc-prd-hpcn001:ncpus=1) and failed");
  EXPECT_NE(std::find(s.events.begin(), s.events.end(), "walltime_exceeded"), s.events.end());
  EXPECT_EQ(map_pbs_state(s).state, JobState::Timeout);
  EXPECT_FALSE(parse_pbs_qstat_full("Job Id: 1.s\nnonsense = 1\n"));  // no attribute to continue
  EXPECT_FALSE(parse_pbs_qstat_full("Job Id: x1.s\n"));
  EXPECT_FALSE(parse_pbs_qstat_full("Job Id: 1.s\n\tcontinued\n"));
}

TEST(PbsParse, TheDefaultTablesIdsCutToTheirColumn) {
  auto finished = parse_pbs_qstat_table(fixture("qstat_x_default_griffith.txt"));
  ASSERT_TRUE(finished) << finished.error();
  ASSERT_EQ(finished->size(), 1u);
  EXPECT_EQ((*finished)[0].native_id, "49230");  // from "49230.gc-prd-hpca"
  EXPECT_EQ((*finished)[0].name, "example-job");
  EXPECT_EQ((*finished)[0].raw_state, "F");
  auto running = parse_pbs_qstat_table(fixture("qstat_default_griffith.txt"));
  ASSERT_TRUE(running) << running.error();
  ASSERT_EQ(running->size(), 5u);
  for (auto& s : *running) EXPECT_EQ(s.raw_state, "R");
  EXPECT_EQ((*running)[4].native_id, "8524");
  EXPECT_FALSE(parse_pbs_qstat_table("Job id  Name\n------ ----\n1.s x\n"));
}

}  // namespace
}  // namespace yard
