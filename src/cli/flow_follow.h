// Following a flow's jobs to their end (yard run, yard flow follow): a live progress line
// on a terminal (counts by state, updated in place), one plain line per state change
// otherwise. Their states are read first and the event log followed from before that
// read, so a job that changed meanwhile is neither missed nor counted twice; a job
// already ended at that read has its line too (its end, once); leaving
// (Ctrl-C) stops the following, never the jobs. With `json_lines`, one JSON object per
// state change instead ({"event": "job", ...the event log's entry}), for programs.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "client/daemon_client.h"

namespace yard {

// Returns once every job of `ids` (jobs, arrays by their first id) has ended; the caller
// reads what it needs of them then (a flow's report reads them all).
Status follow_jobs(DaemonClient& client, const std::vector<std::int64_t>& ids, std::ostream& out,
                   bool json_lines = false);

}  // namespace yard
