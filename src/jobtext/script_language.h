// A scheduler's script language, and the registry of them: everything yard knows of how
// one scheduler's batch scripts carry a job, in one entry that the scheduler's folder
// registers (src/backends/<name>/<name>_language.cpp, with one yard_language() call in its
// CMakeLists.txt; backends/all_languages.h gives them all). `yard submit --directives`,
// `yard translate --from/--to`, the man page and the completions all take their names
// and words from here, so that nothing outside a scheduler's folder writes its name.
//
// A language reads its directives into sbatch's words (what yard submit parses), writes
// a job's directives in its own words (what yard translate and the scheduler's backend
// put in a script), and says how its scripts are laid out: which lines are directives,
// where its reader stops, what it reads after the first command.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/batch_directives.h"
#include "core/result.h"
#include "core/setting_doc.h"
#include "jobtext/script_job.h"

namespace yard {

// A script's directives said in sbatch's words, with the reader's warnings.
struct TranslatedDirectives {
  ScriptDirectives directives;  // in sbatch's words, one line per directive line
  std::vector<std::string> warnings;  // "job.sh:4: #$ -notify: no equivalent in yard; ignored"
  // What holds only where the script does not run under its own scheduler: the variables
  // that scheduler sets in its jobs, its own commands ("job.sh: the script reads
  // $SLURM_ARRAY_TASK_ID, which yard does not set; ..."). Not said of a job sent to it.
  std::vector<std::string> outside_warnings;
};

// A job described by a file that is not the script (a submit description): the
// directives it gives, and the executable it names (the script).
struct JobDescription {
  TranslatedDirectives directives;
  std::string executable;  // as written
  int executable_line = 0;
};

using IsDirectory = bool (*)(const std::string&);

// Where a translation is written for.
struct WriteContext {
  // The script's path as a description names it (its executable).
  std::string executable;
  // The user's settings directory (~/.config/switchyard): a language whose words depend on
  // the site reads its settings file there (settings_file()); "": its defaults.
  std::string settings_dir;
};

class ScriptLanguage {
 public:
  virtual ~ScriptLanguage() = default;

  // The name --directives, --from and --to take: "slurm".
  virtual std::string_view name() const = 0;
  // For messages: "Slurm".
  virtual std::string_view title() const = 0;
  // How help texts show its directives: "#$".
  virtual std::string_view directive_word() const = 0;
  // The scheduler whose reader reads these scripts: a translation between two languages
  // of one family keeps the script's own lines (one scheduler's scripts may be another's).
  virtual std::string_view family() const { return name(); }
  // Its backend's settings file in yard's configuration directory ("slurm.yaml"), "" for none.
  virtual std::string_view settings_file() const { return ""; }
  // The keys of that file that are this scheduler's own (a parallel environment's name), beside
  // every cluster backend's (core/setting_doc.h's kClusterSettings).
  virtual std::span<const SettingDoc> own_settings() const { return {}; }

  // --- Reading a batch script (yard submit, yard translate --from) ---
  // Whether yard submit reads scripts of this language (false for a language that describes
  // jobs in a file of its own: translate alone reads it).
  virtual bool reads_scripts() const { return true; }
  // Whether `script` has directives of this language.
  virtual bool has_directives(std::string_view script, std::string_view origin) const = 0;
  // The script's directives in sbatch's words; `is_directory` says whether an output path
  // names a directory. The directives' `kind` names them for messages ("#$"; "" #SBATCH).
  virtual Result<TranslatedDirectives> read_directives(std::string_view script, std::string_view origin,
                                                       IsDirectory is_directory) const = 0;
  // sbatch refuses a script with directives but no #! line: whether this reader does.
  virtual bool needs_interpreter_line() const { return false; }
  // The variable its jobs find the submission directory in (SLURM_SUBMIT_DIR), "" for none.
  virtual std::string_view submit_dir_variable() const { return ""; }

  // --- A job described apart from its script (a submit description) ---
  virtual bool is_description(std::string_view text) const {
    (void)text;
    return false;
  }
  virtual Result<JobDescription> read_description(std::string_view text, std::string_view origin) const;

  // --- How its scripts are laid out (yard translate keeps every other line) ---
  // Whether `line` is one of its directives.
  virtual bool is_directive_line(std::string_view line) const = 0;
  // Whether its reader stops at `line`: a command (neither blank nor a comment).
  virtual bool is_command(std::string_view line) const;
  // Whether a directive line ending in a backslash goes on with the next line.
  virtual bool joins_continued_lines() const { return false; }
  // Whether its directives may follow commands: a group of them ends the block.
  virtual bool directives_follow_commands() const { return false; }
  // Whether its reader reads directive lines after the first command too.
  virtual bool reads_after_commands() const { return false; }
  // The lines of `body` (the first numbered `first_number`) its reader would take as
  // directives of its own: those after the first command, for a reader that reads them.
  virtual std::vector<int> directives_in_body(std::string_view body, int first_number) const;
  // Whether its reader reads the directive lines of `script` at all (a reader may read none
  // when the first line is not a comment).
  virtual bool reads_lines_of(std::string_view script) const {
    (void)script;
    return true;
  }
  // Whether a comment line the script keeps may stay as it is (a reader may take a comment
  // that looks like its sentinel for a directive).
  virtual bool keeps_comment(std::string_view line) const {
    (void)line;
    return true;
  }
  // A line the script must start with before its directives when its own first line is
  // not a comment (for a reader that reads directives from the second line on), or "".
  virtual std::string_view opening_comment() const { return ""; }

  // --- Writing a job in its words (yard translate --to; its backend's batch script) ---
  // Whether what it writes is the script (false: a description naming the script as its
  // executable).
  virtual bool writes_scripts() const { return true; }
  // The job's directive lines, and what its words cannot say (`where`: the description's
  // executable, the site's settings).
  virtual jobtext::Directives write(const jobtext::Job& job, const WriteContext& where) const = 0;
  // Lines for `yard translate --help`'s examples: a command and what it does.
  virtual std::vector<std::string> translate_examples() const { return {}; }
};

// The languages of a build, in the order they were added (the order a script's kinds are
// listed in, and tried in).
class ScriptLanguages {
 public:
  void add(std::unique_ptr<ScriptLanguage> language);
  // By name, or null.
  const ScriptLanguage* find(std::string_view name) const;
  const std::vector<std::unique_ptr<ScriptLanguage>>& all() const { return all_; }
  // Every name, and those whose scripts yard submit reads: "slurm, ...".
  std::vector<std::string> names() const;
  std::vector<std::string> script_names() const;

 private:
  std::vector<std::unique_ptr<ScriptLanguage>> all_;
};

// Whether `line` starts with `tag` in column 1 ("#SBATCH", "#$"), then a blank,
// or ends there when `alone_allowed`.
bool directive_in_column_one(std::string_view line, std::string_view tag, bool alone_allowed);

// "a, b, c" for messages and help texts.
std::string joined(const std::vector<std::string>& names);

}  // namespace yard
