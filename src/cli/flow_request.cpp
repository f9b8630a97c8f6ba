#include "cli/flow_request.h"

#include <unistd.h>

#include <iostream>
#include <set>

#include "cli/commands.h"
#include "core/file_text.h"
#include "core/text.h"
#include "flow/flow_submission.h"
#include "flow/step_key.h"

namespace yard {
namespace {

// A file this large is named while it is read (a digest takes about a second per GiB).
constexpr std::int64_t kNamedReadBytes = 256ll << 20;

}  // namespace

std::optional<SubmitManyRequest> flow_request(DaemonClient& client, const Flow& flow, const std::string& run_dir,
                                              const std::vector<std::string>& rerun, int& rc,
                                              const std::string& command) {
  const std::string says = "yard " + command + ": ";
  std::set<std::string> again(rerun.begin(), rerun.end());
  for (const auto& name : rerun) {
    bool found = false;
    for (const auto& s : flow.steps) found = found || s.name == name || s.rule == name;
    if (!found) {
      std::cerr << "yard run: --rerun " << escape_for_terminal(name) << ": no step of " << escape_for_terminal(flow.file)
                << " has that name\n";
      rc = kExitBadInput;
      return std::nullopt;
    }
  }
  // The inputs' digests: those the daemon keeps for files unchanged since, the others read.
  const auto inputs = external_inputs(flow);
  std::vector<FileDigest> known;
  if (!inputs.empty()) {
    auto asked = client.digests(DigestsRequest{inputs});
    if (!asked) {
      std::cerr << says << asked.error() << "\n";
      rc = exit_code_for(asked.kind());
      return std::nullopt;
    }
    known = std::move(asked->digests);
  }
  auto request = flow_submission(flow, run_dir, again, known, [&says](const std::string& path, std::int64_t size) {
    if (size >= kNamedReadBytes)
      std::cerr << says << "reading " << escape_for_terminal(path) << " (" << readable_size(static_cast<std::size_t>(size))
                << ") for its digest\n";
  });
  if (!request) {
    std::cerr << says << request.error() << "\n";
    rc = 1;
    return std::nullopt;
  }
  return std::move(*request);
}

}  // namespace yard
