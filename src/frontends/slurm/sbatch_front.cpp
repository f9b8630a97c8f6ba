// sbatch: a batch script (its #SBATCH lines read as sbatch reads them, the command line
// winning), a script on stdin, or --wrap, submitted to yard: `Submitted batch job N`, or
// `N` with --parsable. `-p NAME` where NAME is a backend of yard's (as sinfo lists them)
// picks that backend; any other partition goes to the default backend as its partition.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

#include "backends/all_languages.h"
#include "backends/backend_names.h"
#include "core/slurm_variables.h"
#include "frontends/slurm/front.h"
#include "jobtext/submit_options.h"

namespace yard::slurm_front {
namespace {

// yard's own flags, which sbatch does not have.
bool yard_only(const std::string& w) {
  for (const char* f : {"--backend", "--class", "--json", "--directives", "--launcher", "--het-group"})
    if (w == f || w.rfind(std::string(f) + "=", 0) == 0) return true;
  return false;
}

bool is_parsable(const std::string& w) {
  const std::string full = "--parsable";
  return w.size() >= 6 && full.compare(0, w.size(), w) == 0;
}

// The words before the script (its own arguments are not sbatch's).
std::size_t script_at(const Args& args, const SubmitFlags& f) {
  if (f.positional.empty()) return args.size();
  for (std::size_t i = args.size(); i-- > 0;)
    if (args[i] == f.positional[0] && args.size() - i == f.positional.size()) return i;
  return args.size();
}

// What sbatch refuses in a script before it reaches the controller, in its words ("" if
// nothing).
std::string script_refusal(const std::string& text) {
  if (text.empty()) return "Batch script is empty!";
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return "Batch script contains only whitespace!";
  if (text.rfind("#!", 0) != 0)
    return "This does not look like a batch script.  The first\nsbatch: error: line must start with #! followed by "
           "the path to an interpreter.\nsbatch: error: For instance: #!/bin/sh";
  if (text.find('\0') != std::string::npos)
    return "The Slurm controller does not allow scripts that\nsbatch: error: contain a NULL character '\\0'.";
  if (text.find("\r\n") != std::string::npos)
    return "Batch script contains DOS line breaks (\\r\\n)\nsbatch: error: instead of expected UNIX line breaks (\\n).";
  return "";
}

// A script given on stdin, kept in a file of its own while it is read.
struct StdinScript {
  std::string path;
  ~StdinScript() {
    if (!path.empty()) ::unlink(path.c_str());
  }
};

}  // namespace

int sbatch_main(const Args& given) {
  if (!given.empty() && (given[0] == "-V" || given[0] == "--version")) {
    std::cout << "slurm 22.05.8 (yard front end)\n";
    return 0;
  }
  Args args{"--directives", "slurm"};
  args.insert(args.end(), given.begin(), given.end());
  bool json = false, help = false;
  auto flags = parse_submit_args(args, all_script_languages(), json, help);
  if (help) return 0;
  if (!flags) {
    // sbatch checks --wrap against script arguments before it reads any script.
    if (std::any_of(given.begin(), given.end(), [](const std::string& w) { return w.rfind("--wrap", 0) == 0; }))
      return fail("sbatch", "Script arguments not permitted with --wrap option");
    std::cerr << "sbatch: error: " << flags.error() << "\n";
    return 255;
  }
  const std::size_t end = script_at(args, *flags);
  bool parsable = false;
  for (std::size_t i = 2; i < end; ++i) {
    if (yard_only(args[i])) {
      std::cerr << "sbatch: unrecognized option '" << args[i] << "'\nTry \"sbatch --help\" for more information\n";
      return 255;  // sbatch's status for a bad option
    }
    parsable = parsable || is_parsable(args[i]);
  }
  bool wrap = false;
  for (const auto& [name, value] : flags->sbatch_options) wrap = wrap || name == "wrap";
  if (wrap && !flags->positional.empty()) return fail("sbatch", "Script arguments not permitted with --wrap option");
  if (!flags->positional.empty())
    if (auto bad = script_refusal(flags->script_text.value_or("")); !bad.empty()) return fail("sbatch", bad);
  StdinScript stdin_script;
  if (flags->positional.empty() && !wrap) {
    // sbatch reads the script from its standard input when none is named.
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (auto bad = script_refusal(text); !bad.empty()) return fail("sbatch", bad);
    char path[] = "/tmp/sbatch-stdin-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd < 0) return fail("sbatch", "cannot keep the script read from stdin in /tmp");
    stdin_script.path = path;
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!written) return fail("sbatch", "cannot keep the script read from stdin in /tmp");
    args.push_back(path);
    flags = parse_submit_args(args, all_script_languages(), json, help);
    if (!flags) return fail("sbatch", flags.error());
    if (flags->name.empty()) flags->name = "sbatch";
  }
  const auto& backends = backend_names();
  if (!flags->partition.empty() && flags->backend.empty() &&
      std::find(backends.begin(), backends.end(), flags->partition) != backends.end()) {
    flags->backend = flags->partition;
    flags->partition.clear();
  }
  // sbatch's default output file, where yard's own would be yard-%j.out.
  if (flags->output.empty()) flags->output = flags->array.empty() ? "slurm-%j.out" : "slurm-%A_%a.out";
  auto spec = make_spec(*flags, {});
  if (!spec) return fail("sbatch", spec.error());
  spec->env[kSlurmVariablesWanted] = "1";
  bool wait = false;
  for (const auto& [name, value] : flags->sbatch_options) wait = wait || name == "wait";
  auto c = client("sbatch");
  SubmitRequest request{std::move(*spec), flags->job_class, "", flags->test_only};
  auto reply = c.submit(std::move(request));
  if (!reply) return fail("sbatch", "Batch job submission failed: " + reply.error());
  if (flags->test_only) {
    std::cerr << "sbatch: Job " << 0 << " to start on backend " << (reply->job ? reply->job->backend : "") << "\n";
    return 0;
  }
  const auto id = reply->ids.front();
  if (parsable)
    std::cout << id << "\n";
  else
    std::cout << "Submitted batch job " << id << "\n";
  if (wait) {
    std::cout.flush();
    auto ended = c.wait(WaitRequest{{id}}, 0);
    if (!ended || !*ended) return fail("sbatch", "waiting for job " + std::to_string(id) + ": lost the daemon");
    for (const auto& j : (*ended)->jobs)
      if (j.state != JobState::Completed) return static_cast<int>(j.exit_code.value_or(1) ? j.exit_code.value_or(1) : 1);
  }
  return 0;
}

}  // namespace yard::slurm_front
