// A batch script's job as `yard translate` moves it between schedulers (and a backend
// writes it in its scheduler's words): the JobSpec that
// `yard submit --test-only` would resolve from the script's directives (resources, name,
// files, array, dependencies, queue, account, sbatch's other options), what the spec keeps
// only resolved (the working directory and --export as written), the line each option
// came from, and the script itself, whose body a writer never touches.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/job_spec.h"

namespace yard::jobtext {

struct Job {
  // As yard submit resolves it; `env` holds only the open mode (JobSpec::open_mode), and
  // `script` the script that carries the body (for a description kept apart from its
  // script, the script it names).
  JobSpec spec;
  bool name_given = false;    // else spec.name is the script's file name
  std::string chdir;          // --chdir as written ("": none)
  std::string exports = "ALL";  // --export as written
  std::string script_path;    // the script's file (or the one a description names)
  // The scheduler's variable naming the directory the job was submitted from
  // (SLURM_SUBMIT_DIR, ...) when the script reads it: only that scheduler sets it (yard
  // submit exports some such variables itself; a translation cannot).
  std::string submit_dir_variable;
  // sbatch's other options as given (core/sbatch_options.h): spec.slurm_options and those
  // yard acts on itself (--wait, --nice: spec.priority).
  SbatchSettings options;
  std::map<std::string, int, std::less<>> lines;  // an option's long name -> the line that set it

  int line(std::string_view option) const;  // 0 when no line set it
  // The value of one of sbatch's other options (core/sbatch_options.h), "" if not given;
  // `given` says whether it was.
  std::string option(std::string_view name, bool* given = nullptr) const;
};

// Something a writer could not say in the target's words: "--gpus 2", "<target> has no
// GPU request; left out". Shown as "job.sh:4: --gpus 2: <target> has no ...".
struct Loss {
  int line = 0;
  std::string what;
  std::string why;
  // The nearest the target has was written (a slot's memory rounded up, the slots of a
  // parallel environment): the job runs, a little otherwise. Else it was left out, and
  // a backend writing its own batch script refuses the job instead.
  bool nearest = false;
};

// A writer's answer: the target's directive lines (each ending in '\n'), and what it lost.
struct Directives {
  std::string text;
  std::vector<Loss> losses;
};

}  // namespace yard::jobtext
