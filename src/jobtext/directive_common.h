// What the backends' readers of directives share (src/backends/*/*_directives.h): the
// script's lines, a directive's words, counts, times and sizes said in sbatch's words,
// output paths with the scheduler's variables as yard's patterns, and messages that name
// the script, the line and the value.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "jobtext/script_language.h"  // TranslatedDirectives

namespace yard::directives {

// A count such as 4 or 16: digits only, at most 9 of them; -1 for anything else.
long long count(std::string_view s);
inline long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }  // a >= 0, b > 0
constexpr long long kMaxCount = 1'000'000'000;  // chunks, nodes, tasks added up: beyond any machine

// Seconds as sbatch's D-HH:MM:SS.
std::string sbatch_time(long long seconds);

// [[hours:]minutes:]seconds[.fraction] as whole seconds (a fraction counts as one more);
// -1 for anything else.
long long clock_seconds(std::string_view v);

// A size: a number (digits, a fraction allowed) and a unit b, k, kb, m, mb, g, gb, t, tb,
// p, pb in any case, powers of 1024; a number alone counts `bare_bytes` bytes a unit. As
// kibibytes, rounded up (at least 1), or an error for anything else or above 1 EiB.
Result<long long> size_kib(std::string_view v, long double bare_bytes);
std::string kib(long long kibibytes);  // "2048K", a size sbatch reads

// A directive's words as submit commands split them: ' and " group (nothing is escaped
// inside them), a backslash outside quotes takes the next character as it is, and an
// unquoted word starting with # begins a comment to the end of the line.
Result<std::vector<std::string>> split_words(std::string_view text);

// The script's lines; an error naming the script for a NUL byte or a DOS line break.
Result<std::vector<std::string_view>> script_lines(std::string_view script, std::string_view origin);

// `path` with each of `tokens` (the scheduler's variables or patterns) replaced by its
// yard pattern, and every other '%' doubled so that it stays a '%'.
std::string with_patterns(std::string_view path, const std::vector<std::pair<std::string, std::string>>& tokens);

// An --array value checked as yard reads it; the reason otherwise.
Status check_array(std::string_view spec);

// TYPE:ID[:ID...][,TYPE:ID...] with TYPE afterok, afterany or afternotok, an ID digits or
// digits and a server's name (12.server): as --dependency's value, or why not.
Result<std::string> dependency(std::string_view text);

// NAME[=VALUE] items separated by commas, blanks around them dropped, ' and " quoting
// (a list of variables to pass to the job); an error for a value holding a comma, which
// --export cannot.
Result<std::vector<std::string>> variable_list(std::string_view text);

// An output file: `path` (already in yard's patterns), or `in_directory` inside it when
// `raw` names a directory (ends in '/' or `is_directory` says so).
std::string output_file(const std::string& path, const std::string& raw, const std::string& in_directory,
                        bool (*is_directory)(const std::string&));

// Errors and warnings naming the script, the line and the kind of directive ("#JOB").
class Messages {
 public:
  Messages(std::string_view origin, std::string kind) : origin_(origin), kind_(std::move(kind)) {}
  void at(int line) { line_ = line; }
  int line() const { return line_; }
  std::string_view origin() const { return origin_; }
  // "job.sh:4: in #JOB directives: -W 9x: expected [HH:]MM"
  Error fail(const std::string& what) const;
  // "job.sh:4: #JOB -x: the job does not get its hosts to itself; ignored"
  void warn(const std::string& what, const std::string& why);
  std::vector<std::string> warnings;
  std::vector<std::string> outside;  // TranslatedDirectives::outside_warnings

 private:
  std::string_view origin_;
  std::string kind_;
  int line_ = 0;
};

// Appends one line's sbatch words to `out` (nothing for none).
void add_line(TranslatedDirectives& out, int line, std::vector<std::string> words);

// The options that combine across directive lines (resources, the array, the files,
// exports), each said at the line that gave it, so that a warning or an error about one
// names that line: note() where an option is read, put() its words when they are made,
// then into() the directives (in line order, after the lines' own words).
class LineBook {
 public:
  void note(const std::string& what, int line) { at_[what] = line; }
  // At the line noted for `what`, else `fallback` (the last directive line).
  void put(const std::string& what, std::string word, int fallback) {
    const auto it = at_.find(what);
    words_[it != at_.end() ? it->second : fallback].push_back(std::move(word));
  }
  void into(TranslatedDirectives& out) {
    for (auto& [line, words] : words_) add_line(out, line, std::move(words));
    words_.clear();
  }

 private:
  std::map<std::string, int> at_;
  std::map<int, std::vector<std::string>> words_;
};

// "NAME=DIR" for --export: the directory a scheduler's variable names (the one the job
// was submitted from) made absolute against the current one; "" when --export cannot hold
// it (a comma) or the current directory is unknown.
std::string directory_variable(std::string_view name, std::string_view dir);

// One warning (in m.outside) when the script's text reads any of `names` ($NAME or
// ${NAME}), variables the scheduler sets in its jobs and yard does not: which ones, and
// `instead`.
void warn_unset_variables(std::string_view script, const std::vector<std::string_view>& names,
                          const std::string& instead, Messages& m);

}  // namespace yard::directives
