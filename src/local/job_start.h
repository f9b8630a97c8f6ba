// Starting one job: everything it needs (argv, environment, the places its PATH lets its
// command be, output files, CPUs, memory cgroup) is prepared in the host's memory first,
// then the job is started with vfork, whose child does only system calls before execve.
// vfork because the job host is long-lived and starts every job: no page tables are
// copied, and the host is suspended only until the child has exec'd.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "local/launch_plan.h"

namespace yard {

struct StartedJob {
  pid_t pid = -1;     // -1: not even forked (see error)
  std::string error;  // set when the job could not be started (it then exits with 127)
};

// The cgroups a job joins before exec, as open cgroup.procs files (or -1).
struct JobGroups {
  int memory_procs_fd = -1;    // its memory limit: failing to join fails the job
  int tracking_procs_fd = -1;  // every process it starts (process_tracking.h)
};

// Starts `plan` as the leader of a new process group, in `groups`; `nofile` (or null),
// the open-files limit the job gets (the host raises its own to hold every running
// job's record).
StartedJob start_job(const LaunchPlan& plan, const JobGroups& groups = {}, const rlimit* nofile = nullptr);

// The directory `path` (absolute, or relative to `workdir`) is in.
std::string parent_directory(const std::string& path, const std::string& workdir);
// Whether `path` is a symbolic link that the kernel's fs.protected_symlinks would not
// follow: in a sticky, world-writable directory `dir` (/tmp), owned neither by this user
// nor by the directory's owner. Another user could plant one where a job writes its
// output, to make it overwrite a file of this user's. System calls only (for the child
// between vfork and execve).
bool is_planted_link(const char* path, const char* dir);

// Where execvpe would look for `command` along `path` (a PATH value), in order.
std::vector<std::string> command_candidates(const std::string& command, const std::string& path);

}  // namespace yard
