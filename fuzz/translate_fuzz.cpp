// libFuzzer target for `yard translate`: a script of arbitrary bytes read as the kind its
// first byte chooses (or the kind it has), written for every target and read again. None
// may crash or hang; a translation of a script that was read is read back by the target's
// own reader (whatever the target cannot say is a warning, never an unreadable script),
// and its body comes through byte for byte. What the target's reader reads back keeps the
// meaning of the output and error files, the name, the environment, the directory and the
// account, unless a warning names the option: no value runs into the next line, no '$' or
// % of a value's own is taken for the target's variable, and --export NONE or a list
// stays one. Messages name the script.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/output_pattern.h"
#include "backends/all_languages.h"
#include "translate/script_parts.h"
#include "translate/translate.h"
#include "jobtext/directive_writer.h"

namespace {

using yard::Result;
using namespace yard;
using namespace yard::jobtext;
using namespace yard::translate;

void check(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "%s\n", what.c_str());
  std::abort();
}

// A path is a directory when its length says so; the translation is read back on the same
// file system, where those paths are directories still (the body keeps the directives of
// a reader that reads them there) and no other is.
std::set<std::string> directories;
bool is_directory(const std::string& path) {
  if (path.size() % 3 != 0) return false;
  directories.insert(path);
  return true;
}
bool was_directory(const std::string& path) { return directories.count(path) > 0; }

constexpr std::string_view kFrom[] = {"", "slurm", "pbs", "torque", "lsf", "sge", "oar", "htcondor", "flux"};
const std::string kExecutable = "#!/bin/sh\n# the job\necho from the executable\n";

// The file a job writes to: every pattern put in (core/output_pattern.h), "./" at its start
// dropped (PBS's writer adds it before HOST:).
std::string file(const std::string& path) {
  const std::string f = yard::expand_output_pattern(path, {7, "name", 5, 3, "user", "node"});
  return f.starts_with("./") ? f.substr(2) : f;
}

// --export as what the job gets: ALL or not, and the variables in any order, each once
// (NONE: none; with ALL, a name without a value adds nothing). Grid Engine adds up -v
// lines: a #$ line kept in the body gives its own again.
std::string environment(const std::string& exports) {
  const Exports e = exports_of(exports);
  std::vector<std::string> variables = e.variables;
  if (e.all) std::erase_if(variables, [](const std::string& v) { return v.find('=') == std::string::npos; });
  std::sort(variables.begin(), variables.end());
  variables.erase(std::unique(variables.begin(), variables.end()), variables.end());
  std::string out = e.all ? "ALL" : "";
  for (const auto& v : variables) out += "," + v;
  return out;
}

// Whether the translation warned about `option`'s value: a loss naming it, or a line left
// out whole (a line break, a backslash at its end).
bool warned(const Translation& t, const std::string& option) {
  for (const auto& w : t.warnings)
    if (w.find("--" + option) != std::string::npos || w.find("(a line break)") != std::string::npos ||
        w.find("ending in a backslash") != std::string::npos)
      return true;
  return false;
}

// The job read back from the translation is the job read first, but for what was warned
// about.
void same_job(const Job& first, const Job& back, const Translation& t, std::string_view target) {
  auto same = [&](const std::string& option, const std::string& a, const std::string& b) {
    check(a == b || warned(t, option), std::string(target) + ": --" + option + " '" + a + "' came back as '" + b +
                                           "' without a warning\n--- translation:\n" + t.output);
  };
  const yard::JobSpec &a = first.spec, &b = back.spec;
  // A Slurm path ending in '/' names no file; the targets' readers put their own in it.
  if (!a.stdout_path.ends_with('/')) same("output", file(a.stdout_path), file(b.stdout_path));
  if (!a.stderr_path.ends_with('/')) same("error", file(a.stderr_path), file(b.stderr_path));
  if (first.name_given) same("job-name", a.name, b.name);
  same("export", environment(first.exports), environment(back.exports));
  same("chdir", first.chdir, back.chdir);
  same("account", a.account, b.account);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string from(kFrom[data[0] % 9]);
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const ScriptLanguages& languages = all_script_languages();
  const ScriptLanguage* named = languages.find(from);
  bool description = named && !named->reads_scripts();
  for (const auto& l : languages.all()) description = description || (from.empty() && l->is_description(text));
  const std::string origin = description ? "fuzz.sub" : "fuzz.sh";
  // A description's executable is fuzz.sh; a script is its own.
  const Loader load = [&](const std::string& path) -> Result<std::string> {
    if (path == "fuzz.sh") return description ? kExecutable : text;
    return yard::err("cannot read " + path);
  };
  directories.clear();
  auto first = read_job(languages, text, origin, from, load, is_directory);
  if (!first) {
    check(first.error().rfind(origin, 0) == 0, "a message that does not name the script: " + first.error());
    return 0;
  }
  const std::string script = first->job.spec.script;
  const std::string& kind = first->kind;
  const ScriptLanguage* read_as = languages.find(languages.find(kind)->family());
  const std::string body = split_script(languages, script, read_as).body;
  for (const std::string& target : languages.names()) {
    auto t = yard::translate::translate(languages, {text, origin, from, target, "", ""}, load, is_directory);
    if (!t) {  // only a body the target would read as its own directives is refused
      check(t.error().find("would read this line") != std::string::npos, "translate refused: " + t.error());
      continue;
    }
    const bool htcondor = !languages.find(target)->writes_scripts();
    const Loader again = [&](const std::string& path) -> Result<std::string> {
      if (path == "fuzz.sh") return script;
      return yard::err("cannot read " + path);
    };
    auto second = read_job(languages, t->output, htcondor ? "fuzz.sub" : "fuzz.sh", target, again, was_directory);
    check(second.ok(), std::string(target) + ": the translation cannot be read back: " +
                           (second ? std::string() : second.error()) + "\n--- translation:\n" + t->output);
    check(htcondor || t->output.ends_with(body), std::string(target) + ": the body changed");
    // A '$' of the job's own is $(DOLLAR) in a description: no macro is left for HTCondor.
    for (const auto& w : second->warnings)
      check(!htcondor || w.find("HTCondor puts a value in for") == std::string::npos,
            "htcondor: a macro the writer left: " + w + "\n--- translation:\n" + t->output);
    same_job(first->job, second->job, *t, target);
    for (const auto& w : t->warnings) check(w.rfind(origin, 0) == 0 || w.rfind("fuzz.sh", 0) == 0, "warning: " + w);
  }
  return 0;
}
