// Dialect: everything that differs between indirect batch schedulers (Slurm and the
// others driven through their commands). The IndirectBackend engine does the rest —
// store, polling cadence, retries, rate limits, recovery — the same for all of them, so
// adding a scheduler is one dialect file plus its fixtures.
//
// A dialect only builds argv vectors and parses text: it runs nothing itself, so every
// part of it is a pure function tested on captured output and fuzzed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/job_action.h"
#include "core/job_spec.h"
#include "core/job_state.h"
#include "core/queue_limits.h"
#include "core/result.h"

namespace yard {

// What a scheduler says about one native job (or array element, or het component).
struct NativeStatus {
  std::string native_id;  // as the scheduler prints it: "123", "123_4", "123+1"
  std::string raw_state;  // verbatim, e.g. "CANCELLED by 0"
  std::string reason;     // pending/hold reason; empty when none
  std::string name;       // native job name (it carries the Switchyard UID)
  std::optional<int> exit_code, signal;
  std::optional<double> start_time, end_time;  // Unix seconds
  std::string node_list;
  // What the scheduler recorded happening to it, where the state alone does not say
  // (its event types: a delete asked for, a best-effort job killed, walltime reached...).
  std::vector<std::string> events;
  // The native id of the submission it belongs to, where the scheduler lists array
  // elements as jobs of their own (the array's id); empty: the base of native_id.
  std::string submission_id;
};

// A native state in our terms. `detail` keeps what our state cannot say
// ("COMPLETING", "PREEMPTED", "reason DependencyNeverSatisfied", the raw text of an
// unknown state).
struct MappedState {
  JobState state = JobState::Unknown;
  std::string detail;
};

// What the engine knows when it writes a job's batch script.
struct SubmitContext {
  std::string uid;                 // Switchyard UID, carried in the native job name
  std::string stdout_path, stderr_path;  // absolute, already expanded where yard can
  // Dependencies on other Switchyard jobs, translated to their native ids.
  struct NativeDependency {
    DependencyKind kind;
    std::string native_id;
    // On a whole array by its base id (a scheduler may have a form of its own for it;
    // Slurm's `afterok:123` means the whole array already).
    bool whole_array;
  };
  std::vector<NativeDependency> dependencies;
  // Nodes a job tried again failed on twice: kept off them where the scheduler can
  // exclude nodes (Slurm's --exclude); others ignore it.
  std::vector<std::string> avoid_nodes;
  // Where the batch script tells what it says only nearly ("--time 90s: ...; rounded up"),
  // a line each, for yard submit's warnings; null: nowhere.
  std::vector<std::string>* nearest = nullptr;
  // Its yard id (an array's: its first element's), for the variables the job gets; 0:
  // none yet (a probe, yard translate).
  std::int64_t job_id = 0;
};

// How a job is submitted, for schedulers that read no directives from the script: a
// submit description, saved beside the script, or options that only the submit command's
// line takes.
struct Submission {
  std::string companion;          // saved at companion_path(script) first; empty: none
  std::vector<std::string> argv;  // the submit command
};

// Where a script's companion file is saved: "<dir>/<uid>.sh" -> "<dir>/<uid>.sub".
inline std::string companion_path(std::string_view script_path) {
  std::string_view stem = script_path.ends_with(".sh") ? script_path.substr(0, script_path.size() - 3) : script_path;
  return std::string(stem) + ".sub";
}

class Dialect {
 public:
  virtual ~Dialect() = default;
  virtual std::string_view name() const = 0;

  // The batch script for `spec`: directives, then the job. Every user value is quoted.
  virtual Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const = 0;
  virtual std::vector<std::string> submit_argv(const std::string& script_path) const {
    (void)script_path;
    return {};
  }
  // The submission of the job whose script is saved at `script_path`: by default
  // submit_argv's command and no companion file.
  virtual Result<Submission> submission(const JobSpec& spec, const SubmitContext& ctx,
                                        const std::string& script_path) const {
    (void)spec;
    (void)ctx;
    return Submission{"", submit_argv(script_path)};
  }
  // Whether the submit command reads the script on its stdin (given as an argument, its
  // directive lines are not read).
  virtual bool submit_reads_script_on_stdin() const { return false; }
  // The native id from the submit command's stdout; an error carries the scheduler's message.
  virtual Result<std::string> parse_submit(std::string_view out) const = 0;
  // An array's element ids in the order of its indices, where the submit command prints
  // them (a line for each element, whose ids another submission may interleave);
  // empty: element_id() numbers them.
  virtual std::vector<std::string> element_ids_from_submit(std::string_view out) const {
    (void)out;
    return {};
  }

  // One call for every tracked job: the live queue.
  virtual std::vector<std::string> poll_argv(const std::vector<std::string>& native_ids) const = 0;
  virtual Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const = 0;
  // One call for jobs that left the live queue: their final record. `since` (Unix
  // seconds) is the earliest submit time among them, for schedulers whose history is
  // searched by time rather than by id.
  virtual std::vector<std::string> history_argv(const std::vector<std::string>& native_ids, double since) const = 0;
  virtual Result<std::vector<NativeStatus>> parse_history(std::string_view out) const = 0;
  // The user's jobs whose names carry Switchyard UIDs, to find a submission whose id
  // was never stored (crash between submit and store).
  virtual std::vector<std::string> find_argv() const = 0;
  // The second look for those submissions that find_argv's listing does not show (they
  // may have ended and been forgotten by the live queue already): one call over the
  // scheduler's history for jobs named `native_names` since `since` (Unix seconds), read
  // with parse_history. Empty when the scheduler keeps no history: the listing decides.
  virtual std::vector<std::string> find_history_argv(const std::vector<std::string>& native_names,
                                                     double since) const {
    (void)native_names;
    (void)since;
    return {};
  }

