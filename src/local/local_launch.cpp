// LocalBackend, part: handing planned jobs to the job host once their start is durable
// (each with its run record opened, locked and named), or back to the queue when that
// cannot be done.
#include "local/local_backend.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "local/run_record.h"
#include "store/sqlite.h"

namespace yard {
namespace {

// A reused record file is emptied when it grows past this.
constexpr off_t kRecordFileMax = 64 * 1024;
// How soon jobs that found no room for their run record are tried again.
constexpr double kLaunchRetryS = 1.0;

}  // namespace

void LocalBackend::launch() {
  auto planned = std::move(planned_);
  planned_.clear();
  for (auto& p : planned) {
    auto fail = [&](const std::string& why) {
      Transition t;
      t.reason = why;
      t.end_time = clock_.wall();
      set_state(p.id, JobState::Failed, t);
      if (p.after == 0) {
        pool_.release(p.alloc);
      } else if (auto pred = running_.find(p.after); pred != running_.end()) {
        pred->second.successor = 0;  // its CPUs stay the predecessor's
      }
      if (p.array_job_id) queue_.element_ended(p.array_job_id);
      resolve_dependents(p.id, JobState::Failed);
    };
    // It never ran: back to the queue (its CPUs, if it had its own, are free again).
    auto requeue = [&](const std::string& why) {
      Transition t;
      t.reason = why;
      set_state(p.id, JobState::Pending, t);
      if (p.after == 0) pool_.release(p.alloc);
      else if (auto pred = running_.find(p.after); pred != running_.end() && pred->second.successor == p.id)
        pred->second.successor = 0;
      if (p.array_job_id) queue_.element_ended(p.array_job_id);
      if (auto r = store_.job(p.id); r && r->has_value()) {
        pending_[p.id] = queued(**r);
        queue_.push(pending_[p.id]);
      }
    };
    if (!host_) {
      fail("no job host to run it");
      continue;
    }
    if (p.after) {
      auto pred = running_.find(p.after);
      if (pred == running_.end() || pred->second.successor != 0) {
        // Its predecessor could not be started (or is taken): back to the queue, with
        // no CPUs of its own.
        requeue("requeued: the job it was to follow did not start");
        continue;
      }
      pred->second.successor = p.id;
    }
    const int slot = records_.acquire();
    const std::string path = records_.path(slot);
    // Appended to what earlier jobs wrote (a job_id= line starts a new record): freeing
    // the file's blocks for every job costs a synchronous discard on some filesystems.
    int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_APPEND | O_CLOEXEC, 0600);
    struct stat st{};
    const bool ok = fd >= 0 && ::flock(fd, LOCK_EX) == 0 && ::fstat(fd, &st) == 0 &&
                    (st.st_size < kRecordFileMax || ::ftruncate(fd, 0) == 0) &&
                    append_record(fd, "job_id=" + std::to_string(p.id) + "\n" +
                                          (p.after ? "after=" + std::to_string(p.after) + "\n" : std::string()));
    if (!ok) {
      const int error = errno;
      if (fd >= 0) ::close(fd);
      records_.release(slot);
      const std::string why = "cannot create run record " + path + ": " + std::strerror(error);
      // A full or failing disk is the daemon's trouble, not the job's: it waits for room.
      if (error == ENOSPC || error == EDQUOT || error == EIO || error == EROFS || error == ENOMEM) {
        if (launch_retry_at_ == 0) std::cerr << "yard daemon: job " << p.id << " waits: " << why << std::endl;
        requeue(why);
        launch_retry_at_ = clock_.wall() + kLaunchRetryS;
      } else {
        fail(why);
      }
      continue;
    }
    auto sent = host_->launch(p.id, p.plan, fd, p.after);
    ::close(fd);
    if (!sent) {
      records_.release(slot);
      fail(sent.error());
      continue;
    }
    Running run;
    run.id = p.id;
    run.slot = slot;
    run.alloc = std::move(p.alloc);
    run.array_job_id = p.array_job_id;
    run.spec_id = p.spec_id;
    run.kind = p.kind;
    run.view = p.view;
    if (p.after) {
      run.predecessor = p.after;
      run.owns_alloc = false;
      run.handed_at = clock_.wall();
    }
    running_[p.id] = std::move(run);
  }
}

}  // namespace yard
