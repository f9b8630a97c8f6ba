// A Slurm user's scripts as they are: every sbatch option is read (abbreviated, with '='
// or a space, on #SBATCH lines or the command line); on the local backend what changes
// nothing in the result gets one warning line, what would is refused (exit 2, nothing
// stored), and --wrap, --wait, --nice, --ntasks-per-node, --signal, --exclusive and mail
// (through the machine's sendmail: here a stand-in that keeps each message) are honoured.
#include <filesystem>
#include <regex>
#include <set>
#include <sys/stat.h>

#include "harness.h"

namespace yard::test {
namespace {

class SbatchOptions : public YardWorld {};

TEST_F(SbatchOptions, AScriptFullOfSlurmOptionsRunsLocallyWithOneWarningEach) {
  configure("cpus: 4\nsendmail: \"\"\n");
  write("job.sh",
        "#!/bin/bash\n"
        "#SBATCH --mail-type=END,FAIL\n"
        "#SBATCH --mail-user someone@example.org\n"
        "#SBATCH -N 1 --ntasks-per-n=3   # an abbreviation, as sbatch takes it\n"
        "#SBATCH -C haswell --exclusive --requeue --gres=nvme:1\n"
        "#SBATCH --signal=B:USR1@60 -x node7 --parsable -v\n"
        "echo \"tasks=$YARD_NTASKS\"\n");
  Output o = yard({"submit", "--json", "job.sh"});
  ASSERT_EQ(o.rc, 0) << o.err;
  for (const char* w : {"--mail-type=END,FAIL: no sendmail on this machine (none configured); no mail will be sent",
                        "--constraint=haswell: backend local does not honour it", "--exclude=node7"})
    EXPECT_NE(o.err.find(std::string("warning: ") + w), std::string::npos) << w << "\n" << o.err;
  EXPECT_EQ(o.err.find("--exclusive"), std::string::npos) << o.err;  // honoured (below)
  EXPECT_EQ(o.err.find("--mail-user"), std::string::npos) << o.err;  // said with --mail-type
  EXPECT_EQ(o.err.find("--signal"), std::string::npos) << o.err;  // honoured (below)
  EXPECT_NE(o.err.find("warning: --gres=nvme:1: backend local has no generic resources but GPUs; ignored"),
            std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("parsable"), std::string::npos) << o.err;  // about sbatch's own output: nothing to say
  EXPECT_EQ(o.err.find("ntasks-per-node"), std::string::npos) << o.err;  // honoured
  const long id = nlohmann::json::parse(o.out)["id"].get<long>();
  ASSERT_EQ(wait({id}), 0) << job(id).dump();
  EXPECT_EQ(read("yard-" + std::to_string(id) + ".out"), "tasks=3\n");
}

TEST_F(SbatchOptions, WhatWouldChangeTheResultIsRefusedAndUnknownOptionsAreSbatchsErrors) {
  write("later.sh", "#!/bin/sh\n#SBATCH --begin=now+1hour\ntrue\n");
  Output later = yard({"submit", "later.sh"});
  EXPECT_EQ(later.rc, 2);
  EXPECT_NE(later.err.find("--begin=now+1hour: backend local cannot run this job as asked: it would start later than now"),
            std::string::npos)
      << later.err;
  Output held = yard({"submit", "-H", "--", "true"});
  EXPECT_EQ(held.rc, 2);
  EXPECT_NE(held.err.find("--hold: backend local"), std::string::npos) << held.err;
  Output unknown = yard({"submit", "--frobnicate", "--", "true"});
  EXPECT_EQ(unknown.rc, 2);
  EXPECT_NE(unknown.err.find("unrecognized option '--frobnicate'"), std::string::npos) << unknown.err;
  write("typo.sh", "#!/bin/sh\n#SBATCH --mem-per 1G\ntrue\n");
  Output typo = yard({"submit", "typo.sh"});
  EXPECT_EQ(typo.rc, 2);
  EXPECT_NE(typo.err.find("typo.sh:2: in #SBATCH directives: option '--mem-per' is ambiguous"), std::string::npos)
      << typo.err;
  EXPECT_EQ(status().size(), 0u);
}

TEST_F(SbatchOptions, WrapWaitAndNiceAreHonoured) {
  Output o = yard({"submit", "--wrap", "echo wrapped $((6 * 7))", "--wait", "--nice=5", "-J", "w"});
  EXPECT_EQ(o.rc, 0) << o.err;  // --wait: the job has ended, and its outcome is the exit status
  const long id = std::stol(o.out);
  auto j = job(id);
  EXPECT_EQ(j["state"], "COMPLETED") << j.dump();
  EXPECT_EQ(read("yard-" + std::to_string(id) + ".out"), "wrapped 42\n");
  Output failing = yard({"submit", "-W", "--wrap", "exit 3"});
  EXPECT_EQ(failing.rc, 1) << failing.err;
  Output both = yard({"submit", "--wrap", "true", "--", "true"});
  EXPECT_EQ(both.rc, 2);
  EXPECT_NE(both.err.find("--wrap"), std::string::npos) << both.err;
}

// --signal: the job is warned before its time limit and can end cleanly (COMPLETED, not
// TIMEOUT); B: warns the batch shell only, not the processes it started.
TEST_F(SbatchOptions, SignalWarnsTheJobBeforeItsTimeLimit) {
  configure("cpus: 2\n");
  write("warned.sh",
        "#!/bin/bash\n"
        "#SBATCH -t 0:30 --signal=USR1@25\n"
        "trap 'echo warned; exit 0' USR1\n"
        "sleep 60 & wait\n"
        "echo not-warned\n");
  write("batch.sh",
        "#!/bin/bash\n"
        "#SBATCH -t 0:30 --signal=B:SIGUSR2@25\n"
        "trap 'echo shell-warned; exit 0' USR2\n"
        "sh -c 'trap \"echo child-warned\" USR2; sleep 60 & wait' & wait\n");
  long warned = submit({"warned.sh"});
  long batch = submit({"batch.sh"});
  auto bad = yard({"submit", "--signal=USR1@soon", "--", "true"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--signal: invalid value 'USR1@soon'"), std::string::npos) << bad.err;
  EXPECT_EQ(wait({warned, batch}), 0) << job(warned).dump() << job(batch).dump();
  EXPECT_EQ(yard({"logs", std::to_string(warned)}).out, "warned\n");
  EXPECT_EQ(yard({"logs", std::to_string(batch)}).out, "shell-warned\n");
}

// --exclusive: the job has every CPU of the machine (and what it runs sees them), and
// nothing starts beside it, however few CPUs it asked for.
TEST_F(SbatchOptions, AnExclusiveJobHasTheWholeMachine) {
  configure("cpus: 4\n");
  const long alone = submit({"--exclusive", "-c", "1", "--", "sh", "-c",
                             "echo cpus=$YARD_CPUS; while [ ! -e go ]; do sleep 0.05; done"});
  ASSERT_TRUE(wait_until([&] { return job(alone)["state"] == "RUNNING"; }, 20));
  const long beside = submit({"-c", "1", "--", "true"});
  const long user_shared = submit({"--exclusive=user", "-c", "1", "--", "sh", "-c", "echo cpus=$YARD_CPUS"});
  EXPECT_EQ(job(beside)["state"], "PENDING");  // 3 CPUs are idle, and yet
  write("go", "");
  ASSERT_EQ(wait({alone, beside, user_shared}), 0);
  EXPECT_EQ(read("yard-" + std::to_string(alone) + ".out"), "cpus=4\n");
  EXPECT_EQ(read("yard-" + std::to_string(user_shared) + ".out"), "cpus=1\n");  // shares with the same user: all here
  EXPECT_GE(seconds(job(beside)["start_time"]) + 0.01, seconds(job(alone)["end_time"]));
}

// --mail-type/--mail-user: a message through sendmail at each moment asked for, in
// Slurm's words, to the user named (else the job's owner); none for what was not asked.
TEST_F(SbatchOptions, MailGoesThroughTheMachinesSendmail) {
  write("sendmail", "#!/bin/sh\nf=$(mktemp \"$(dirname \"$0\")/mail.XXXXXX.tmp\")\n"
                    "{ echo \"to: $3\"; cat; } > \"$f\" && mv \"$f\" \"${f%.tmp}\"\n");
  ::chmod((dir_ + "/sendmail").c_str(), 0755);
  configure("cpus: 2\nsendmail: " + dir_ + "/sendmail\n");
  auto mails = [&] {
    std::set<std::string> out;
    for (auto& e : std::filesystem::directory_iterator(dir_))
      if (e.path().filename().string().rfind("mail.", 0) == 0 && e.path().extension() != ".tmp")
        // How long a job waited or ran depends on the machine: its H:MM:SS is not compared.
        out.insert(std::regex_replace(read(e.path().filename().string()), std::regex("\\d\\d:\\d\\d:\\d\\d"),
                                      "HH:MM:SS"));
    return out;
  };
  Output quiet = yard({"submit", "--mail-type=FAIL", "-J", "fine", "--", "true"});  // no failure: no mail
  ASSERT_EQ(quiet.rc, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");  // sendmail is there: nothing to warn about
  ASSERT_EQ(wait({std::stol(quiet.out)}), 0);
  const long both = submit({"--mail-type=BEGIN,END", "--mail-user=someone@example.org", "-J", "both", "--", "true"});
  const long failing = submit({"--mail-type=FAIL", "-J", "broken", "--", "sh", "-c", "exit 3"});
  wait({both, failing});
  ASSERT_TRUE(wait_until([&] { return mails().size() >= 3; }, 20)) << mails().size();
  const std::string user = sh("id -un | tr -d '\\n'");
  const std::string b = std::to_string(both), f = std::to_string(failing);
  EXPECT_EQ(mails(), (std::set<std::string>{
                         "to: someone@example.org\nTo: someone@example.org\nSubject: Yard Job_id=" + b +
                             " Name=both Began, Queued time HH:MM:SS\n\n",
                         "to: someone@example.org\nTo: someone@example.org\nSubject: Yard Job_id=" + b +
                             " Name=both Ended, Run time HH:MM:SS, COMPLETED, ExitCode 0\n\n",
                         "to: " + user + "\nTo: " + user + "\nSubject: Yard Job_id=" + f +
                             " Name=broken Failed, Run time HH:MM:SS, FAILED, ExitCode 3\n\n"}));
  Output bad = yard({"submit", "--mail-type=END,SOMETIMES", "--", "true"});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--mail-type: invalid value 'SOMETIMES'"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace yard::test
