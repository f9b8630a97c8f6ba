// Jobs, events and job queries on the wire (protocol/messages.h): every field, so a
// client sees exactly what the store holds. Texts from users or schedulers (names,
// reasons, paths) are bytes (core/byte_json.h). Readers throw nlohmann::json exceptions
// on a malformed object; the codec turns them into a refusal naming the request.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job_record.h"

namespace yard {

// An integer a client sent: `fallback` when absent; a float, a string or an integer out
// of range throws (a cast would be undefined behaviour for 1e300).
std::int64_t wire_integer(const nlohmann::json& j, const char* key, std::int64_t fallback);
// A list of such integers (job ids).
std::vector<std::int64_t> wire_integers(const nlohmann::json& list, const char* key);

nlohmann::json job_to_wire(const JobRecord& j);
JobRecord job_from_wire(const nlohmann::json& j);
// Many jobs as a table, {"columns":[names],"rows":[[values]...]}: the names once, not once
// per job (a reply of 100,000 jobs is read and written several times faster). A reader
// skips the columns it does not know.
// The table is written as JSON text straight away (no tree of 3 million values).
std::string jobs_to_wire_table(const std::vector<JobRecord>& jobs);
std::vector<JobRecord> jobs_from_wire_table(const nlohmann::json& table);

nlohmann::json event_to_wire(const JobEvent& e);
JobEvent event_from_wire(const nlohmann::json& j);

nlohmann::json logged_event_to_wire(const LoggedEvent& e);
LoggedEvent logged_event_from_wire(const nlohmann::json& j);

// A query's fields, without "op"; states by name ("RUNNING"); an unknown state throws.
void query_to_wire(const JobQuery& q, nlohmann::json& out);
JobQuery query_from_wire(const nlohmann::json& j);

}  // namespace yard
