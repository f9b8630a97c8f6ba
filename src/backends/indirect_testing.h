// The indirect engine's test bench: a small fake dialect whose commands never run, a
// queue the test answers command by command, and a fixture with a store, a backend and
// a clock of the test's own (`now_`). Used by indirect_backend_test.cpp and
// indirect_recovery_test.cpp.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>

#include "backends/indirect_backend.h"
#include "core/text.h"

namespace yard::indirect_testing {

inline std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> f;
  std::size_t start = 0;
  for (;;) {
    auto bar = line.find('|', start);
    f.push_back(line.substr(start, bar - start));
    if (bar == std::string_view::npos) return f;
    start = bar + 1;
  }
}

inline Result<std::vector<NativeStatus>> parse_lines(std::string_view out, bool history) {
  std::vector<NativeStatus> v;
  std::size_t start = 0;
  while (start < out.size()) {
    auto nl = out.find('\n', start);
    std::string_view line = out.substr(start, nl - start);
    start = nl == std::string_view::npos ? out.size() : nl + 1;
    if (line.empty()) continue;
    auto f = fields(line);
    if (f.size() != 4 && f.size() != 5) return err("bad line '" + std::string(line) + "'");
    NativeStatus s;
    s.native_id = std::string(f[0]);
    s.raw_state = std::string(f[1]);
    if (history) s.exit_code = std::stoi(std::string(f[2]));
    else s.reason = std::string(f[2]);
    s.name = std::string(f[3]);
    if (f.size() == 5) s.node_list = std::string(f[4]);  // optional: the node it ran on
    v.push_back(s);
  }
  return v;
}

