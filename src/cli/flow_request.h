// A flow as `yard run` sends it (submit_many with a flow, protocol/messages.h): its steps'
// jobs, each with its key (flow/step_key.h) from the digests of the flow's inputs (those
// the daemon knows for unchanged files, the others read now and sent to be kept), and
// the steps asked to run again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "client/daemon_client.h"
#include "flow/flow.h"

namespace yard {

// The request, or nothing with the reason printed and `rc` set (2: a --rerun name that is
// no step; 1: an input that cannot be read or a daemon that does not answer).
// `command` names the command in messages ("run", "flow why").
std::optional<SubmitManyRequest> flow_request(DaemonClient& client, const Flow& flow, const std::string& run_dir,
                                              const std::vector<std::string>& rerun, int& rc,
                                              const std::string& command = "run");

}  // namespace yard
