// The daemon's flows on the wire (protocol/messages.h has the codec): the flows it holds,
// one flow with its steps, and the digests it knows of files (a client taking a flow's
// keys reads only the inputs that changed). A flow itself is submitted with submit_many.
//   {"op":"flows","limit":N}       -> {"ok":true,"flows":[{FlowRecord}...]}   newest first
//   {"op":"flow","id":N}           -> {"ok":true,"flow":{FlowRecord},"steps":[{FlowStepRecord}...]}
//   {"op":"digests","paths":[...]} -> {"ok":true,"digests":[{path,size,mtime_ns,inode,digest}...]}
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/flow_record.h"

namespace yard {

struct FlowsRequest {
  std::int64_t limit = 0;  // 0: all
};
struct FlowsReply {
  std::vector<FlowRecord> flows;
};

struct FlowRequest {
  std::int64_t id = 0;
};
struct FlowReply {
  FlowRecord flow;
  std::vector<FlowStepRecord> steps;
};

struct DigestsRequest {
  std::vector<std::string> paths;
};
struct DigestsReply {
  std::vector<FileDigest> digests;  // one per path, in order; digest "" when unknown
};

nlohmann::json flow_to_wire(const FlowRecord& f);
FlowRecord flow_from_wire(const nlohmann::json& j);
nlohmann::json step_to_wire(const FlowStepRecord& s);
FlowStepRecord step_from_wire(const nlohmann::json& j);
nlohmann::json digest_to_wire(const FileDigest& d);
FileDigest digest_from_wire(const nlohmann::json& j);

}  // namespace yard
