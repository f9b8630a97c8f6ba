// Direct mode inside a job of a scheduler that describes its allocation by a host file
// (local/hostfile_steps.h): the daemon started inside a real job of the scheduler the
// CTest fixture started, running yard jobs as steps of it. Instantiated by the folders of
// the schedulers that have such a backend (tests/lsf, tests/pbs, tests/torque).
#pragma once

#include "../integration/harness.h"

namespace yard::test {

struct DirectUnderTest {
  std::string backend;            // "lsf-steps"
  std::string id_variable;        // "LSB_JOBID": the job the daemon runs inside
  std::string hostfile_variable;  // "LSB_DJOB_HOSTFILE"
  // A shell command submitting the script "$1" as a job of 2 slots on one host, its
  // output to /dev/null.
  std::string submit;
};

inline void PrintTo(const DirectUnderTest* d, std::ostream* os) { *os << d->backend; }

inline std::string direct_name(const ::testing::TestParamInfo<const DirectUnderTest*>& info) {
  std::string name = info.param->backend;
  name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
  return name;
}

class LifeCycleDirectWorld : public YardWorld, public ::testing::WithParamInterface<const DirectUnderTest*> {};

}  // namespace yard::test