class FakeDialect : public Dialect {
 public:
  std::string_view name() const override { return "fake"; }
  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override {
    if (spec.name == "refused-by-dialect") return err("the dialect refuses this job");
    std::string s = "#!/bin/sh\n# name " + native_name(ctx.uid, spec.name) + "\n";
    for (auto& d : ctx.dependencies) s += "# after " + d.native_id + (d.whole_array ? "[]" : "") + "\n";
    if (spec.res.mem_bytes) s += "# mem " + std::to_string(spec.res.mem_bytes) + "\n";
    if (spec.res.walltime_s) s += "# time " + std::to_string(spec.res.walltime_s) + "\n";
    for (auto& n : ctx.avoid_nodes) s += "# avoid " + n + "\n";
    return s;
  }
  std::vector<std::string> submit_argv(const std::string& path) const override { return {"fsub", path}; }
  bool listed_elements = false;  // the submit command prints each element's id, as OAR's oarsub
  std::vector<std::string> element_ids_from_submit(std::string_view out) const override {
    std::vector<std::string> ids;
    if (!listed_elements) return ids;
    for (auto line : yard::split(out, '\n'))
      if (!line.empty()) ids.emplace_back(line);
    return ids;
  }
  Result<std::string> parse_submit(std::string_view out) const override {
    if (listed_elements) return std::string(out.substr(0, out.find('\n')));
    std::string t(out);
    while (!t.empty() && t.back() == '\n') t.pop_back();
    if (t.empty()) return err("empty");
    return t;
  }
  std::vector<std::string> poll_argv(const std::vector<std::string>& ids) const override {
    std::vector<std::string> a{"fq"};
    a.insert(a.end(), ids.begin(), ids.end());
    return a;
  }
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override { return parse_lines(out, false); }
  std::vector<std::string> history_argv(const std::vector<std::string>& ids, double) const override {
    std::vector<std::string> a{"fh"};
    a.insert(a.end(), ids.begin(), ids.end());
    return a;
  }
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override { return parse_lines(out, true); }
  std::vector<std::string> find_argv() const override { return {"ffind"}; }
  std::vector<std::string> find_history_argv(const std::vector<std::string>& names, double since) const override {
    std::vector<std::string> a{"ffindh", "since=" + std::to_string(static_cast<long>(since))};
    a.insert(a.end(), names.begin(), names.end());
    return a;
  }
  std::vector<std::string> cancel_argv(const std::vector<std::string>& ids) const override {
    std::vector<std::string> a{"fcancel"};
    a.insert(a.end(), ids.begin(), ids.end());
    return a;
  }
  bool pending_cancel = false;  // a cancel that spares started jobs, as Slurm's --state=PENDING
  std::vector<std::string> cancel_pending_argv(const std::vector<std::string>& ids) const override {
    if (!pending_cancel) return {};
    std::vector<std::string> a{"fcancelp"};
    a.insert(a.end(), ids.begin(), ids.end());
    return a;
  }
  bool holds = false;  // a hold and a release of queued jobs, as Grid Engine's qhold and qrls
  bool one_at_a_time = false;  // ... of one job per command, as Flux's `flux job urgency`
  std::vector<std::string> action_argv(JobAction a, const std::vector<std::string>& ids) const override {
    if (!holds || (a != JobAction::Hold && a != JobAction::Release)) return {};
    if (one_at_a_time && ids.size() != 1) return {};
    std::vector<std::string> v{a == JobAction::Hold ? "fhold" : "frls"};
    v.insert(v.end(), ids.begin(), ids.end());
    return v;
  }
  // Its array limit: a default, and a configuration that prints "max N" (fconf).
  std::int64_t array_default = 0;
  bool reads_array_limit = false, limit_on_indices = false;
  std::vector<std::string> array_limit_argv() const override {
    return reads_array_limit ? std::vector<std::string>{"fconf"} : std::vector<std::string>{};
  }
  std::optional<std::int64_t> parse_array_limit(std::string_view out) const override {
    if (out.rfind("max ", 0) != 0) return std::nullopt;
    return std::stoll(std::string(out.substr(4)));
  }
  std::int64_t default_array_limit() const override { return array_default; }
  bool array_limit_is_on_indices() const override { return limit_on_indices; }
  bool lists_queues = false;  // a listing of its queues' limits: "name|time|cpus" lines
  std::vector<std::string> queue_limits_argv(const std::vector<std::string>&) const override {
    return lists_queues ? std::vector<std::string>{"fqueues"} : std::vector<std::string>{};
  }
  Result<QueueListing> parse_queue_limits(std::string_view out) const override {
    QueueListing l;
    l.complete = true;
    for (auto line : yard::split(out, '\n')) {
      if (line.empty()) continue;
      auto f = fields(line);
      if (f.size() != 3) return err("bad queue line '" + std::string(line) + "'");
      l.queues[std::string(f[0])] = {std::stoll(std::string(f[1])), std::stoll(std::string(f[2])), 0};
    }
    return l;
  }
  MappedState map_state(const NativeStatus& s) const override {
    if (s.raw_state == "PENDING") return {JobState::Pending, s.reason};
    if (s.raw_state == "RUNNING") return {JobState::Running, ""};
    if (s.raw_state == "COMPLETED") return {JobState::Completed, ""};
    if (s.raw_state == "FAILED") return {JobState::Failed, "exit " + std::to_string(s.exit_code.value_or(-1))};
    if (s.raw_state == "CANCELLED") return {JobState::Cancelled, ""};
    if (s.raw_state == "PREEMPTED") return {JobState::Failed, "preempted"};
    if (s.raw_state == "OUT_OF_MEMORY") return {JobState::OutOfMemory, ""};
    if (s.raw_state == "TIMEOUT") return {JobState::Timeout, ""};
    return {JobState::Unknown, s.raw_state};
  }
  std::string native_name(std::string_view uid, std::string_view) const override { return "yard-" + std::string(uid); }
  std::optional<std::string> uid_from_native_name(std::string_view n) const override {
    if (n.substr(0, 5) != "yard-") return std::nullopt;
    return std::string(n.substr(5));
  }
  bool transient_failure(int rc, std::string_view) const override { return rc == 8; }
  // What a dialect may tell the engine (indirect_dialect_test.cpp), off by default.
  bool after_any_only = false;  // holds jobs only until the parent ends, as Grid Engine
  bool dotted_elements = false;  // array elements "12.3", as Grid Engine
  double history_lag = 0;        // records written this long after the end, as Grid Engine
  bool numbered_elements = false;  // elements are jobs numbered on from the first, as OAR's
  double history_lag_s() const override { return history_lag; }
  bool expresses(DependencyKind k) const override { return !after_any_only || k == DependencyKind::AfterAny; }
  std::string element_id(std::string_view base, std::int64_t index, std::size_t position) const override {
    if (numbered_elements) return std::to_string(std::stoll(std::string(base)) + static_cast<long long>(position));
    return dotted_elements ? std::string(base) + "." + std::to_string(index) : Dialect::element_id(base, index, position);
  }
  bool array_dependency_by_elements() const override { return numbered_elements; }
  bool script_on_stdin = false;  // the submit command reads the script on its stdin, as LSF's bsub
  bool submit_reads_script_on_stdin() const override { return script_on_stdin; }
  bool described = false;  // a submit description beside the script, single jobs' ids "N.0", as HTCondor's
  Result<Submission> submission(const JobSpec& spec, const SubmitContext& ctx, const std::string& path) const override {
    if (!described) return Dialect::submission(spec, ctx, path);
    return Submission{"executable = " + path + "\n", {"fsub", companion_path(path)}};
  }
  std::string job_id(std::string_view base) const override {
    return described ? std::string(base) + ".0" : std::string(base);
  }
  bool refuses_dependents = false;  // refuses a job whose parent already ended wrong, as Flux
  bool refused_for_a_dependency(std::string_view err) const override {
    return refuses_dependents && err.find("can never run") != std::string_view::npos;
  }
  bool queue_is_final = false;  // an ended job's queue record is its last, as HTCondor's held jobs
  bool ended_in_queue(const NativeStatus&) const override { return queue_is_final; }
  bool partial_listings = false;  // a listing with unknown ids fails but lists the others, as PBS's qstat
  bool usable_despite(int rc, std::string_view err) const override {
    return partial_listings && rc == 153 && err.find("Unknown Job Id") != std::string_view::npos;
  }
  bool found_nothing(int rc, std::string_view err) const override {
    return rc == 1 && err.find("not found") != std::string_view::npos;
  }
};

