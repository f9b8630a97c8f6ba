// Tracking N queued jobs on an indirect scheduler: how many scheduler commands one status
// cycle takes, and how long parsing and applying the cycle's output takes, with the real
// dialect and the real engine over a real store. The commands' output is synthesized in
// the scheduler's exact format (tests/fixtures/*/README.md), so no cluster is needed.
//   poll_bench slurm|sge|oar|pbs|torque|lsf|htcondor|flux N   ->   "jobs commands_per_cycle parse_apply_ms commands_per_minute"
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <memory>
#include <string>

#include "backends/flux/flux_dialect.h"
#include "backends/flux/flux_ids.h"
#include "backends/htcondor/htcondor_dialect.h"
#include "backends/indirect_backend.h"
#include "backends/lsf/lsf_dialect.h"
#include "backends/oar/oar_dialect.h"
#include "backends/pbs/pbs_dialect.h"
#include "backends/sge/sge_dialect.h"
#include "backends/slurm/slurm_dialect.h"
#include "backends/torque/torque_dialect.h"

using namespace yard;

namespace {

class Answering : public CommandQueue {
 public:
  void post(Command c) override { posted.push_back(std::move(c)); }
  std::vector<CompletedCommand> take_completed() override { return std::exchange(done, {}); }
  std::deque<Command> posted;
  std::vector<CompletedCommand> done;
};

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Flux's ids are 64-bit FLUIDs: bench job N gets a large one.
std::uint64_t fluid(int native) { return 1'000'000'000'000ull + static_cast<std::uint64_t>(native); }

// One queued job in the scheduler's listing format.
std::string queued_entry(const std::string& scheduler, int native) {
  if (scheduler == "htcondor") {
    // condor_q -json's ad of an idle job, the attributes yard asks for (tests/fixtures/htcondor).
    return "{\n  \"ClusterId\": " + std::to_string(native) +
           ",\n  \"EnteredCurrentStatus\": 1700000000,\n  \"JobBatchName\": \"yard-x-bench\",\n"
           "  \"JobStatus\": 1,\n  \"NumJobStarts\": 0,\n  \"Owner\": \"bench\",\n  \"ProcId\": 0\n}\n,\n";
  }
  if (scheduler == "flux") {
    // flux jobs --json's record of a job waiting for resources (flux-jobs(1)).
    const std::uint64_t id = fluid(native);
    return "{\"id\": " + std::to_string(id) + ", \"userid\": 1000, \"urgency\": 16, \"priority\": 16, "
           "\"t_submit\": 1700000000.1, \"t_depend\": 1700000000.1, \"state\": \"SCHED\", \"name\": \"yard-x-bench\", "
           "\"cwd\": \"/home/bench\", \"ntasks\": 1, \"ncores\": 1, \"duration\": 0.0, \"nnodes\": 1, "
           "\"status\": \"SCHED\", \"jobid\": \"" + flux_f58(id) + "\", \"username\": \"bench\", "
           "\"dependencies\": [], \"exception\": {\"occurred\": false}}, ";
  }
  if (scheduler == "slurm") return std::to_string(native) + "|PENDING|Priority|yard-x-bench\n";
  if (scheduler == "pbs") {
    // qstat -x -f -F json's attributes of a queued job (PBS Pro 2020's, old printer).
    const std::string id = std::to_string(native);
    return "        \"" + id + ".pbs-server\":{\n            \"Job_Name\":\"yard-x-bench\",\n"
           "            \"Job_Owner\":\"bench@login1\",\n            \"job_state\":\"Q\",\n"
           "            \"queue\":\"workq\",\n            \"server\":\"pbs-server\",\n"
           "            \"ctime\":\"Wed Jun 24 15:33:18 2020\",\n            \"Priority\":0,\n"
           "            \"qtime\":\"Wed Jun 24 15:33:18 2020\",\n            \"Rerunable\":\"True\",\n"
           "            \"Resource_List\":{\n                \"ncpus\":1,\n                \"nodect\":1,\n"
           "                \"place\":\"pack\",\n                \"select\":\"1:ncpus=1\",\n"
           "                \"walltime\":\"01:00:00\"\n            },\n            \"substate\":10,\n"
           "            \"Variable_List\":{\n                \"PBS_O_HOME\":\"/home/bench\",\n"
           "                \"PBS_O_WORKDIR\":\"/home/bench\",\n                \"PBS_O_QUEUE\":\"workq\"\n"
           "            },\n            \"comment\":\"Not Running: Insufficient amount of resource: ncpus\",\n"
           "            \"etime\":\"Wed Jun 24 15:33:18 2020\",\n            \"Submit_arguments\":\"job.sh\",\n"
           "            \"project\":\"_pbs_project_default\"\n        },\n";
  }
  if (scheduler == "lsf") {
    // bjobs -a -json -o kBjobsFields of a pending job (tests/fixtures/lsf/batcheuphoria_*.json).
    return "    {\n      \"JOBID\":\"" + std::to_string(native) + "\",\n      \"STAT\":\"PEND\",\n"
           "      \"EXIT_CODE\":\"\",\n      \"EXIT_REASON\":\"\",\n      \"JOB_NAME\":\"yard-x-bench\",\n"
           "      \"PEND_REASON\":\"New job is waiting for scheduling;\",\n      \"EXEC_HOST\":\"\",\n"
           "      \"START_TIME\":\"\",\n      \"FINISH_TIME\":\"\"\n    },\n";
  }
  if (scheduler == "torque") {
    // qstat -x's attributes of a queued job (tests/fixtures/torque/qstat_x_fyrd_torque.xml).
    const std::string id = std::to_string(native);
    return "<Job><Job_Id>" + id + ".torque-server</Job_Id><Job_Name>yard-x-bench</Job_Name>"
           "<Job_Owner>bench@login1</Job_Owner><job_state>Q</job_state><queue>batch</queue>"
           "<server>torque-server</server><Checkpoint>u</Checkpoint><ctime>1479339279</ctime>"
           "<Error_Path>login1:/dev/null</Error_Path><Hold_Types>n</Hold_Types><Join_Path>oe</Join_Path>"
           "<Keep_Files>n</Keep_Files><Mail_Points>a</Mail_Points><mtime>1479339279</mtime>"
           "<Output_Path>login1:/dev/null</Output_Path><Priority>0</Priority><qtime>1479339279</qtime>"
           "<Rerunable>True</Rerunable><Resource_List><nodect>1</nodect><nodes>1:ppn=1</nodes>"
           "<walltime>01:00:00</walltime></Resource_List><Variable_List>PBS_O_QUEUE=batch,PBS_O_HOME=/home/bench,"
           "PBS_O_WORKDIR=/home/bench,PBS_O_HOST=login1</Variable_List><euser>bench</euser><egroup>bench</egroup>"
           "<queue_type>E</queue_type><etime>1479339279</etime><submit_args>job.sh</submit_args>"
           "<fault_tolerant>False</fault_tolerant><job_radix>0</job_radix></Job>";
  }
  if (scheduler == "oar") {
    // oarstat -J -u's fields for a waiting job (tests/fixtures/oar/oarstat_u_mixed.out).
    const std::string id = std::to_string(native);
    return "   \"" + id + "\" : {\n      \"Job_Id\" : " + id +
           ",\n      \"name\" : \"yard-x-bench\",\n      \"owner\" : \"bench\",\n      \"state\" : \"Waiting\",\n"
           "      \"queue\" : \"default\",\n      \"project\" : \"default\",\n      \"types\" : [],\n"
           "      \"message\" : \"R=1,W=0:5:0,J=B,N=yard-x-bench (Karma=0.000,quota_ok)\",\n"
           "      \"submissionTime\" : 1764062676,\n      \"startTime\" : 0,\n      \"array_id\" : " + id +
           ",\n      \"array_index\" : 1,\n      \"assigned_network_address\" : [],\n      \"dependencies\" : []\n   },\n";
  }
  return "    <job_list state=\"pending\">\n      <JB_job_number>" + std::to_string(native) +
         "</JB_job_number>\n      <JAT_prio>0.00000</JAT_prio>\n      <JB_name>yard-x-bench</JB_name>\n"
         "      <JB_owner>bench</JB_owner>\n      <state>qw</state>\n"
         "      <JB_submission_time>2026-11-25T09:24:36</JB_submission_time>\n"
         "      <queue_name></queue_name>\n      <slots>1</slots>\n    </job_list>\n";
}

std::string listing(const std::string& scheduler, const std::string& entries) {
  if (scheduler == "slurm") return entries;
  if (scheduler == "htcondor") return entries.empty() ? "" : "[\n" + entries.substr(0, entries.size() - 2) + "]\n";
  if (scheduler == "flux") return "{\"jobs\": [" + (entries.empty() ? "" : entries.substr(0, entries.size() - 2)) + "]}\n";
  if (scheduler == "lsf") {
    if (entries.empty()) return "No unfinished job found\n";
    return "{\n  \"COMMAND\":\"bjobs\",\n  \"JOBS\":1,\n  \"RECORDS\":[\n" + entries.substr(0, entries.size() - 2) +
           "\n  ]\n}\n";
  }
  if (scheduler == "torque") return "<?xml version=\"1.0\"?>\n<Data>" + entries + "</Data>\n";
  if (scheduler == "pbs") {
    const std::string head = "{\n    \"timestamp\":1592976900,\n    \"pbs_version\":\"2020.1.0\",\n    \"pbs_server\":\"pbs-server\"";
    if (entries.empty()) return head + "\n}\n";  // no "Jobs" key when nothing matched
    return head + ",\n    \"Jobs\":{\n" + entries.substr(0, entries.size() - 2) + "\n    }\n}\n";
  }
  if (scheduler == "oar") {
    if (entries.empty()) return "";  // oarstat prints nothing when nothing matches
    return "{\n" + entries.substr(0, entries.size() - 2) + "\n}\n";
  }
  return "<?xml version='1.0'?>\n<job_info  xmlns:xsd=\"http://arc.liv.ac.uk/repos/darcs/sge/source/dist/util/"
         "resources/schemas/qstat/qstat.xsd\">\n  <queue_info>\n  </queue_info>\n  <job_info>\n" +
         entries + "  </job_info>\n</job_info>\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string scheduler = argc > 1 ? argv[1] : "";
  const int n = argc > 2 ? std::atoi(argv[2]) : 1000;
  std::unique_ptr<Dialect> dialect;
  if (scheduler == "slurm") dialect = std::make_unique<SlurmDialect>();
  else if (scheduler == "sge") dialect = std::make_unique<SgeDialect>("bench", SgeSettings{});
  else if (scheduler == "oar") dialect = std::make_unique<OarDialect>("bench", OarSettings{});
  else if (scheduler == "pbs") dialect = std::make_unique<PbsDialect>(PbsSettings{});
  else if (scheduler == "torque") dialect = std::make_unique<TorqueDialect>(TorqueSettings{});
  else if (scheduler == "lsf") dialect = std::make_unique<LsfDialect>("bench", LsfSettings{});
  else if (scheduler == "htcondor") dialect = std::make_unique<HtcondorDialect>("bench");
  else if (scheduler == "flux") dialect = std::make_unique<FluxDialect>();
  if (!dialect || n <= 0) {
    std::fprintf(stderr, "usage: poll_bench slurm|sge|oar|pbs|torque|lsf|htcondor|flux N\n");
    return 2;
  }
  auto dir = std::filesystem::temp_directory_path() / ("yard-poll-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto store = Store::open((dir / "store.db").string());
  if (!store) return 1;
  Answering q;
  IndirectConfig cfg;  // defaults: what a user gets
  IndirectBackend b(*store, *dialect, q, cfg, dir.string(), "bench");
  double t = 1000;
  JobSpec s;
  s.name = "bench";
  s.argv = {"/bin/true"};
  s.workdir = dir.string();
  {
    auto tx = store->transaction();
    for (int i = 0; i < n; ++i) (void)b.submit(s, t);
    (void)tx.commit();
  }
  // Submit everything: answer each submission with a native id.
  // Told apart by their first words (Flux's commands are all `flux`).
  auto first_words = [](const std::vector<std::string>& words) { return words.at(0) + (words.at(0) == "flux" ? " " + words.at(1) : ""); };
  SubmitContext ctx{"yd0123456789abcdef", "", "", {}, {}};
  const auto submission = dialect->submission(s, ctx, (dir / "x.sh").string());
  if (!submission) return 1;
  const std::string submit = first_words(submission->argv), poll = first_words(dialect->poll_argv({"1"}));
  int next_native = 100000;
  std::string entries;
  for (;;) {
    b.step(t);
    b.dispatch();
    if (q.posted.empty()) break;
    bool any_submit = false;
    while (!q.posted.empty()) {
      Command c = q.posted.front();
      q.posted.pop_front();
      CommandResult r;
      r.exit_code = 0;
      if (first_words(c.argv) == submit) {
        any_submit = true;
        // What the submit command prints: the id, OAR's OAR_JOB_ID=N line, LSF's sentence.
        const std::string id = std::to_string(next_native);
        r.out = scheduler == "lsf"        ? "Job <" + id + "> is submitted to default queue <normal>.\n"
                : scheduler == "htcondor" ? id + ".0 - " + id + ".0\n"
                : scheduler == "flux"     ? flux_f58(fluid(next_native)) + "\n"
                                          : (scheduler == "oar" ? "OAR_JOB_ID=" : "") + id + "\n";
        entries += queued_entry(scheduler, next_native);
        ++next_native;
      } else if (first_words(c.argv) == poll) {
        r.out = listing(scheduler, "");  // a status call meanwhile: nothing listed yet
      }
      q.done.push_back({c, r});
    }
    if (!any_submit) break;
  }
  // Steady state: every cycle, one listing of all N jobs queued.
  const std::string out = listing(scheduler, entries);
  const int cycles = 20;
  int commands = 0;
  double apply_s = 0;
  for (int i = 0; i < cycles; ++i) {
    t += cfg.poll_interval_s;
    b.step(t);
    b.dispatch();
    while (!q.posted.empty()) {
      Command c = q.posted.front();
      q.posted.pop_front();
      ++commands;
      CommandResult r;
      r.exit_code = 0;
      if (first_words(c.argv) == poll) r.out = out;  // a history call gets an empty answer
      q.done.push_back({c, r});
    }
    const double t0 = now_s();
    b.step(t);  // parses and applies the cycle's output
    apply_s += now_s() - t0;
    b.dispatch();
    commands += static_cast<int>(q.posted.size());
    q.posted.clear();
  }
  const double per_cycle = static_cast<double>(commands) / cycles;
  std::printf("%d %.2f %.3f %.1f\n", n, per_cycle, 1000 * apply_s / cycles, per_cycle * 60 / cfg.poll_interval_s);
  std::filesystem::remove_all(dir);
  return 0;
}
