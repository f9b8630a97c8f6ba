// HTCondor's job language: a submit description, which names the script as its
// executable, read by htcondor_reader.h and written by htcondor_writer.cpp. yard translate
// alone reads it (yard submit takes scripts).
#pragma once

#include <string>
#include <string_view>

#include "jobtext/script_language.h"

namespace yard {

inline constexpr std::string_view kHtcondorTitle = "HTCondor";

// Registers "htcondor" (yard_language() in this folder's CMakeLists.txt).
void register_htcondor_language(ScriptLanguages& languages);

namespace jobtext {
// Variables of the job's environment the description sets (none by default): its
// cluster.proc, an array element's index.
struct JobIdVariables {
  std::string_view id, index;
};
// htcondor_writer.cpp: a submit description whose executable is `executable`.
Directives write_htcondor(const Job& job, const std::string& executable, const JobIdVariables& variables = {});
}  // namespace jobtext

}  // namespace yard
