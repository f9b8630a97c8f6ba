// sacct's time window: -S/--starttime and -E/--endtime in Slurm's forms (now, now-1day,
// now+2hours, today, midnight, noon, YYYY-MM-DD[THH:MM[:SS]], MMDD[YY], MM/DD[/YY],
// HH:MM[:SS]), and its defaults: neither -j nor -s: since today 00:00 until now; -j: any
// time until now; -s alone: the jobs in those states now (start and end now). A job is in the window when it was submitted before its end and had not ended
// before its start.
#pragma once

#include <string>

#include "core/job_record.h"
#include "core/result.h"

namespace yard::slurm_front {

struct Window {
  double start = 0, end = 0;  // 0: open
};

// Seconds since the epoch of a time in one of Slurm's forms, or an error naming it.
Result<double> slurm_time_of(const std::string& text, double now);
Result<Window> sacct_window(const std::string& start, const std::string& end, bool jobs_named, bool states_named,
                            double now);
bool in_window(const JobRecord& j, const Window& w);

}  // namespace yard::slurm_front
