#include "server/recent_events.h"

#include <algorithm>

namespace yard {

void RecentEvents::clear(std::int64_t head) {
  entries_.clear();
  base_ += text_.size();
  text_.clear();
  start_ = head;
}

void RecentEvents::add(LoggedEvent event, std::string_view line) {
  const std::size_t begin = base_ + text_.size();
  text_ += line;
  text_ += '\n';
  entries_.push_back({std::move(event), begin, base_ + text_.size()});
  while (entries_.size() > capacity_) {
    start_ = entries_.front().event.id;
    entries_.pop_front();
  }
  // The lines of events gone are dropped from the text's front once they are half of it:
  // each byte is moved at most once on average.
  const std::size_t dead = entries_.front().begin - base_;
  if (dead > text_.size() / 2) {
    text_.erase(0, dead);
    base_ += dead;
  }
}

std::deque<RecentEvents::Entry>::const_iterator RecentEvents::first_after(std::int64_t cursor) const {
  return std::upper_bound(entries_.begin(), entries_.end(), cursor,
                          [](std::int64_t c, const Entry& e) { return c < e.event.id; });
}

RecentEvents::Run RecentEvents::after(std::int64_t cursor, std::size_t room) const {
  const auto first = first_after(cursor);
  if (first == entries_.end() || room == 0) return {{}, cursor, first == entries_.end()};
  // The last event whose line still ends within `room` of the first's beginning; the
  // first one whatever its length.
  auto last = std::upper_bound(first, entries_.end(), first->begin + room,
                               [](std::size_t limit, const Entry& e) { return limit < e.end; });
  if (last == first) ++last;
  const Entry& end = *(last - 1);
  return {{text_.data() + (first->begin - base_), end.end - first->begin}, end.event.id, last == entries_.end()};
}

}  // namespace yard
