#include "local/job_start.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace yard {
namespace {

// Everything the child reads, built before vfork: between vfork and execve the child may
// not allocate (it shares the host's heap) and calls only system calls.
struct Prepared {
  std::vector<std::string> candidates;
  std::vector<char*> argv, envp;
  std::vector<char*> sh_argv;  // /bin/sh <file> <args>: for a file that is not an executable format
  std::string chdir_error, stdout_error, stderr_error, cgroup_error, exec_error;
  std::string stdout_dir, stderr_dir;  // the directories the output files are in, absolute
  std::string stdout_planted_error, stderr_planted_error;
  cpu_set_t cpus;
  bool pin = false;
  pid_t host = 0;  // the process starting the job
};

// The child reports a failure as "<what>: <strerror>" on `err_fd`, then exits 127.
[[noreturn]] void child_fail(int err_fd, const std::string& what) {
  const int e = errno;
  (void)!::write(err_fd, what.data(), what.size());
  const char* s = ::strerror(e);
  (void)!::write(err_fd, ": ", 2);
  (void)!::write(err_fd, s, std::strlen(s));
  ::_exit(127);
}

[[noreturn]] void child(const LaunchPlan& p, Prepared& x, int err_fd, const JobGroups& groups, const rlimit* nofile) {
  ::setpgid(0, 0);
  // A job whose host dies goes with it, even before the host could record its pid (the
  // record is how the daemon finds what is left of a LOST job): the host is stopped only
  // until the exec, and may be killed in the moment after it. Checked once more in case
  // it died before this line.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != x.host) ::_exit(127);
  if (nofile) ::setrlimit(RLIMIT_NOFILE, nofile);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // The child has its own copy of the dispositions (no CLONE_SIGHAND); execve keeps
  // ignored signals ignored, so the job starts with the defaults of what the host ignores.
  for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2})  // job_host.cpp's list
    ::signal(s, SIG_DFL);
  if (groups.memory_procs_fd >= 0 && ::write(groups.memory_procs_fd, "0", 1) != 1) child_fail(err_fd, x.cgroup_error);
  // Best effort: a job that cannot join its tracking group is still tracked by the
  // host's fallback (see process_tracking.h).
  if (groups.tracking_procs_fd >= 0) (void)!::write(groups.tracking_procs_fd, "0", 1);
  if (x.pin) ::sched_setaffinity(0, sizeof x.cpus, &x.cpus);  // best effort: a declared larger node may not map
  if (::chdir(p.workdir.c_str()) != 0) child_fail(err_fd, x.chdir_error);
  int in = ::open("/dev/null", O_RDONLY);
  // As slurmstepd: O_APPEND either way (writers sharing a file do not overwrite each
  // other), and O_TRUNC unless --open-mode=append, at every start, requeues included.
  const int mode = O_WRONLY | O_CREAT | O_APPEND | (p.append_output ? 0 : O_TRUNC);
  if (is_planted_link(p.stdout_path.c_str(), x.stdout_dir.c_str())) {
    errno = EACCES;
    child_fail(err_fd, x.stdout_planted_error);
  }
  int out = ::open(p.stdout_path.c_str(), mode, 0644);
  if (out < 0) child_fail(err_fd, x.stdout_error);
  int errfile = out;
  if (p.stderr_path != p.stdout_path) {
    if (is_planted_link(p.stderr_path.c_str(), x.stderr_dir.c_str())) {
      errno = EACCES;
      child_fail(err_fd, x.stderr_planted_error);
    }
    errfile = ::open(p.stderr_path.c_str(), mode, 0644);
    if (errfile < 0) child_fail(err_fd, x.stderr_error);
  }
  ::dup2(in, 0);
  ::dup2(out, 1);
  ::dup2(errfile, 2);
  // As execvpe: the first candidate that runs; a permission error is reported over a
  // later "not found".
  int first_error = 0;
  for (const auto& c : x.candidates) {
    ::execve(c.c_str(), x.argv.data(), x.envp.data());
    if (errno == ENOEXEC) {  // as execvpe: a script without "#!" runs with /bin/sh
      x.sh_argv[1] = const_cast<char*>(c.c_str());
      ::execve("/bin/sh", x.sh_argv.data(), x.envp.data());
    }
    if (errno == EACCES && first_error == 0) first_error = EACCES;
    if (errno != ENOENT && errno != ENOTDIR && errno != EACCES) break;
  }
  if (first_error) errno = first_error;
  child_fail(err_fd, x.exec_error);
}

}  // namespace

