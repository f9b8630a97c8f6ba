// What a person reads after a flow ran: an HTML report (one self-contained file, no
// network: a timeline of every step as SVG, each step's wait, duration, CPU time and
// memory requested against used, failures with their cause and the tail of their log)
// and a trace (TSV, with Nextflow's trace column names where one exists), from the jobs
// of the flow as the daemon holds them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/flow_record.h"
#include "core/job_record.h"

namespace yard {

struct ReportedStep {
  FlowStepRecord step;
  std::vector<JobRecord> jobs;  // its job, or its array's elements
  std::string log_tail;         // of a failed job's output ("" otherwise)
};

void write_trace(std::ostream& out, const std::vector<ReportedStep>& steps);
void write_html_report(std::ostream& out, const FlowRecord& flow, const std::vector<ReportedStep>& steps, double now);

}  // namespace yard