  // How long after a job ends its record may still be missing from the history (a
  // scheduler may write its accounting file every flush interval). A look-up that finds
  // a job in neither the queue nor the history is only believed when the history was
  // read this long after the queue: the job might have ended in between.
  virtual double history_lag_s() const { return 0; }

  virtual std::vector<std::string> cancel_argv(const std::vector<std::string>& native_ids) const = 0;
  // A cancel that ends these jobs only where they have not started, decided by the
  // scheduler itself (Slurm: scancel --state=PENDING): how `yard routes move` takes a job
  // out of its queue without racing its start. Empty: this scheduler has none, and jobs
  // in its queue are not moved.
  virtual std::vector<std::string> cancel_pending_argv(const std::vector<std::string>& native_ids) const {
    (void)native_ids;
    return {};
  }

  // The command that holds, releases or requeues these jobs (core/job_action.h; a job
  // held stays pending in the scheduler's queue until released). Empty: the scheduler has
  // none, and its jobs refuse the action.
  virtual std::vector<std::string> action_argv(JobAction action, const std::vector<std::string>& native_ids) const {
    (void)action;
    (void)native_ids;
    return {};
  }

  // The command that lists the limits of the scheduler's queues (`queues`: those yard
  // wants, for a scheduler that lists only queues named), and its output read; empty: the
  // scheduler has none yard reads, and routes.yaml's classes are not checked against it.
  virtual std::vector<std::string> queue_limits_argv(const std::vector<std::string>& queues) const {
    (void)queues;
    return {};
  }
  virtual Result<QueueListing> parse_queue_limits(std::string_view out) const {
    (void)out;
    return QueueListing{};
  }

  // The most elements of one array: the command that prints the scheduler's configured
  // limit and its reading (empty: none to read), and the scheduler's documented default
  // (0: none). `limit_is_on_indices`: the limit bounds the highest index (Slurm's
  // MaxArraySize: every index below it), not the number of elements.
  virtual std::vector<std::string> array_limit_argv() const { return {}; }
  virtual std::optional<std::int64_t> parse_array_limit(std::string_view out) const {
    (void)out;
    return std::nullopt;
  }
  virtual std::int64_t default_array_limit() const { return 0; }
  virtual bool array_limit_is_on_indices() const { return false; }

  // Whether its scheduler acts on one of sbatch's options (Backend::honours).
  virtual bool honours(std::string_view sbatch_option) const {
    (void)sbatch_option;
    return false;
  }

  // An array element's native id: "12_3" (Slurm), "12.3" (another scheduler's form),
  // from the submission's id `base`, the element's index, and its position among the
  // array's indices (0 for the first), for a scheduler that numbers elements by position,
  // with ids of their own.
  virtual std::string element_id(std::string_view base, std::int64_t index, std::size_t position) const {
    (void)position;
    return std::string(base) + "_" + std::to_string(index);
  }
  // A single job's native id from its submission's (e.g. the one job of submission 6 is
  // 6.0); an array's elements are element_id()'s.
  virtual std::string job_id(std::string_view submission_id) const { return std::string(submission_id); }
  // Whether a dependency on a whole array is written as one on each of its elements
  // (an array without an id of its own that a job can wait for).
  virtual bool array_dependency_by_elements() const { return false; }
  // Whether the scheduler holds a job for a dependency of this kind itself. When not,
  // the engine holds the job back until its parent has ended and judges the dependency
  // (a scheduler's hold on a job may only mean "after the parent ends, however").
  virtual bool expresses(DependencyKind kind) const {
    (void)kind;
    return true;
  }

  virtual MappedState map_state(const NativeStatus& s) const = 0;
  // True if the live queue's record of this ended job is its last, which the history
  // will not hold (a scheduler may keep a job it held for good in its queue, out of its
  // history, until it is removed); else an ended job's exit is read from the history.
  virtual bool ended_in_queue(const NativeStatus& s) const {
    (void)s;
    return false;
  }
  // True if a failed listing (exit status, stderr) only says it found nothing, as a
  // history look-up by name pattern may with status 1: an empty answer, not a failure.
  virtual bool found_nothing(int exit_code, std::string_view err) const {
    (void)exit_code;
    (void)err;
    return false;
  }
  // True if a listing that failed (exit status, stderr) still printed every record it
  // found and only says that some ids are unknown to it: a status command may exit 153
  // for one purged id among a thousand, with the others' records on its stdout.
  virtual bool usable_despite(int exit_code, std::string_view err) const {
    (void)exit_code;
    (void)err;
    return false;
  }
  // True if a refused submission's words (stderr) say that a dependency of the job can
  // never be met: a scheduler may refuse a job whose afterok parent has already failed.
  virtual bool refused_for_a_dependency(std::string_view err) const {
    (void)err;
    return false;
  }
  // True if a failed command (exit status, stderr) is worth retrying: the scheduler was
  // unreachable or busy, rather than refusing the request.
  virtual bool transient_failure(int exit_code, std::string_view err) const {
    (void)exit_code;
    (void)err;
    return false;
  }
  // The native job name for a UID, and the UID back from a native name.
  virtual std::string native_name(std::string_view uid, std::string_view job_name) const = 0;
  virtual std::optional<std::string> uid_from_native_name(std::string_view native_name) const = 0;
};

}  // namespace yard
