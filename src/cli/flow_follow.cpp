#include "cli/flow_follow.h"

#include <unistd.h>

#include <unordered_map>

#include "core/text.h"
#include "cli/job_view.h"
#include "core/json_text.h"

namespace yard {

Status follow_jobs(DaemonClient& client, const std::vector<std::int64_t>& ids, std::ostream& out, bool json_lines) {
  if (ids.empty()) return {};
  auto ping = client.ping();
  if (!ping) return ping.failure();
  JobQuery query;
  query.ids = ids;
  auto now = client.all_jobs(query);
  if (!now) return now.failure();
  const bool tty = !json_lines && ::isatty(1) != 0;
  std::unordered_map<std::int64_t, JobState> last;
  int done = 0, running = 0, pending = 0, failed = 0;
  const int total = static_cast<int>(now->size());
  auto count = [&](JobState s, int d) {
    if (is_terminal(s)) done += d;
    if (is_terminal(s) && s != JobState::Completed) failed += d;
    if (s == JobState::Running || s == JobState::Unknown) running += d;
    if (s == JobState::Pending) pending += d;
  };
  std::vector<std::int64_t> all;
  all.reserve(now->size());
  for (const auto& j : *now) {
    last[j.id] = j.state;
    count(j.state, +1);
    all.push_back(j.id);
  }
  auto say = [&](const LoggedEvent& e) {
    if (json_lines) {
      nlohmann::json line = event_json(e);
      line["event"] = "job";
      out << dump_json(line) << "\n" << std::flush;
    } else if (!tty) {
      out << escape_for_terminal(e.name) << " " << display_id(e) << " " << to_string(e.event.state)
          << (e.event.detail.empty() ? "" : " (" + escape_for_terminal(e.event.detail) + ")") << "\n";
    }
  };
  // A job that ended before the following began (a short job on a busy machine) has its
  // line too: what follows the output learns every job's end, however fast it came.
  for (const auto& j : *now) {
    if (!is_terminal(j.state)) continue;
    LoggedEvent ended;
    ended.job_id = j.id;
    ended.array_job_id = j.array_job_id;
    ended.array_index = j.array_index;
    ended.name = j.name;
    ended.backend = j.backend;
    ended.event = {j.end_time.value_or(j.submit_time), j.state, j.reason};
    say(ended);
  }
  auto progress = [&] {
    if (!tty) return;
    const int width = 30, filled = total ? done * width / total : width;
    out << "\r[" << std::string(static_cast<std::size_t>(filled), '#') << std::string(static_cast<std::size_t>(width - filled), '.')
        << "] " << done << "/" << total << " done, " << running << " running, " << pending << " pending, " << failed
        << " failed   " << std::flush;
  };
  if (done < total) {
    progress();
    WatchRequest follow;
    follow.since = ping->last_event;
    follow.filter.ids = all;
    auto watched = client.watch(follow, [&](const LoggedEvent& e) {
      auto it = last.find(e.job_id);
      // An end is final (a job tried again goes back to PENDING without one): an older
      // event of a job already seen ended is one the first read overtook.
      if (it == last.end() || it->second == e.event.state || is_terminal(it->second)) return true;
      count(it->second, -1);
      count(e.event.state, +1);
      it->second = e.event.state;
      say(e);
      progress();
      return done < total;
    });
    if (tty) out << "\n";
    if (!watched) return watched.failure();
  }
  return {};
}

}  // namespace yard
