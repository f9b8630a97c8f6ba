// Where the daemon's program (yardd) is, for a client that starts it: $YARD_DAEMON if
// set; else beside the running program (a build tree, or /usr/bin); else where it was
// installed (this library's install prefix); else `yardd` on the PATH.
#pragma once

#include <string>

namespace yard {

std::string daemon_program();

}  // namespace yard
