// What the writers of every target share (src/backends/*/*_writer.cpp): the
// directive lines with their prefix, losses that name the line the option came from,
// values quoted for a reader that splits words, sizes, times, index lists, dependencies,
// output paths with the target's own variables, and the check every writer makes of
// what the target has no words for (QOS, job types, components, sbatch's other options).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jobtext/script_job.h"

namespace yard::jobtext {

class Writer {
 public:
  // `title` names the target in losses ("Slurm"); `prefix` starts each line ("#SBATCH";
  // "" for none); `joins_lines`: the target's reader joins a line ending in a backslash
  // to the next, so no value may end in one.
  Writer(const Job& job, std::string_view title, std::string prefix, bool joins_lines);

  const Job& job;
  // The job's resources, its nodes counted as Slurm would from --ntasks-per-node when
  // no --nodes was given (for a target that asks for so many tasks on each node).
  const Resources& res() const { return res_; }
  std::string_view title() const { return title_; }

  // One line: prefix, a blank, `text`.
  void add(const std::string& text);
  // What the target cannot say: `what` ("--gpus 2") at the line that set `option`.
  void lose(std::string_view option, std::string what, std::string why);
  // What the target can say only nearly: written so, and said (Loss::nearest).
  void approximate(std::string_view option, std::string what, std::string why);
  // "... has no X; left out", the commonest loss.
  void lack(std::string_view option, std::string what, std::string_view thing);
  Directives done() &&;

  // What every target but the ones that can say it loses; `handled`: sbatch's other
  // options this writer wrote (exclusive, mail-type, ...).
  struct Says {
    bool qos = false, job_types = false, components = false, append = false, requeue = false, priority = true,
         node_range = false, gres = false;
    std::vector<std::string_view> handled;
  };
  void lose_unsaid(const Says& says);

 private:
  Resources res_;
  std::string prefix_;
  std::string_view title_;
  bool continued_;  // the target's reader joins a line ending in a backslash to the next
  Directives out_;
};

// The job as the readers of every target but Slurm can take it back: they count in at most
// nine digits (tasks, CPUs, GPUs, seconds, job ids, indices, a priority), so a larger
// number is brought within (a loss: it is beyond any machine or any queue's lifetime).
Job bounded(const Job& job, std::vector<Loss>& losses);
// What `write` writes for the job brought within those bounds, the bounds' losses first.
template <class Write>
Directives within_bounds(const Job& job, Write&& write) {
  std::vector<Loss> losses;
  const Job b = bounded(job, losses);
  Directives d = write(b);
  d.losses.insert(d.losses.begin(), losses.begin(), losses.end());
  return d;
}

// A value for a reader that splits words as a shell does (sbatch's and most others'): as
// it is when nothing in it is special, else in single quotes; one holding a ' in double
// quotes, or in single quotes with each ' in double quotes. Never a backslash.
std::string quoted(std::string_view value);

// `bytes` in the largest of `units` (KiB, MiB, GiB, TiB) that holds it whole, rounded up
// to a KiB: size_in(4 << 30, {"K", "M", "G", "T"}) is "4G"; a number of more than nine
// digits goes on to the next unit, rounded up (readers take nine).
std::string size_in(std::uint64_t bytes, const std::vector<std::string_view>& units);

// "8 tasks of 2 CPUs", "1 task of 4 CPUs": what a target that counts CPUs alone folds.
std::string tasks_of_cpus(const Resources& r);

// The job's memory as its option: "--mem 4G", "--mem-per-cpu 1G".
std::string memory_option(const Resources& r);

// Seconds as H:MM:SS (hours unbounded).
std::string hms(std::int64_t seconds);

// The step of indices that form one range (1 for a single index), or nullopt.
std::optional<std::int64_t> regular_step(const std::vector<std::int64_t>& indices);
// Indices as ranges without a step: "1-5,7,9-10".
std::string idset(const std::vector<std::int64_t>& indices);

// The job's dependencies grouped by kind in the order first given: afterok -> {1, 2}.
std::vector<std::pair<DependencyKind, std::vector<std::int64_t>>> dependencies_by_kind(const std::vector<Dependency>& deps);
// As sbatch and other readers of the same form take them: "afterok:1:2,afterany:3".
// Joined with '?' for `any` (sbatch's "any one of them").
std::string dependency_text(const std::vector<Dependency>& deps, bool any = false);

// A '?' list (any one suffices) where the target holds a job until all are met: a loss.
void all_for_any(Writer& w);

// A yard output path (core/output_pattern.h) in the target's words: each %-sequence as
// `token` says for its letter (nullopt: the target has none; it is left out, a loss; a
// `note` set: the nearest the target has, a loss saying why),
// "%%" as `percent`, every other character as it is, or as `literal` writes the path's own
// text (the target's way of writing a '$' it would expand). `option` is "output" or "error".
// `read_as`: the words the target's reader puts values in for wherever they stand in a path
// ($HOME, %J), in the order it tries them; where the path's own text forms one, the path
// is written as it is and the target puts a value in: a loss.
using TokenMap = std::function<std::optional<std::string>(char letter, std::string& note)>;
std::string target_path(Writer& w, std::string_view option, std::string_view path, const TokenMap& token,
                        std::string_view percent = "%", const std::vector<std::string_view>& read_as = {},
                        std::string (*literal)(std::string_view) = nullptr);

// sbatch's --mail-type as the letters of a -m option, for the targets that take one: b
// begin, e end, a abort (FAIL), "n" for NONE; a type none of them has is a loss.
std::string mail_letters(Writer& w, std::string_view types);

// -m LETTERS, -M USERS and -r y|n, for the targets whose submit command takes all three.
void mail_and_rerun_letters(Writer& w);

// --export as a list of NAME[=VALUE] without ALL, and whether ALL began it; nullopt for NONE.
struct Exports {
  bool all = true, none = false;
  std::vector<std::string> variables;
};
Exports exports_of(std::string_view text);
// The variables of --export that a submit command's list of variables holds (no quotes in
// them, no blanks at their ends); each other one is a loss.
std::vector<std::string> listable(Writer& w, const Exports& e);

}  // namespace yard::jobtext
