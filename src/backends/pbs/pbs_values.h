// The values PBS Pro's and Torque's qstat print, and what their readers keep of them in a
// status, read alike for both: integers, ctime-form times, HH:MM:SS durations, exec_host
// lists, an attribute of a job, and the "key=N" events a status carries.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "backends/dialect.h"
#include "backends/pbs/pbs_parse.h"  // PbsAttributes

namespace yard {

std::optional<long long> pbs_integer(std::string_view s);
// "Wed Jun 24 15:33:18 2020", local; nothing for anything else.
std::optional<double> pbs_ctime(std::string_view text);
// "HH:MM:SS" (hours may pass 99), "MM:SS" or seconds, in seconds.
std::optional<long long> pbs_duration(std::string_view text);
// "host1/0*2+host2/3", "node01/0-3": "host1,host2".
std::string pbs_hosts(std::string_view exec_host);
// An attribute's text, or "".
std::string_view pbs_attribute(const PbsAttributes& a, std::string_view key);
// Whether the job used its whole walltime (resources_used against Resource_List).
bool pbs_used_its_walltime(const PbsAttributes& a);

// The number of a status's event "key=N", whether it has the event `what`, and whether
// its reason (a comment) says `words` (lower case).
std::optional<long long> status_event(const NativeStatus& s, std::string_view key);
bool has_status_event(const NativeStatus& s, std::string_view what);
bool reason_says(const NativeStatus& s, std::string_view words);

}  // namespace yard
