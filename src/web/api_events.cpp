// GET /api/v1/events: server-sent events of the caller's runs, from the site's one feed of
// the daemon's events. A page that reconnects sends Last-Event-ID (the browser does) and
// gets every change after it; a first connection may give ?since= (the `last_event` of
// the runs it listed) to miss nothing between the two.
#include <pthread.h>
#include <sched.h>

#include <map>

#include "web/api_routes.h"
#include "web/auth.h"
#include "web/http_reply.h"
#include "web/run_view.h"

namespace yard::web {
namespace {

constexpr double kKeepAliveS = 15;

// At most this many changes in one message (a reconnecting page may have missed many).
constexpr std::size_t kChangesPerMessage = 2000;

// Messages as `event: runs`, each with the id of its last change: {"runs": each run's
// state after the last of its changes here, "changes": [[event id, run, job, STATE, time,
// detail], ...]}. A page that reconnects with the id gets what followed it, none twice.
// Changes that follow one another one by one (the next event of the next job of the run,
// in the same state at the same time: an array's jobs submitted together) are one span,
// [first event id, run, first job, STATE, time, detail, how many]: the 10,000 jobs of an
// array reach a thousand pages as one line each, not 10,000.
template <typename Messages, typename Get>
std::string sse(const Messages& messages, Get get) {
  std::string out;
  for (std::size_t from = 0; from < messages.size(); from += kChangesPerMessage) {
    const std::size_t to = std::min(messages.size(), from + kChangesPerMessage);
    std::map<std::int64_t, const std::string*> runs;  // the last state of each
    std::string changes;
    for (std::size_t i = from; i < to;) {
      const FeedMessage& m = get(messages[i]);
      std::size_t n = 1;
      for (; i + n < to; ++n) {
        const FeedMessage& next = get(messages[i + n]);
        const auto step = static_cast<std::int64_t>(n);
        if (next.id != m.id + step || next.run != m.run || next.job != m.job + step ||
            shared_part(next) != shared_part(m))
          break;
      }
      runs[m.run] = &get(messages[i + n - 1]).run_text;
      if (!changes.empty()) changes += ',';
      if (n == 1) {
        changes += m.change;
      } else {
        changes.append(m.change, 0, m.change.size() - 1);
        changes += ',' + std::to_string(n) + ']';
      }
      i += n;
    }
    std::string run_list;
    for (const auto& [id, text] : runs) run_list += (run_list.empty() ? "" : ",") + *text;
    out += "id: " + std::to_string(get(messages[to - 1]).id) + "\nevent: runs\ndata: {\"runs\":[" + run_list +
           "],\"changes\":[" + changes + "]}\n\n";
  }
  return out;
}

}  // namespace

void add_event_routes(httplib::Server& server, Site& site) {
  server.Get("/api/v1/events", guarded(site, [&site](const Caller& c, const httplib::Request& req, httplib::Response& res) {
    std::int64_t since = site.feed->last_id();
    for (const char* name : {"Last-Event-ID"})
      if (req.has_header(name)) {
        try {
          since = std::stoll(req.get_header_value(name));
        } catch (const std::exception&) {
          return send_error(res, 400, "Last-Event-ID: not an event id", "Last-Event-ID");
        }
      }
    if (!req.has_header("Last-Event-ID") && req.has_param("since")) {
      auto given = int_param(req, res, "since", 0, 0, INT64_MAX);
      if (!given) return;
      since = *given;
    }
    if (since > site.feed->last_id())
      return send_error(res, 400, "since: event " + std::to_string(since) + " has not happened", "since");
    const User user = c.user;
    auto cursor = std::make_shared<std::int64_t>(since);
    // Every admin sees the same; any other user, their own. Held while the page is open.
    std::shared_ptr<const FeedFanout::Subscription> page = site.feed->subscribe(
        user.admin ? std::string() : "user:" + user.name,
        [user](const FeedMessage& m) { return may_see(user, m.owner); },
        [](const std::vector<FeedPtr>& messages) {
          return sse(messages, [](const FeedPtr& m) -> const FeedMessage& { return *m; });
        });
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Accel-Buffering", "no");  // nginx: pass each event on at once
    // The thread that writes a page's stream wakes at every tick to write a few kilobytes:
    // SCHED_BATCH keeps those wake-ups from preempting API requests' threads, and the
    // thread is back to SCHED_OTHER when the stream ends (both allowed to any user).
    const sched_param normal{};
    (void)pthread_setschedparam(pthread_self(), SCHED_BATCH, &normal);
    res.set_chunked_content_provider("text/event-stream", [&site, page, cursor](std::size_t, httplib::DataSink& sink) {
      bool older = false;
      std::int64_t reached = *cursor;
      auto text = site.feed->rendered_after(*cursor, *page, kKeepAliveS, older, reached);
      if (older) {
        // Missed more than the feed keeps: the daemon's log has it, up to where the feed starts.
        std::int64_t upto = 0;
        const auto visible = [&page](const FeedMessage& m) { return page->may_see(m); };
        const auto replayed = site.feed->replay(*cursor, visible, upto);
        std::string out = sse(replayed, [](const FeedMessage& m) -> const FeedMessage& { return m; });
        *cursor = upto;
        if (out.empty()) out = ": replayed\n\n";
        return sink.write(out.data(), out.size());
      }
      *cursor = reached;
      if (site.feed->stopped()) {
        sink.done();
        return true;
      }
      if (!text) {
        static const std::string keepalive = ": keepalive\n\n";
        return sink.write(keepalive.data(), keepalive.size());
      }
      return sink.write(text->data(), text->size());
    }, [](bool) {
      const sched_param none{};
      (void)pthread_setschedparam(pthread_self(), SCHED_OTHER, &none);
    });
  }));
}

}  // namespace yard::web
