// The feed's changes handed to the open pages. Every tick (EventFeed::tick_seconds) the feed's
// waker publishes the new messages as one batch, rendered once for each viewer that has a
// page open; each page then takes its viewer's text under a lock held for a few pointer
// copies. A thousand pages of one user cost one rendering and a thousand writes a tick, and
// no page waits behind another's work, nor does the feed's reading of the daemon (which
// took the same lock as a thousand pages in turn, and fell seconds behind).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "web/feed_message.h"

namespace yard::web {

// What a viewer may see, and how its messages become the text a page is sent.
using MaySee = std::function<bool(const FeedMessage&)>;
using Render = std::function<std::string(const std::vector<FeedPtr>&)>;

class FeedFanout {
 public:
  explicit FeedFanout(std::int64_t published) : published_(published) {}

  // What a viewer sees and how it is rendered: one for all the viewer's pages.
  struct Viewer {
    MaySee may_see;
    Render render;
  };

  // A page open for `viewer` (one key per MaySee: an admin, or one user): the batches
  // published while it is held carry that viewer's text.
  class Subscription {
   public:
    Subscription(FeedFanout& fanout, std::string viewer, std::shared_ptr<const Viewer> how)
        : fanout_(fanout), viewer_(std::move(viewer)), how_(std::move(how)) {}
    ~Subscription() { fanout_.unsubscribe(viewer_); }
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;
    const std::string& viewer() const { return viewer_; }
    bool may_see(const FeedMessage& m) const { return how_->may_see(m); }
    std::string render(const std::vector<FeedPtr>& messages) const { return how_->render(messages); }

   private:
    FeedFanout& fanout_;
    std::string viewer_;
    std::shared_ptr<const Viewer> how_;
  };
  // The viewer's first page's `may_see` and `render` serve all its pages.
  std::shared_ptr<Subscription> subscribe(const std::string& viewer, MaySee may_see, Render render);

  // The messages in (published(), upto], as the next batch; wakes the pages.
  void publish(std::int64_t upto, const std::vector<FeedPtr>& messages);
  // A batch that no page may take (messages were dropped before it was published): pages
  // behind it render from what is kept, or replay the daemon's log.
  void publish_gap(std::int64_t upto);
  std::int64_t published();
  // How many pages are open.
  int pages();

  enum class Taken { Text, Nothing, NotHere };
  // The text for `viewer` of every batch after `since`, waiting until `deadline` for one
  // with something in it. Text: `text` is set; Nothing: none came in time (or stop);
  // NotHere: `since` is not where a kept batch begins, or a batch has no text for the
  // viewer (published before its page opened): the caller renders it. `reached`: the last
  // id looked at.
  Taken take(std::int64_t since, const std::string& viewer, std::chrono::steady_clock::time_point deadline,
             std::shared_ptr<const std::string>& text, std::int64_t& reached);

  void stop();

 private:
  void unsubscribe(const std::string& viewer);

  struct Watched {
    std::shared_ptr<const Viewer> how;
    int pages = 0;
  };
  struct Batch {
    std::int64_t after = 0, upto = 0;
    std::map<std::string, std::shared_ptr<const std::string>> texts;  // by viewer; empty: nothing for it
  };
  // Batches kept for pages that fell behind by a few ticks (a slow write); older ones
  // render from the feed's messages.
  static constexpr std::size_t kBatches = 256;

  std::mutex mu_;
  std::condition_variable published_cv_;
  std::map<std::string, Watched> viewers_;
  std::deque<Batch> batches_;
  std::int64_t published_ = 0;
  int pages_ = 0;
  bool stopped_ = false;
};

}  // namespace yard::web
