#include "core/shell_words.h"

#include <algorithm>
#include <array>

namespace yard {
namespace {

// Characters that make a shell do more than split at spaces (GNU make's sh_chars, and
// more: '=' for an assignment, '%' and '\t' to keep it plain, any control character).
constexpr std::string_view kShellCharacters = "#;\"'*?[]&|<>(){}$`^~!\\=%";

// Builtins and keywords of POSIX shells (GNU make's sh_cmds, with dash's and bash's
// commonest): a program of that name on PATH may differ (dash's echo is not
// coreutils'; pwd's path is the logical one), or not exist.
constexpr std::array<std::string_view, 58> kShellCommands = {
    ".",       ":",      "alias",  "bg",      "break",  "case",   "cd",      "command", "continue", "do",
    "done",    "elif",   "else",   "esac",    "eval",   "exec",   "exit",    "export",  "fc",       "fg",
    "fi",      "for",    "function", "getopts", "hash", "if",     "in",      "jobs",    "let",      "local",
    "login",   "logout", "read",   "readonly", "return", "select", "set",    "shift",   "source",   "test",
    "then",    "time",   "times",  "trap",    "type",   "typeset", "ulimit", "umask",   "unalias",  "unset",
    "until",   "wait",   "while",  "declare", "printf", "echo",    "pwd",    "kill"};

}  // namespace

std::optional<std::vector<std::string>> simple_shell_words(std::string_view text) {
  for (unsigned char c : text)
    if (c < 0x20 || c == 0x7f || kShellCharacters.find(static_cast<char>(c)) != std::string_view::npos)
      return std::nullopt;
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t start = text.find_first_not_of(' ', at);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(text.find(' ', start), text.size());
    words.emplace_back(text.substr(start, end - start));
    at = end;
  }
  if (words.empty()) return std::nullopt;
  if (std::find(kShellCommands.begin(), kShellCommands.end(), words.front()) != kShellCommands.end()) return std::nullopt;
  return words;
}

std::vector<std::string> without_needless_shell(const std::vector<std::string>& argv) {
  if (argv.size() == 3 && argv[0] == "/bin/sh" && argv[1] == "-c")
    if (auto words = simple_shell_words(argv[2])) return std::move(*words);
  return argv;
}

}  // namespace yard
