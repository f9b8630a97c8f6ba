// What every scheduler folder's batch-script tests start from: a plain job and the
// context the engine gives its script (a UID, an output path with an array index).
#pragma once

#include "backends/dialect.h"

namespace yard::script_testing {

inline constexpr const char* kUid = "yd0123456789abcdef";

inline JobSpec spec() {
  JobSpec s;
  s.name = "train";
  s.argv = {"/bin/echo", "hi"};
  s.workdir = "/tmp";
  return s;
}

inline SubmitContext ctx() {
  SubmitContext c;
  c.uid = kUid;
  c.stdout_path = "/tmp/out-%a.txt";
  return c;
}

}  // namespace yard::script_testing
