// The steps of a flow that run one after another inside one job (`group: N`,
// server/step_series.h): each step is a job of its own here, backend "series", with its
// own state, exit code and log, while the job that carries it (a job of the steps'
// backend, most often an element of an array of such carriers) runs them.
//
// The carrier's script writes, for each of its steps, a status file in the run's
// directory (<logs>/.series/<step id>): "start TIME" when the step begins, created with
// O_EXCL, then "end STATUS TIME". A step cancelled before its turn gets the file first,
// with "skip": whichever of the carrier and the daemon creates it decides, so a step is
// never both skipped and run. This backend reads those files while the carrier runs and
// once it has ended, and nothing else: after a crash of the daemon, the store and the
// files are all there is (recover()).
//
// Cancelling a step that has started cancels its carrier (a step's process inside
// another job of a cluster is not yard's to signal), and with it the steps of that
// carrier not yet run; once every step of a carrier is cancelled, so is the carrier.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace yard {

class SeriesSteps final : public Backend {
 public:
  static constexpr const char* kName = "series";
  // How often the running carriers' status files are read (a step's end is seen within).
  static constexpr double kScanS = 0.5;

  explicit SeriesSteps(Store& store) : store_(store) {}

  const std::string& name() const override { return name_; }
  Status recover(double now) override;
  // Its jobs come from a flow's grouped steps only (take()).
  Result<std::vector<std::int64_t>> submit(JobSpec spec, double now) override;
  Status check(const JobSpec& spec, double now) const override;
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids, double now) override;
  void step(double now, bool start_new) override;
  double next_wakeup_s(double now) const override;

  // Stores one step to be carried: its spec as the step's own, PENDING until its carrier
  // runs it.
  Result<std::int64_t> take(JobSpec spec, double now);
  // The steps `ids` (taken above), in the order the carrier `carrier` runs them, with
  // their status files in `status_dir`.
  Status carried_by(const std::vector<std::int64_t>& ids, std::int64_t carrier, const std::string& status_dir);
  // The carriers that cancels of their steps asked to stop since the last call: the
  // caller cancels them on their backends.
  std::vector<std::int64_t> take_carriers_to_cancel();

 private:
  struct Step {
    std::int64_t id = 0;
    std::string status_file;
    bool started = false;
    std::string log;  // its output path, recorded when it starts ("": read from its spec then)
  };
  // Reads the status files of the carrier's steps; `carrier` is its record. Steps that
  // ended leave `steps`.
  Status follow(const JobRecord& carrier, std::vector<Step>& steps, double now);
  Status end_step(const Step& s, JobState state, const std::string& why, double now,
                  std::optional<std::int64_t> exit_code = std::nullopt, std::optional<std::int64_t> signal = std::nullopt,
                  std::optional<double> end_time = std::nullopt);

  Store& store_;
  const std::string name_ = kName;
  std::map<std::int64_t, std::vector<Step>> by_carrier_;  // the steps not yet ended
  // Taken, their carrier not yet submitted: each one's log (its spec's output path).
  std::map<std::int64_t, std::string> unassigned_;
  std::vector<std::int64_t> carriers_to_cancel_;
  double scanned_at_ = 0;
};

// A status file's lines, as the carrier writes them.
struct SeriesStatus {
  bool skipped = false;
  std::optional<double> start;
  std::optional<int> status;  // the step's exit status as the shell gives it ($?)
  std::optional<double> end;
};
SeriesStatus parse_series_status(const std::string& text);

// A step's carrier and status file, as its record's native id keeps them ("ID FILE").
std::string series_native_id(std::int64_t carrier, const std::string& status_file);

}  // namespace yard
