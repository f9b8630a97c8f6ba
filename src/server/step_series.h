// Series of a flow's small steps (`group: N` in a workflow file): the steps of one
// foreach that could be packed (step_packing.h) run N at a time, one after another, in
// one job of their backend, the carrier; the carriers of one foreach go as one array (up
// to kMaxPack of them). 10,000 one-second steps with `group: 100` on a cluster are 100
// carriers in one submission. Each step stays a job of its own, of the backend "series"
// (backends/series_steps.h), with its own state, exit code and log: the carrier writes
// when each starts and ends into a status file per step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "protocol/messages.h"

namespace yard {

// One submission of carriers: its series, each the indices of the request's jobs it
// runs, in request order (at most the jobs' `group` each; at most kMaxPack series).
using SeriesRun = std::vector<std::vector<std::size_t>>;

// The runs among the request's jobs that may go in series (`candidates[i]`: submitted now,
// to a backend whose jobs may wait on another backend's, since the carriers and the
// steps after them wait on steps of the backend "series"). Steps of one foreach are
// grouped in request order; a foreach whose steps make a single series of one step is
// left out (it is a job of its own).
std::vector<SeriesRun> find_series(const SubmitManyRequest& r, const std::vector<bool>& candidates);

// Where the carriers of the steps logging into `log_dir` keep their status files and
// their own logs.
std::string series_status_dir(const std::string& log_dir);

// The carrier (an array, one element per series, when the run has two or more): each of
// its series' steps is run with its command, its log, and its status file
// `<status_dir>/<its id>`, `ids[s][k]` being the id of the kth step of series s. Its
// time limit is the steps' times the longest series' length.
JobSpec carrier_spec(const SubmitManyRequest& r, const SeriesRun& run, const std::vector<std::vector<std::int64_t>>& ids,
                     const std::string& status_dir);

}  // namespace yard