class ScriptedQueue : public CommandQueue {
 public:
  void post(Command c) override { posted.push_back(std::move(c)); }
  std::vector<CompletedCommand> take_completed() override { return std::exchange(done, {}); }
  // Answers the oldest posted command.
  Command answer(std::string out, int rc = 0, std::string err = {}) {
    EXPECT_FALSE(posted.empty());
    Command c = posted.front();
    posted.pop_front();
    CommandResult r;
    r.exit_code = rc;
    r.out = std::move(out);
    r.err = std::move(err);
    done.push_back({c, r});
    return c;
  }
  std::deque<Command> posted;
  std::vector<CompletedCommand> done;
};

class IndirectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("yard-indirect-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto st = Store::open((dir_ / "store.db").string());
    ASSERT_TRUE(st) << st.error();
    store_ = std::make_unique<Store>(std::move(*st));
    config_.poll_interval_s = 10;
    config_.calls_per_second = 0;  // unlimited unless a test says otherwise
    config_.lost_after_s = 30;
    make_backend();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void make_backend() {
    backend_ = std::make_unique<IndirectBackend>(*store_, dialect_, queue_, config_, dir_.string(), "tester");
  }
  JobSpec spec(std::string name = "job") {
    JobSpec s;
    s.name = std::move(name);
    s.argv = {"/bin/true"};
    s.workdir = dir_.string();
    return s;
  }
  std::int64_t submit(JobSpec s) {
    auto ids = backend_->submit(std::move(s), now_);
    EXPECT_TRUE(ids) << ids.error();
    return ids ? ids->front() : 0;
  }
  void step() {
    backend_->step(now_);
    backend_->dispatch();
  }
  JobRecord job(std::int64_t id) { return **store_->job(id); }
  // How many posted commands run `program`, and an answer to the oldest of them.
  int posted(const std::string& program) {
    return static_cast<int>(std::count_if(queue_.posted.begin(), queue_.posted.end(),
                                          [&](const Command& c) { return c.argv[0] == program; }));
  }
  Command answer_to(const std::string& program, std::string out) {
    auto it = std::find_if(queue_.posted.begin(), queue_.posted.end(),
                           [&](const Command& c) { return c.argv[0] == program; });
    EXPECT_NE(it, queue_.posted.end()) << "no " << program << " posted";
    if (it == queue_.posted.end()) return {};
    std::rotate(queue_.posted.begin(), it, std::next(it));
    return queue_.answer(std::move(out));
  }
  std::string uid_of(std::int64_t id) { return job(id).uid; }

  FakeDialect dialect_;
  ScriptedQueue queue_;
  IndirectConfig config_;
  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<IndirectBackend> backend_;
  double now_ = 1000;
};

}  // namespace yard::indirect_testing