std::string parent_directory(const std::string& path, const std::string& workdir) {
  const std::string full = !path.empty() && path[0] == '/' ? path : workdir + "/" + path;
  const auto slash = full.rfind('/');
  return slash == 0 ? "/" : full.substr(0, slash);
}

bool is_planted_link(const char* path, const char* dir) {
  struct stat link{}, d{};
  if (::lstat(path, &link) != 0 || !S_ISLNK(link.st_mode)) return false;
  if (::stat(dir, &d) != 0 || !(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH)) return false;
  return link.st_uid != ::getuid() && link.st_uid != d.st_uid;
}

std::vector<std::string> command_candidates(const std::string& command, const std::string& path) {
  if (command.find('/') != std::string::npos) return {command};
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    auto colon = path.find(':', start);
    std::string dir = path.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    out.push_back((dir.empty() ? std::string(".") : dir) + "/" + command);  // empty entry: current directory
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return out;
}

StartedJob start_job(const LaunchPlan& p, const JobGroups& groups, const rlimit* nofile) {
  Prepared x;
  std::string path = "/bin:/usr/bin";  // glibc's default when PATH is unset
  for (auto& e : p.env)
    if (e.rfind("PATH=", 0) == 0) path = e.substr(5);
  x.candidates = command_candidates(p.argv[0], path);
  for (auto& a : p.argv) x.argv.push_back(const_cast<char*>(a.c_str()));
  x.argv.push_back(nullptr);
  x.sh_argv.push_back(const_cast<char*>("/bin/sh"));
  x.sh_argv.insert(x.sh_argv.end(), x.argv.begin(), x.argv.end());  // [1] becomes the file found
  for (auto& e : p.env) x.envp.push_back(const_cast<char*>(e.c_str()));
  x.envp.push_back(nullptr);
  x.chdir_error = "cannot enter working directory " + p.workdir;
  x.stdout_error = "cannot open output file " + p.stdout_path;
  x.stderr_error = "cannot open error file " + p.stderr_path;
  x.stdout_dir = parent_directory(p.stdout_path, p.workdir);
  x.stderr_dir = parent_directory(p.stderr_path, p.workdir);
  // As the kernel's fs.protected_symlinks, which a machine may have turned off.
  const std::string planted = " is a symbolic link that another user made in a shared directory; not followed";
  x.stdout_planted_error = "output file " + p.stdout_path + planted;
  x.stderr_planted_error = "error file " + p.stderr_path + planted;
  x.cgroup_error = "cannot join the job's memory cgroup";
  x.exec_error = "cannot run '" + p.argv[0] + "'";
  x.host = ::getpid();
  CPU_ZERO(&x.cpus);
  for (int pu : p.pus)
    if (pu >= 0 && pu < CPU_SETSIZE) {
      CPU_SET(static_cast<std::size_t>(pu), &x.cpus);
      x.pin = true;
    }

  int errpipe[2];
  if (::pipe2(errpipe, O_CLOEXEC) != 0) return {-1, std::string("cannot create a pipe: ") + std::strerror(errno)};
  StartedJob s;
  s.pid = ::vfork();
  if (s.pid == 0) child(p, x, errpipe[1], groups, nofile);
  const int fork_errno = errno;
  ::close(errpipe[1]);
  if (s.pid < 0) {
    ::close(errpipe[0]);
    return {-1, std::string("cannot fork the job: ") + std::strerror(fork_errno)};
  }
  ::setpgid(s.pid, s.pid);  // also here, so killpg works whatever the child did
  // EOF once the child has exec'd (the write end is close-on-exec), else its message.
  char buf[1024];
  ssize_t n;
  while ((n = ::read(errpipe[0], buf, sizeof buf)) > 0) s.error.append(buf, static_cast<std::size_t>(n));
  ::close(errpipe[0]);
  return s;
}

}  // namespace yard
