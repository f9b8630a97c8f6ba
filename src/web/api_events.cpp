// GET /api/v1/events: server-sent events of the caller's runs, from the site's one feed of
// the daemon's events. A page that reconnects sends Last-Event-ID (the browser does) and
// gets every change after it; a first connection may give ?since= (the `last_event` of
// the runs it listed) to miss nothing between the two.
#include "web/api_routes.h"
#include "web/auth.h"
#include "web/http_reply.h"
#include "web/run_view.h"

namespace yard::web {
namespace {

constexpr double kKeepAliveS = 15;

std::string sse(const FeedMessage& m) {
  return "id: " + std::to_string(m.id) + "\nevent: run\ndata: " + m.data + "\n\n";
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
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Accel-Buffering", "no");  // nginx: pass each event on at once
    res.set_chunked_content_provider("text/event-stream", [&site, user, cursor](std::size_t, httplib::DataSink& sink) {
      const auto visible = [&user](const FeedMessage& m) { return may_see(user, m.owner); };
      bool older = false;
      std::int64_t reached = *cursor;
      auto messages = site.feed->after(*cursor, visible, kKeepAliveS, older, reached);
      if (older) {
        // Missed more than the feed keeps: the daemon's log has it, up to where the feed starts.
        std::int64_t upto = 0;
        std::string out;
        for (const auto& m : site.feed->replay(*cursor, visible, upto)) out += sse(m);
        *cursor = upto;
        if (out.empty()) out = ": replayed\n\n";
        return sink.write(out.data(), out.size());
      }
      *cursor = reached;
      if (site.feed->stopped()) {
        sink.done();
        return true;
      }
      std::string out;
      for (const auto& m : messages) out += sse(m);
      if (out.empty()) out = ": keepalive\n\n";
      return sink.write(out.data(), out.size());
    });
  }));
}

}  // namespace yard::web
