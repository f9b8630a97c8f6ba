#include "core/warning_signal.h"

#include <signal.h>

#include <charconv>
#include <string>

#include "core/text.h"

namespace yard {
namespace {

// The signals a job may be warned with, by name (sbatch takes these and their numbers).
constexpr std::pair<std::string_view, int> kNames[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ABRT", SIGABRT}, {"KILL", SIGKILL},
    {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"URG", SIGURG},
    {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"TTIN", SIGTTIN}, {"TTOU", SIGTTOU},
    {"XCPU", SIGXCPU}, {"XFSZ", SIGXFSZ}, {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF}, {"WINCH", SIGWINCH},
};

Error bad(std::string_view value, const std::string& why) {
  return err("--signal: invalid value '" + std::string(value) + "': " + why +
             " (expected [B:]SIG[@SECONDS], SIG a number or a name such as USR1)");
}

}  // namespace

Result<WarningSignal> parse_warning_signal(std::string_view value) {
  WarningSignal w;
  std::string_view rest = value;
  if (starts_with(rest, "B:")) w.batch_only = true, rest.remove_prefix(2);
  else if (starts_with(rest, "R:")) rest.remove_prefix(2);
  std::string_view sig = rest.substr(0, rest.find('@'));
  if (rest.find('@') != std::string_view::npos) {
    const std::string_view t = rest.substr(rest.find('@') + 1);
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), w.seconds_before);
    if (t.empty() || ec != std::errc() || p != t.data() + t.size() || w.seconds_before < 0 || w.seconds_before > 65535)
      return bad(value, "the time is not a number of seconds from 0 to 65535");
  }
  if (sig.empty()) return bad(value, "no signal");
  if (sig[0] >= '0' && sig[0] <= '9') {
    auto [p, ec] = std::from_chars(sig.data(), sig.data() + sig.size(), w.signal);
    if (ec != std::errc() || p != sig.data() + sig.size() || w.signal < 1 || w.signal > 64)
      return bad(value, "no signal numbered so");
    return w;
  }
  std::string name(sig);
  for (char& c : name) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (starts_with(name, "SIG")) name.erase(0, 3);
  for (auto [n, number] : kNames)
    if (n == name) {
      w.signal = number;
      return w;
    }
  return bad(value, "no signal named so");
}

}  // namespace yard
