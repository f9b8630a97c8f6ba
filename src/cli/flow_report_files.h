// The report and trace of a flow (flow/flow_report.h) written as files: report.html and
// trace.tsv in a directory (the flow's run directory by default), each written whole
// beside its place and renamed into it, so a full disk leaves an error and the last good
// file, never half of one; the flow's state is the daemon's and is not touched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "client/daemon_client.h"

namespace yard {

struct ReportFiles {
  std::string html, trace;
};

// `jobs`: the flow's jobs if the caller has them (else they are asked for).
Result<ReportFiles> write_flow_report(DaemonClient& client, std::int64_t flow_id, const std::string& dir,
                                      std::vector<JobRecord> jobs = {});

}  // namespace yard
