// The last events of the log, each encoded once, for the daemon's watchers
// (server/subscribers.h). Their lines are kept end to end in one text, so that a watcher
// that takes every event gets a whole run of them in one copy, however many there are:
// with a hundred watchers, a line appended per event and per watcher cost the daemon more
// than running the jobs did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "core/job_record.h"

namespace yard {

class RecentEvents {
 public:
  explicit RecentEvents(std::size_t capacity) : capacity_(capacity) {}

  // Empty, the window starting after event `head`.
  void clear(std::int64_t head);
  // The next event of the log and its line (without its newline): the oldest goes once
  // more than `capacity` are held.
  void add(LoggedEvent event, std::string_view line);
  // The window holds the events after this id (and up to the last one added).
  std::int64_t start() const { return start_; }
  std::size_t size() const { return entries_.size(); }

  struct Run {
    std::string_view text;  // whole lines, each ending in a newline
    std::int64_t last_id;   // the last event in it (the cursor given, if none)
    bool complete;          // it reaches the newest event
  };
  // The lines of the events after `cursor`, end to end: as many as `room` bytes hold, and
  // at least one if `room` is not 0. Valid until the next add() or clear().
  Run after(std::int64_t cursor, std::size_t room) const;

  // Calls take(event, line) for each event after `cursor`, in order, while it returns
  // true; whether every one was taken.
  template <class Take>
  bool each_after(std::int64_t cursor, Take&& take) const {
    for (auto it = first_after(cursor); it != entries_.end(); ++it)
      if (!take(it->event, line_of(*it))) return false;
    return true;
  }

 private:
  struct Entry {
    LoggedEvent event;
    std::size_t begin, end;  // its line (newline included) in the text, as offsets from base_
  };
  std::deque<Entry>::const_iterator first_after(std::int64_t cursor) const;
  std::string_view line_of(const Entry& e) const { return {text_.data() + (e.begin - base_), e.end - e.begin}; }
  std::size_t capacity_;
  std::deque<Entry> entries_;
  std::string text_;      // the lines, end to end; its front may hold lines of events gone
  std::size_t base_ = 0;  // the offset of text_[0] (offsets only grow)
  std::int64_t start_ = 0;
};

}  // namespace yard
