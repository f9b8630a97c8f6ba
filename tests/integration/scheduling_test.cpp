// The local backend through the real daemon and real processes: resources are never
// oversubscribed, arrays are throttled, GPUs are handed out exclusively, dependencies hold.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "harness.h"

namespace yard::test {
namespace {

struct Interval {
  double start, end;
  int cpus;
  long mem_mb;
  std::string gpus;
};

// Each job appends "start end cpus mem gpus" measured by itself around its work.
const char* kRecorder =
    "s=$(date +%s.%N); sleep 0.3; e=$(date +%s.%N); "
    "echo \"$s $e $YARD_CPUS $MEM_MB ${CUDA_VISIBLE_DEVICES:-none}\" >> intervals.log";

std::vector<Interval> read_intervals(const std::string& text) {
  std::vector<Interval> out;
  std::istringstream in(text);
  Interval i;
  while (in >> i.start >> i.end >> i.cpus >> i.mem_mb >> i.gpus) out.push_back(i);
  return out;
}

class Scheduling : public YardWorld {};

TEST_F(Scheduling, NeverMoreCpusMemoryOrGpusInUseThanConfigured) {
  configure("cpus: 4\nmemory: 1000M\ngpus: 2\nkill_grace: 1\n");
  std::vector<long> ids;
  // A mix that cannot all run at once: 1-3 CPUs, 100-600 MB, some with a GPU.
  for (int i = 0; i < 24; ++i) {
    const int cpus = 1 + i % 3;
    const int mem = 100 + (i % 4) * 170;
    const bool gpu = i % 5 == 0;
    std::vector<std::string> args{"-c", std::to_string(cpus), "--mem", std::to_string(mem) + "M",
                                  "--export", "ALL,MEM_MB=" + std::to_string(mem)};
    if (gpu) args.insert(args.end(), {"--gpus", "1"});
    args.insert(args.end(), {"--", "sh", "-c", kRecorder});
    ids.push_back(submit(args));
  }
  ASSERT_EQ(wait(ids), 0);
  ASSERT_TRUE(wait_until([&] { return read_intervals(read("intervals.log")).size() == ids.size(); }, 60));
  for (long id : ids) EXPECT_EQ(job(id)["state"], "COMPLETED") << id;

  auto iv = read_intervals(read("intervals.log"));
  ASSERT_EQ(iv.size(), ids.size());
  int max_cpus = 0;
  long max_mem = 0;
  // At each start, sum what overlaps it.
  for (auto& a : iv) {
    int cpus = 0;
    long mem = 0;
    std::map<std::string, int> gpu_users;
    for (auto& b : iv)
      if (b.start <= a.start && a.start < b.end) {
        cpus += b.cpus;
        mem += b.mem_mb;
        if (b.gpus != "none" && !b.gpus.empty()) ++gpu_users[b.gpus];
      }
    max_cpus = std::max(max_cpus, cpus);
    max_mem = std::max(max_mem, mem);
    for (auto& [g, n] : gpu_users) EXPECT_LE(n, 1) << "GPU " << g << " shared";
  }
  EXPECT_LE(max_cpus, 4);
  EXPECT_LE(max_mem, 1000);
  EXPECT_GE(max_cpus, 2);  // and it did run jobs side by side
}

TEST_F(Scheduling, ArrayThrottleIndicesAndNoSlurmStepVariables) {
  configure("cpus: 8\nkill_grace: 1\n");
  long id = submit({"-a", "1-9%3", "--", "sh", "-c",
                    "s=$(date +%s.%N); sleep 0.2; e=$(date +%s.%N); "
                    "echo \"$s $e $YARD_ARRAY_TASK_ID $SLURM_ARRAY_TASK_ID ${SLURM_JOB_ID:-unset}\" >> arr.log"});
  ASSERT_EQ(wait({id}), 0);
  std::istringstream in(read("arr.log"));
  std::vector<std::pair<double, double>> iv;
  std::set<int> seen;
  double s, e;
  int yard_idx, slurm_idx;
  std::string slurm_job;
  while (in >> s >> e >> yard_idx >> slurm_idx >> slurm_job) {
    iv.push_back({s, e});
    EXPECT_EQ(yard_idx, slurm_idx);
    EXPECT_EQ(slurm_job, "unset");
    seen.insert(yard_idx);
  }
  EXPECT_EQ(seen, (std::set<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  for (auto& a : iv) {
    int overlap = 0;
    for (auto& b : iv) overlap += b.first <= a.first && a.first < b.second;
    EXPECT_LE(overlap, 3);
  }
  auto st = status({id});
  EXPECT_EQ(st.size(), 9u);
  EXPECT_EQ(st[0]["array_task_id"], 1);
}

TEST_F(Scheduling, JobLimitCapsRunningJobs) {
  configure("cpus: 8\njob_limit: 2\nkill_grace: 1\n");
  std::vector<long> ids;
  for (int i = 0; i < 6; ++i)
    ids.push_back(submit({"--", "sh", "-c", "s=$(date +%s.%N); sleep 0.2; echo \"$s $(date +%s.%N)\" >> lim.log"}));
  ASSERT_EQ(wait(ids), 0);
  ASSERT_TRUE(wait_until([&] {
    const std::string log = read("lim.log");
    return std::count(log.begin(), log.end(), '\n') == 6;
  }, 30));
  std::istringstream in(read("lim.log"));
  std::vector<std::pair<double, double>> iv;
  double s, e;
  while (in >> s >> e) iv.push_back({s, e});
  for (auto& a : iv) {
    int overlap = 0;
    for (auto& b : iv) overlap += b.first <= a.first && a.first < b.second;
    EXPECT_LE(overlap, 2);
  }
}

TEST_F(Scheduling, DependenciesOrderJobsAndDoomedOnesAreCancelled) {
  long a = submit({"--", "sh", "-c", "sleep 0.2; echo a >> order.log"});
  long b = submit({"-d", "afterok:" + std::to_string(a), "--", "sh", "-c", "echo b >> order.log; exit 3"});
  long c = submit({"-d", "afternotok:" + std::to_string(b), "--", "sh", "-c", "echo c >> order.log"});
  long d = submit({"-d", "afterok:" + std::to_string(b), "--", "sh", "-c", "echo d >> order.log"});
  long e = submit({"-d", "afterany:" + std::to_string(d), "--", "sh", "-c", "echo e >> order.log"});
  wait({a, b, c, d, e});
  // a, then b; c and e both follow b's end in either order; d never runs.
  const std::string order = read("order.log");
  EXPECT_EQ(order.substr(0, 4), "a\nb\n");
  EXPECT_TRUE(order.substr(4) == "c\ne\n" || order.substr(4) == "e\nc\n") << order;
  EXPECT_EQ(job(b)["state"], "FAILED");
  EXPECT_EQ(job(b)["exit_code"], 3);
  EXPECT_EQ(job(d)["state"], "CANCELLED");
  EXPECT_EQ(job(d)["reason"], "DependencyNeverSatisfied");
  EXPECT_EQ(job(e)["state"], "COMPLETED");
}

// after: once the parent runs (not when it ends); singleton: once the earlier jobs of the
// same name have ended, and only those.
TEST_F(Scheduling, AfterWaitsForTheStartAndSingletonForTheSameName) {
  configure("cpus: 4\n");
  const char* gate = "while [ ! -e go ]; do sleep 0.05; done";
  const long parent = submit({"-J", "one", "--dependency=singleton", "--", "sh", "-c", gate});
  const long after = submit({"-d", "after:" + std::to_string(parent), "--", "true"});
  const long second = submit({"-J", "one", "-d", "singleton", "--", "true"});
  const long other = submit({"-J", "two", "-d", "singleton", "--", "true"});
  Output checked = yard({"submit", "--test-only", "--json", "-J", "one", "-d", "singleton", "--", "true"});
  ASSERT_EQ(checked.rc, 0) << checked.err;
  const auto deps = nlohmann::json::parse(checked.out)["job"]["dependencies"];
  EXPECT_EQ(deps.size(), 2u) << deps.dump();  // after the first and the second "one"
  ASSERT_EQ(wait({after, other}), 0);  // while the parent still runs
  EXPECT_EQ(job(parent)["state"], "RUNNING");
  EXPECT_EQ(job(second)["state"], "PENDING");
  write("go", "");
  ASSERT_EQ(wait({parent, second}), 0);
  EXPECT_GE(seconds(job(second)["start_time"]) + 0.01, seconds(job(parent)["end_time"]));
  Output delayed = yard({"submit", "-d", "after:" + std::to_string(parent) + "+5", "--", "true"});
  EXPECT_EQ(delayed.rc, 2);
  EXPECT_NE(delayed.err.find("a delay after the start (+MINUTES) is not supported"), std::string::npos) << delayed.err;
}

// '?': any one of the dependencies suffices; the job is doomed only when none can be met.
TEST_F(Scheduling, AnyOneOfTheDependenciesSuffices) {
  const long failed = submit({"--", "sh", "-c", "exit 1"});
  const long fine = submit({"--", "sh", "-c", "sleep 0.2"});
  const std::string f = std::to_string(failed), g = std::to_string(fine);
  const long either = submit({"-d", "afterok:" + f + "?afterok:" + g, "--", "true"});
  const long neither = submit({"-d", "afterok:" + f + "?afternotok:" + g, "--", "true"});
  wait({failed, fine, either, neither});
  EXPECT_EQ(job(either)["state"], "COMPLETED");
  EXPECT_GE(seconds(job(either)["start_time"]) + 0.01, seconds(job(fine)["end_time"]));
  EXPECT_EQ(job(neither)["state"], "CANCELLED");
  EXPECT_EQ(job(neither)["reason"], "DependencyNeverSatisfied");
  Output mixed = yard({"submit", "-d", "afterok:" + f + "?afterok:" + g + ",afterany:" + f, "--", "true"});
  EXPECT_EQ(mixed.rc, 2);
  EXPECT_NE(mixed.err.find("a list uses one of them"), std::string::npos) << mixed.err;
}

// aftercorr: each element after the parent array's element of the same index succeeded;
// the one whose counterpart failed never runs, the others do not wait for it.
TEST_F(Scheduling, AftercorrHoldsEachElementOnItsCounterpart) {
  configure("cpus: 4\n");
  const long parent = submit({"--array=1-3", "--", "sh", "-c", "[ $YARD_ARRAY_TASK_ID != 2 ]"});
  const long child = submit({"--array=1-3", "-d", "aftercorr:" + std::to_string(parent), "--", "true"});
  wait({parent, parent + 1, parent + 2, child, child + 1, child + 2});
  EXPECT_EQ(job(parent + 1)["state"], "FAILED");
  EXPECT_EQ(job(child)["state"], "COMPLETED");
  EXPECT_EQ(job(child + 1)["state"], "CANCELLED");
  EXPECT_EQ(job(child + 1)["reason"], "DependencyNeverSatisfied");
  EXPECT_EQ(job(child + 2)["state"], "COMPLETED");
  for (long i : {0, 2}) EXPECT_GE(seconds(job(child + i)["start_time"]) + 0.01, seconds(job(parent + i)["end_time"]));
  Output single = yard({"submit", "-d", "aftercorr:" + std::to_string(parent), "--", "true"});
  EXPECT_EQ(single.rc, 2);
  EXPECT_NE(single.err.find("element by element is for an array job (--array)"), std::string::npos) << single.err;
}

TEST_F(Scheduling, JsonStatusHasTheDocumentedFields) {
  long id = submit({"-J", "fields", "--mem", "10M", "--", "sh", "-c", "exit 0"});
  ASSERT_EQ(wait({id}), 0);
  auto j = job(id);
  for (const char* key : {"id", "name", "state", "exit_code", "submit_time", "start_time", "end_time", "cpus",
                          "mem_bytes", "gpus", "max_rss_bytes", "cpu_seconds"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["name"], "fields");
  EXPECT_EQ(j["mem_bytes"], 10 << 20);
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_GT(j["max_rss_bytes"].get<long>(), 0);
  EXPECT_EQ(j["submit_time"].get<std::string>().back(), 'Z');
}

}  // namespace
}  // namespace yard::test
