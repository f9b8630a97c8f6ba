// The clocks, read here only: the wall clock (seconds since the epoch: what the store
// records and users see) and the monotonic one (for deadlines: immune to clock changes).
#pragma once

namespace yard {

double wall_now();
double monotonic_now();

}  // namespace yard
