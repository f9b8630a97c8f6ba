// The local backend's mail (sbatch's --mail-type and --mail-user): which moment of which
// job is mailed about, and to whom. An array's elements are mailed about one by one with
// ARRAY_TASKS, else the array as a whole, as Slurm does: its first start and its last end.
#include <iostream>

#include "core/mail_request.h"
#include "local/local_backend.h"

namespace yard {

std::vector<std::string> LocalBackend::warnings(const JobSpec& spec) const {
  std::vector<std::string> out;
  const MailRequest m = mail_request(spec.slurm_options);
  if (name_ != "local" || m.events == 0 || mailer_.available()) return out;
  for (auto& [name, value] : spec.slurm_options)
    if (name == "mail-type")
      out.push_back("--mail-type=" + value + ": no sendmail on this machine (" +
                    (mailer_.sendmail().empty() ? std::string("none configured") : mailer_.sendmail()) +
                    "); no mail will be sent");
  if (m.events & (kMailTimeLimit50 | kMailTimeLimit80 | kMailTimeLimit90 | kMailStageOut))
    out.push_back("--mail-type: TIME_LIMIT_50/80/90 and STAGE_OUT: backend " + name_ + " sends no mail for them");
  return out;
}

void LocalBackend::mail_about(std::int64_t id, std::int64_t spec_id, JobState to, double seconds, std::int64_t exit_code) {
  if (name_ != "local") return;  // a step of an allocation: its scheduler mails about the allocation
  auto spec = spec_for(spec_id);
  if (!spec || !*spec) return;
  const MailRequest m = mail_request((*spec)->slurm_options);
  if (m.events == 0) return;
  auto rec = store_.job(id);
  if (!rec || !rec->has_value()) return;
  MailedJob job{id, (*rec)->array_job_id, (*rec)->array_index, (*spec)->name, false};
  if (job.array_job_id && !(m.events & kMailArrayTasks)) {
    const std::int64_t array = *job.array_job_id;
    job.whole_array = true;
    if (to == JobState::Running) {
      if (!mailed_arrays_.insert(array).second) return;  // its first start only
    } else if (to == JobState::Pending) {
      return;
    } else {
      // Its last end: no other element waits, is planned or runs.
      for (auto& [other, q] : pending_)
        if (q.array_job_id == array && other != id) return;
      for (auto& [other, r] : running_)
        if (r.array_job_id == array && other != id) return;
      for (auto& p : planned_)
        if (p.array_job_id == array && p.id != id) return;
      mailed_arrays_.erase(array);
    }
  }
  auto subject = mail_subject(m.events, job, MailMoment{to, seconds, exit_code});
  if (!subject) return;
  if (!mailer_.send(m.user.empty() ? user_ : m.user, *subject))
    std::cerr << "yard daemon: job " << id << ": could not start " << mailer_.sendmail() << " for its mail" << std::endl;
}

}  // namespace yard
