// Where run records live: reused files, run/<backend>-<slot>.rec. Each job's record
// starts with a job_id=N line, appended after what earlier jobs of the slot wrote.
// Creating and deleting a file per job cost the daemon more than all of its SQL (ext4
// allocates, and searches for, a fresh inode each time, and may discard freed blocks
// synchronously); appending to an open-able file costs almost nothing.
// Not thread safe: owned by the daemon's event loop.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace yard {

class RecordSlots {
 public:
  RecordSlots(std::string run_dir, std::string prefix) : dir_(std::move(run_dir)), prefix_(std::move(prefix)) {}

  // A free slot (the lowest, so the files in use stay few).
  int acquire();
  void release(int slot);
  std::string path(int slot) const;

  // At start: every record file of this prefix, by the job it names. All of them are
  // taken; release() those whose job no longer runs.
  std::unordered_map<std::int64_t, int> scan();

 private:
  std::string dir_, prefix_;
  std::vector<bool> used_;
};

}  // namespace yard
