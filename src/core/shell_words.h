// A command line given as text (`/bin/sh -c TEXT`: a flow step's `command:` string) that
// needs no shell: plain words, as GNU make decides for its recipes. Running such a
// command directly saves a shell's start per job (on two cores, 10,000 steps of `true`
// took a third longer through /bin/sh). The job is what it was: the same program, the
// same arguments, the same environment, its exit status its own; the text stays the
// job's command everywhere else (its key, `yard status`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace yard {

// The words of `text` when a shell would only split it at spaces and run the first word
// found on PATH: no quote, escape, expansion, glob, redirection, separator, comment or
// assignment, and a first word that is no shell builtin or keyword (`cd`, `exit`, `if`,
// ...). Otherwise (and for empty text) nothing: it needs the shell.
std::optional<std::vector<std::string>> simple_shell_words(std::string_view text);

// `argv` itself, or the words of its text when it is {"/bin/sh", "-c", TEXT} with TEXT
// simple as above.
std::vector<std::string> without_needless_shell(const std::vector<std::string>& argv);

}  // namespace yard
