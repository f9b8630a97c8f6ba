// The fan-out of the feed's ticks to the pages: each viewer's text rendered once a tick,
// a page behind by a few ticks gets them all, one not in the batches is told to render.
#include "web/feed_fanout.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace yard::web {
namespace {

FeedPtr message(std::int64_t id, const std::string& owner) {
  auto m = std::make_shared<FeedMessage>();
  m->id = id;
  m->owner = owner;
  m->change = "[" + std::to_string(id) + "]";
  return m;
}

// A viewer who sees `owner`'s messages, rendered as their changes one after another; counts
// its renderings.
std::shared_ptr<FeedFanout::Subscription> page(FeedFanout& fanout, const std::string& owner, int& renderings) {
  return fanout.subscribe(
      "user:" + owner, [owner](const FeedMessage& m) { return m.owner == owner; },
      [&renderings](const std::vector<FeedPtr>& messages) {
        ++renderings;
        std::string out;
        for (const auto& m : messages) out += m->change;
        return out;
      });
}

auto soon() { return std::chrono::steady_clock::now() + std::chrono::milliseconds(50); }

TEST(FeedFanout, EachTickIsRenderedOncePerViewerAndEveryPageTakesItsOwn) {
  FeedFanout fanout(10);
  int ann_renderings = 0, bob_renderings = 0;
  auto ann1 = page(fanout, "ann", ann_renderings);
  auto ann2 = page(fanout, "ann", ann_renderings);
  auto bob = page(fanout, "bob", bob_renderings);
  fanout.publish(13, {message(11, "ann"), message(12, "bob"), message(13, "ann")});
  EXPECT_EQ(ann_renderings, 1);  // two pages, one rendering
  EXPECT_EQ(bob_renderings, 1);
  std::shared_ptr<const std::string> text;
  std::int64_t reached = 0;
  for (const auto& p : {ann1, ann2}) {
    ASSERT_EQ(fanout.take(10, p->viewer(), soon(), text, reached), FeedFanout::Taken::Text);
    EXPECT_EQ(*text, "[11][13]");
    EXPECT_EQ(reached, 13);
  }
  ASSERT_EQ(fanout.take(10, bob->viewer(), soon(), text, reached), FeedFanout::Taken::Text);
  EXPECT_EQ(*text, "[12]");
  // Nothing after the last tick: the wait ends at the deadline.
  EXPECT_EQ(fanout.take(13, bob->viewer(), soon(), text, reached), FeedFanout::Taken::Nothing);
}

TEST(FeedFanout, APageBehindByTicksGetsThemAllAndSkipsThoseWithNothingForIt) {
  FeedFanout fanout(0);
  int renderings = 0;
  auto ann = page(fanout, "ann", renderings);
  fanout.publish(2, {message(1, "ann"), message(2, "ann")});
  fanout.publish(3, {message(3, "bob")});
  fanout.publish(5, {message(4, "ann"), message(5, "ann")});
  std::shared_ptr<const std::string> text;
  std::int64_t reached = 0;
  ASSERT_EQ(fanout.take(0, ann->viewer(), soon(), text, reached), FeedFanout::Taken::Text);
  EXPECT_EQ(*text, "[1][2][4][5]");
  EXPECT_EQ(reached, 5);
  // Only someone else's change since 2... then one of its own: it waits past the first.
  ASSERT_EQ(fanout.take(2, ann->viewer(), soon(), text, reached), FeedFanout::Taken::Text);
  EXPECT_EQ(*text, "[4][5]");
}

TEST(FeedFanout, APageNotAtATicksStartOrOpenedAfterItIsToldToRenderItself) {
  FeedFanout fanout(0);
  int renderings = 0;
  auto ann = page(fanout, "ann", renderings);
  fanout.publish(4, {message(1, "ann"), message(4, "ann")});
  std::shared_ptr<const std::string> text;
  std::int64_t reached = 0;
  // Since 2: in the middle of the tick (a page that came back with Last-Event-ID 2).
  EXPECT_EQ(fanout.take(2, ann->viewer(), soon(), text, reached), FeedFanout::Taken::NotHere);
  // A viewer whose first page opened after the tick: no text of it there.
  int carl_renderings = 0;
  auto carl = page(fanout, "carl", carl_renderings);
  EXPECT_EQ(fanout.take(0, carl->viewer(), soon(), text, reached), FeedFanout::Taken::NotHere);
  // A gap (messages dropped before the tick was published): nobody takes it.
  fanout.publish_gap(9);
  EXPECT_EQ(fanout.take(4, ann->viewer(), soon(), text, reached), FeedFanout::Taken::NotHere);
  // Once the viewer's last page closed, it is rendered no more.
  carl.reset();
  fanout.publish(10, {message(10, "carl")});
  EXPECT_EQ(carl_renderings, 0);
}

TEST(FeedFanout, AWaitingPageWakesAtTheNextTickAndAtStop) {
  FeedFanout fanout(0);
  int renderings = 0;
  auto ann = page(fanout, "ann", renderings);
  std::thread ticker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    fanout.publish(1, {message(1, "ann")});
  });
  std::shared_ptr<const std::string> text;
  std::int64_t reached = 0;
  const auto late = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  EXPECT_EQ(fanout.take(0, ann->viewer(), late, text, reached), FeedFanout::Taken::Text);
  ticker.join();
  std::thread stopper([&] { fanout.stop(); });
  EXPECT_EQ(fanout.take(1, ann->viewer(), late, text, reached), FeedFanout::Taken::Nothing);
  stopper.join();
}

}  // namespace
}  // namespace yard::web
