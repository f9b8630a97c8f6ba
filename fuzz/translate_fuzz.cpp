// libFuzzer target for `yard translate`: a script of arbitrary bytes read as the kind its
// first byte chooses (or the kind it has), written for every target and read again. None
// may crash or hang; a translation of a script that was read is read back by the target's
// own reader (whatever the target cannot say is a warning, never an unreadable script),
// and its body comes through byte for byte. Messages name the script.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "translate/htcondor_reader.h"
#include "translate/script_parts.h"
#include "translate/translate.h"

namespace {

using yard::Result;
using namespace yard::translate;

void check(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "%s\n", what.c_str());
  std::abort();
}

bool is_directory(const std::string& path) { return path.size() % 3 == 0; }

constexpr std::string_view kFrom[] = {"", "slurm", "pbs", "torque", "lsf", "sge", "oar", "htcondor", "flux"};
const std::string kExecutable = "#!/bin/sh\n# the job\necho from the executable\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string from(kFrom[data[0] % 9]);
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const bool description = from == "htcondor" || (from.empty() && is_submit_description(text));
  const std::string origin = description ? "fuzz.sub" : "fuzz.sh";
  // A description's executable is fuzz.sh; a script is its own.
  const Loader load = [&](const std::string& path) -> Result<std::string> {
    if (path == "fuzz.sh") return description ? kExecutable : text;
    return yard::err("cannot read " + path);
  };
  auto first = read_job(text, origin, from, load, is_directory);
  if (!first) {
    check(first.error().rfind(origin, 0) == 0, "a message that does not name the script: " + first.error());
    return 0;
  }
  const std::string script = first->job.spec.script;
  const std::string& kind = first->kind;
  const std::string body = split_script(script, kind == "torque" ? "pbs" : kind == "htcondor" ? "" : kind).body;
  for (std::string_view target : kKinds) {
    auto t = translate({text, origin, from, std::string(target), ""}, load, is_directory);
    if (!t) {  // only a body the target would read as its own directives is refused
      check(t.error().find("would read this line") != std::string::npos, "translate refused: " + t.error());
      continue;
    }
    const bool htcondor = target == "htcondor";
    const Loader again = [&](const std::string& path) -> Result<std::string> {
      if (path == "fuzz.sh") return script;
      return yard::err("cannot read " + path);
    };
    auto second = read_job(t->output, htcondor ? "fuzz.sub" : "fuzz.sh", target, again, is_directory);
    check(second.ok(), std::string(target) + ": the translation cannot be read back: " +
                           (second ? std::string() : second.error()) + "\n--- translation:\n" + t->output);
    check(htcondor || t->output.ends_with(body), std::string(target) + ": the body changed");
    for (const auto& w : t->warnings) check(w.rfind(origin, 0) == 0 || w.rfind("fuzz.sh", 0) == 0, "warning: " + w);
  }
  return 0;
}
