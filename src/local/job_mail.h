// The mail sbatch's --mail-type asks for, on the local backend: a subject line as Slurm
// writes it (Slurm's words, "Yard" for "Slurm"), sent through the machine's sendmail
// (machine config `sendmail:`, by default /usr/sbin/sendmail) without waiting for it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/job_state.h"

namespace yard {

struct MailedJob {
  std::int64_t id = 0;
  std::optional<std::int64_t> array_job_id, array_index;
  std::string name;
  bool whole_array = false;  // the mail is about the array as a whole (no ARRAY_TASKS)
};

// What happened, for the subject: the job started (after `seconds` queued), went back to
// the queue, or ended in `state` (after `seconds` running, with `exit_code`).
struct MailMoment {
  JobState state = JobState::Running;
  double seconds = 0;
  std::int64_t exit_code = 0;
};

// The subject for this moment if `events` (MailEvent bits) asks for mail then, else none:
// BEGIN at the start, REQUEUE back in the queue, END at any end, FAIL at a failure
// (a time-out, memory, a lost job too; not a cancel), TIME_LIMIT at a time-out.
std::optional<std::string> mail_subject(unsigned events, const MailedJob& job, const MailMoment& m);

class Mailer {
 public:
  explicit Mailer(std::string sendmail) : sendmail_(std::move(sendmail)) {}
  ~Mailer();
  Mailer(const Mailer&) = delete;
  Mailer& operator=(const Mailer&) = delete;

  const std::string& sendmail() const { return sendmail_; }
  bool available() const;  // sendmail is there and executable
  // Starts sendmail for one message to `to` and returns; false if it could not start.
  bool send(const std::string& to, const std::string& subject);
  // Collects the sendmails that have ended (called as the daemon goes round).
  void reap();

 private:
  std::string sendmail_;
  std::vector<pid_t> running_;
};

}  // namespace yard
