// What OAR 2.5.9's clients say when the server or its database is away
// (tests/fixtures/oar/*_server_down, *_db_down).
#pragma once

#include <string_view>

namespace yard {

// True if a failed command (exit status, stderr) is worth retrying: OAR's server or
// database was unreachable, rather than the request refused. A submission that failed
// so may still be in the database (oarsub stores the job before it tells the server):
// the engine looks it up by its UID before submitting again.
bool oar_transient_failure(int exit_code, std::string_view err);

}  // namespace yard
