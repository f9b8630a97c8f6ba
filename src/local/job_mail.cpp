#include "local/job_mail.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "core/duration.h"
#include "core/mail_request.h"

extern char** environ;

namespace yard {
namespace {

bool failure(JobState s) {
  return s == JobState::Failed || s == JobState::Timeout || s == JobState::OutOfMemory ||
         s == JobState::NodeFail || s == JobState::Lost;
}

std::string who(const MailedJob& j) {
  if (!j.array_job_id) return "Job_id=" + std::to_string(j.id) + " Name=" + j.name;
  const std::string array = std::to_string(*j.array_job_id);
  if (j.whole_array) return "Array Summary Job_id=" + array + "_* (" + array + ") Name=" + j.name;
  return "Array Task Job_id=" + array + "_" + std::to_string(j.array_index.value_or(0)) + " (" +
         std::to_string(j.id) + ") Name=" + j.name;
}

std::string duration(double seconds) {
  return format_walltime(static_cast<std::int64_t>(std::llround(std::max(0.0, seconds))));
}

// A subject is one header line: nothing in a job's name may start another.
std::string one_line(std::string s) {
  std::replace_if(s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return s;
}

}  // namespace

std::optional<std::string> mail_subject(unsigned events, const MailedJob& job, const MailMoment& m) {
  const std::string head = "Yard " + who(job);
  if (m.state == JobState::Running) {
    if (!(events & kMailBegin)) return std::nullopt;
    return one_line(head + " Began, Queued time " + duration(m.seconds));
  }
  if (m.state == JobState::Pending) {
    if (!(events & kMailRequeue)) return std::nullopt;
    return one_line(head + " Requeued, Run time " + duration(m.seconds));
  }
  if (!is_terminal(m.state)) return std::nullopt;
  const bool timeout = m.state == JobState::Timeout;
  const bool wanted = (events & kMailEnd) || ((events & kMailFail) && failure(m.state)) ||
                      ((events & kMailTimeLimit) && timeout);
  if (!wanted) return std::nullopt;
  const char* what = timeout ? " Reached time limit" : failure(m.state) ? " Failed" : " Ended";
  return one_line(head + what + ", Run time " + duration(m.seconds) + ", " + std::string(to_string(m.state)) +
                  ", ExitCode " + std::to_string(m.exit_code));
}

Mailer::~Mailer() { reap(); }

bool Mailer::available() const { return !sendmail_.empty() && ::access(sendmail_.c_str(), X_OK) == 0; }

bool Mailer::send(const std::string& to, const std::string& subject) {
  if (!available() || to.empty() || to[0] == '-') return false;
  int in[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  // -oi: a line of a single dot does not end the message. The recipients are arguments
  // (after --, so none is read as an option), as sbatch's --mail-user lists them.
  std::vector<std::string> argv{sendmail_, "-oi", "--", to};
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, sendmail_.c_str(), &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]);
  if (rc != 0) {
    ::close(in[1]);
    return false;
  }
  running_.push_back(pid);
  // A few hundred bytes: the pipe holds them whether sendmail has read yet or not.
  const std::string message = "To: " + one_line(to) + "\nSubject: " + subject + "\n\n";
  ::fcntl(in[1], F_SETFL, O_NONBLOCK);
  const bool written = ::write(in[1], message.data(), message.size()) == static_cast<ssize_t>(message.size());
  ::close(in[1]);
  return written;
}

void Mailer::reap() {
  std::erase_if(running_, [](pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) != 0; });
}

}  // namespace yard
