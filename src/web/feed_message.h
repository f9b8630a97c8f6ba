// One state change of a job of a run, as the web service's event feed tells it to pages.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace yard::web {

// Rendered once for every stream that sends it.
struct FeedMessage {
  std::int64_t id = 0;  // the daemon's event id
  std::int64_t run = 0;
  std::int64_t job = 0;
  std::string owner;
  std::string change;    // [event id, run, job, "STATE", time, detail]
  std::size_t tail = 0;  // where "STATE", time, detail] begins in `change`
  std::string run_text;  // the run after it: {"id","state","jobs_by_state"[,"end_time"]}
};

// The part of a change that a span's changes share: "STATE", time, detail].
inline std::string_view shared_part(const FeedMessage& m) { return std::string_view(m.change).substr(m.tail); }

using FeedPtr = std::shared_ptr<const FeedMessage>;

}  // namespace yard::web
