// `yard submit`'s words to SubmitFlags, in its three modes: an ordinary or heterogeneous
// job from the command line, a batch script with #SBATCH directives (submit_script.cpp),
// and MPMD app contexts (--launcher mpirun).
#include "jobtext/submit_options.h"

#include <iostream>

#include "jobtext/submit_internal.h"

namespace yard {
namespace {

// Parses the whole job's flags; --help prints the help and sets `help_shown`.
Status parse_or_help(CLI::App& app, const std::vector<std::string>& words, bool& help_shown, SbatchSettings* sbatch) {
  try {
    parse_words(app, words, sbatch);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    help_shown = true;
  } catch (const CLI::ParseError& e) {
    return err(parse_error_text(e));
  }
  return {};
}

// MPMD: app contexts separated by ':', each flags then a program and its arguments.
Result<SubmitFlags> parse_app_contexts(const std::vector<std::string>& args, bool& json, bool& help_shown) {
  const auto contexts = split_app_contexts(args);
  SubmitFlags first;
  for (std::size_t k = 0; k < contexts.size(); ++k) {
    const auto& g = contexts[k];
    if (g.empty() && contexts.size() > 1)
      return err("app context " + std::to_string(k) + " is empty: --launcher mpirun takes -n 1 ./a : -n 2 ./b");
    const auto end = static_cast<std::ptrdiff_t>(flags_end(g));
    std::vector<std::string> flags(g.begin(), g.begin() + end), program(g.begin() + end, g.end());
    if (k == 0) {
      auto app = submit_app(first, json, {}, FlagFilter(flags));
      if (auto st = parse_or_help(*app, flags, help_shown, &first.sbatch_options); !st || help_shown)
        return st ? Result<SubmitFlags>(first) : st.failure();
      first.positional = program;
      continue;
    }
    ComponentFlags c;
    std::vector<std::string> unused;
    try {
      parse_words(*component_app(c, unused), flags, &c.sbatch_options, false);
    } catch (const CLI::ParseError& e) {
      return component_error(k, parse_error_text(e));
    }
    if (program.empty())
      return err("component " + std::to_string(k) + ": no program: --launcher mpirun takes -n 1 ./a : -n 2 ./b");
    c.argv = program;
    first.components.push_back(c);
  }
  return first;
}

}  // namespace

Result<SubmitFlags> parse_submit_args(const std::vector<std::string>& args, const ScriptLanguages& languages,
                                      bool& json, bool& help_shown) {
  if (wants_mpirun(args)) return parse_app_contexts(args, json, help_shown);
  auto groups = split_components(args);
  if (!groups) return groups.failure();
  SubmitFlags first;
  auto app = submit_app(first, json, {{}, languages.script_names()}, FlagFilter((*groups)[0]));
  if (auto st = parse_or_help(*app, (*groups)[0], help_shown, &first.sbatch_options); !st || help_shown)
    return st ? Result<SubmitFlags>(first) : st.failure();
  // Components given on the command line; the script, if any, comes after the last.
  for (std::size_t k = 1; k < groups->size(); ++k) {
    ComponentFlags c;
    std::vector<std::string> positional;
    try {
      parse_words(*component_app(c, positional), (*groups)[k], &c.sbatch_options, false);
    } catch (const CLI::ParseError& e) {
      return component_error(k, parse_error_text(e));
    }
    if (!positional.empty()) first.positional = positional;
    first.components.push_back(c);
  }
  if (first.positional.empty()) return first;
  auto script = read_script(first.positional[0]);
  if (!script) return script.failure();
  first.script_text = std::move(*script);
  return merge_script_directives(languages, first, *groups, *first.script_text, json);
}

Result<FlaggedJob> parse_job_flags(const std::vector<std::string>& words, const std::vector<std::string>& command) {
  SubmitFlags f;
  bool json = false;
  auto app = submit_app(f, json, {}, FlagFilter(words));
  try {
    parse_words(*app, words, &f.sbatch_options);
  } catch (const CLI::CallForHelp&) {
    return err("--help: not a job's flag");
  } catch (const CLI::ParseError& e) {
    return err(parse_error_text(e));
  }
  if (!f.positional.empty()) return err("'" + f.positional[0] + "': a job's command is its command: key, not a flag");
  if (json || f.test_only) return err(json ? "--json: not a job's flag" : "--test-only: not a job's flag");
  if (!f.chdir.empty()) return err("--chdir: give the job's chdir: key (relative to the run file)");
  if (!f.directives.empty()) return err("--directives: a job of a run file has no script");
  auto spec = make_spec(f, command);
  if (!spec) return spec.failure();
  return FlaggedJob{std::move(*spec), f.job_class};
}

}  // namespace yard
