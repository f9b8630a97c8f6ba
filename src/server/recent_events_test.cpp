#include "server/recent_events.h"

#include <gtest/gtest.h>

namespace yard {
namespace {

LoggedEvent event(std::int64_t id) {
  LoggedEvent e;
  e.id = id;
  e.job_id = id;
  return e;
}

std::string line(std::int64_t id) { return "event " + std::to_string(id); }

TEST(RecentEvents, ARunIsTheWholeLinesAfterTheCursorThatFitTheRoom) {
  RecentEvents r(10);
  r.clear(4);
  for (std::int64_t id = 5; id <= 8; ++id) r.add(event(id), line(id));  // lines of 8 bytes
  auto run = r.after(4, 1000);
  EXPECT_EQ(run.text, "event 5\nevent 6\nevent 7\nevent 8\n");
  EXPECT_EQ(run.last_id, 8);
  EXPECT_TRUE(run.complete);
  run = r.after(5, 17);  // two lines and one byte: two lines
  EXPECT_EQ(run.text, "event 6\nevent 7\n");
  EXPECT_EQ(run.last_id, 7);
  EXPECT_FALSE(run.complete);
  run = r.after(6, 3);  // less than a line: one line, for progress
  EXPECT_EQ(run.text, "event 7\n");
  run = r.after(6, 0);  // no room: nothing
  EXPECT_EQ(run.text, "");
  EXPECT_EQ(run.last_id, 6);
  run = r.after(8, 1000);  // up to date
  EXPECT_EQ(run.text, "");
  EXPECT_TRUE(run.complete);
}

TEST(RecentEvents, TheOldestGoPastTheCapacityAndTheTextStaysWhole) {
  RecentEvents r(3);
  r.clear(0);
  for (std::int64_t id = 1; id <= 1000; ++id) r.add(event(id), line(id));
  EXPECT_EQ(r.size(), 3u);
  EXPECT_EQ(r.start(), 997);
  EXPECT_EQ(r.after(997, 1000).text, "event 998\nevent 999\nevent 1000\n");
  std::string seen;
  EXPECT_TRUE(r.each_after(0, [&](const LoggedEvent& e, std::string_view l) {
    seen += std::to_string(e.id) + ":" + std::string(l);
    return true;
  }));
  EXPECT_EQ(seen, "998:event 998\n999:event 999\n1000:event 1000\n");
  EXPECT_FALSE(r.each_after(0, [](const LoggedEvent& e, std::string_view) { return e.id < 999; }));
  r.clear(1000);
  EXPECT_EQ(r.start(), 1000);
  EXPECT_EQ(r.after(0, 1000).text, "");
  r.add(event(1001), line(1001));
  EXPECT_EQ(r.after(1000, 1000).text, "event 1001\n");
}

}  // namespace
}  // namespace yard
