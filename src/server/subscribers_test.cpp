// The daemon's streams (subscribers.h) on a real store and real sockets: a watch sees
// every event once and in order, live or replayed; a client that does not read holds a
// small buffer and loses nothing; a wait is answered when its jobs end.
#include "server/subscribers.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "protocol/messages.h"

namespace yard {
namespace {

class Streams : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("yard-streams-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto s = Store::open((dir_ / "store.db").string());
    ASSERT_TRUE(s) << s.error();
    store_.emplace(std::move(*s));
    subscribers_.emplace(*store_, connections_, clock_);
    ASSERT_TRUE(subscribers_->start());
  }
  void TearDown() override {
    for (int fd : clients_) ::close(fd);
    std::filesystem::remove_all(dir_);
  }

  // A connection as the daemon accepts it; returns the client's end.
  int connect() {
    int sv[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv), 0);
    connections_.add(sv[0]);
    clients_.push_back(sv[1]);
    server_end_[sv[1]] = sv[0];
    return sv[1];
  }
  // The lines that have arrived at a client's end; sends the daemon's pending bytes first.
  std::vector<std::string> lines(int client) {
    std::vector<std::string> out;
    for (int round = 0; round < 1000; ++round) {
      connections_.ready(server_end_[client], POLLOUT);
      char buf[65536];
      const ssize_t n = ::recv(client, buf, sizeof buf, MSG_DONTWAIT);
      if (n <= 0) break;
      pending_[client].append(buf, static_cast<std::size_t>(n));
    }
    std::string& in = pending_[client];
    for (auto nl = in.find('\n'); nl != std::string::npos; nl = in.find('\n')) {
      out.push_back(in.substr(0, nl));
      in.erase(0, nl + 1);
    }
    return out;
  }
  std::vector<std::int64_t> event_ids(int client) {
    std::vector<std::int64_t> ids;
    for (auto& l : lines(client)) {
      auto w = decode_watch_line(l);
      EXPECT_TRUE(w) << l;
      if (w && w->event) ids.push_back(w->event->id);
    }
    return ids;
  }
  // Everything the client can get now, reading as the daemon feeds it (it feeds a stream
  // that was behind when its connection has room: after each read here).
  std::vector<std::int64_t> drain(int client) {
    std::vector<std::int64_t> all;
    for (int i = 0; i < 100000; ++i) {
      auto got = event_ids(client);
      subscribers_->catch_up();
      if (got.empty() && connections_.unsent(server_end_[client]) == 0 && event_ids_pending(client)) break;
      all.insert(all.end(), got.begin(), got.end());
    }
    return all;
  }
  bool event_ids_pending(int client) { return !subscribers_->wants_room(server_end_[client]); }
  // One job inserted (one PENDING event), in a transaction as the daemon's loop does.
  std::int64_t add_job(const std::string& name = "t") {
    JobSpec s;
    s.name = name;
    s.argv = {"/bin/true"};
    s.workdir = "/tmp";
    auto ids = store_->insert_jobs(s, 1.0);
    EXPECT_TRUE(ids) << ids.error();
    return ids->front();
  }
  void run_and_end(std::int64_t id) {
    ASSERT_TRUE(store_->transition(id, JobState::Running, {}, 2.0));
    Transition t;
    t.exit_code = 0;
    ASSERT_TRUE(store_->transition(id, JobState::Completed, t, 3.0));
  }
  // What the daemon does after each commit.
  void after_commit() {
    subscribers_->after_commit();
    subscribers_->catch_up();
    for (int fd : connections_.take_closed()) subscribers_->forget(fd);
  }

  // What arrived at a client's end, without the daemon sending more first.
  std::string arrived(int client) {
    std::string in;
    char buf[65536];
    for (ssize_t n; (n = ::recv(client, buf, sizeof buf, MSG_DONTWAIT)) > 0;) in.append(buf, static_cast<std::size_t>(n));
    return in;
  }

  FakeClock clock_;
  std::filesystem::path dir_;
  std::optional<Store> store_;
  Connections connections_;
  std::optional<Subscribers> subscribers_;
  std::vector<int> clients_;
  std::map<int, int> server_end_;
  std::map<int, std::string> pending_;
};

std::vector<std::int64_t> range(std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> v;
  for (auto i = from; i <= to; ++i) v.push_back(i);
  return v;
}

TEST_F(Streams, AWatchReplaysTheLogThenFollowsItAndAReconnectMissesNothing) {
  for (int i = 0; i < 3; ++i) add_job();
  after_commit();
  const int a = connect();
  subscribers_->watch(server_end_[a], WatchRequest{0, true, {}});
  EXPECT_EQ(event_ids(a), range(1, 3));
  run_and_end(1);
  after_commit();
  EXPECT_EQ(event_ids(a), range(4, 5));
  // A client that saw up to 4 comes back: it gets 5 and what follows, once.
  const int b = connect();
  subscribers_->watch(server_end_[b], WatchRequest{4, true, {}});
  EXPECT_EQ(event_ids(b), range(5, 5));
  run_and_end(2);
  after_commit();
  EXPECT_EQ(event_ids(a), range(6, 7));
  EXPECT_EQ(event_ids(b), range(6, 7));
}

TEST_F(Streams, AFilterPicksJobsAndStatesAndWithoutFollowTheStreamEnds) {
  const auto x = add_job("x");
  add_job("y");
  run_and_end(x);
  after_commit();
  const int c = connect();
  WatchRequest r{0, false, {}};
  r.filter.ids = {x};
  r.filter.states = {JobState::Completed};
  subscribers_->watch(server_end_[c], r);
  auto got = lines(c);
  ASSERT_EQ(got.size(), 2u);
  auto first = decode_watch_line(got[0]);
  ASSERT_TRUE(first && first->event);
  EXPECT_EQ(first->event->job_id, x);
  EXPECT_EQ(first->event->event.state, JobState::Completed);
  EXPECT_EQ(first->event->name, "x");
  auto end = decode_watch_line(got[1]);
  ASSERT_TRUE(end);
  EXPECT_FALSE(end->event);
  EXPECT_EQ(end->end, 4);
  EXPECT_EQ(subscribers_->watchers(), 0u);
}

TEST_F(Streams, ACursorAheadOfTheLogIsRefused) {
  add_job();
  after_commit();
  const int c = connect();
  subscribers_->watch(server_end_[c], WatchRequest{99, true, {}});
  auto got = lines(c);
  ASSERT_EQ(got.size(), 1u);
  auto w = decode_watch_line(got[0]);
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().find("cursor 99 is ahead of the event log (its last event is 1)"), std::string::npos) << w.error();
  EXPECT_EQ(subscribers_->watchers(), 0u);
}

TEST_F(Streams, AWatcherThatStopsReadingHoldsLittleAndWhenItReadsAgainGetsEverythingOnce) {
  const int slow = connect(), fast = connect();
  subscribers_->watch(server_end_[slow], WatchRequest{0, true, {}});
  subscribers_->watch(server_end_[fast], WatchRequest{0, true, {}});
  std::vector<std::int64_t> fast_ids;
  std::size_t most_held = 0;
  // 10,000 jobs, 100 per loop iteration, each PENDING, RUNNING, COMPLETED.
  for (int round = 0; round < 100; ++round) {
    auto tx = store_->transaction();
    for (int i = 0; i < 100; ++i) run_and_end(add_job());
    ASSERT_TRUE(tx.commit());
    after_commit();
    most_held = std::max(most_held, connections_.unsent(server_end_[slow]));
    auto got = drain(fast);
    fast_ids.insert(fast_ids.end(), got.begin(), got.end());
  }
  EXPECT_EQ(fast_ids, range(1, 30000));
  EXPECT_LE(most_held, Connections::kStreamBuffer + 1024) << "a client that does not read made the daemon hold more";
  // It reads again: what it gets is the whole log, in order, each event once.
  EXPECT_EQ(drain(slow), range(1, 30000));
}

TEST_F(Streams, AWaitIsAnsweredWhenItsLastJobEndsAndUnknownJobsAreNamed) {
  const auto a = add_job(), b = add_job();
  after_commit();
  const int c = connect();
  subscribers_->wait(server_end_[c], WaitRequest{{a, b}});
  EXPECT_TRUE(lines(c).empty());
  run_and_end(a);
  after_commit();
  EXPECT_TRUE(lines(c).empty()) << "answered before its last job ended";
  run_and_end(b);
  after_commit();
  auto got = lines(c);
  ASSERT_EQ(got.size(), 1u);
  auto w = decode_wait_reply(got[0]);
  ASSERT_TRUE(w) << w.error();
  ASSERT_EQ(w->jobs.size(), 2u);
  EXPECT_EQ(w->jobs[1].state, JobState::Completed);
  EXPECT_EQ(w->jobs[1].exit_code, 0);
  EXPECT_EQ(subscribers_->waiters(), 0u);

  const int d = connect();
  subscribers_->wait(server_end_[d], WaitRequest{{a, 77, 78}});
  auto refused = decode_wait_reply(lines(d).at(0));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.kind(), ErrorKind::NotFound);
  EXPECT_EQ(refused.error(), "no job 77, 78");
}

TEST_F(Streams, EventsGoOutInBatchesWithinTwentyMillisecondsOrSixteenKilobytes) {
  auto lines_in = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  const int c = connect();
  subscribers_->watch(server_end_[c], WatchRequest{0, true, {}});
  add_job();  // the first event goes out at once
  after_commit();
  EXPECT_EQ(lines_in(arrived(c)), 1);
  add_job();  // the next, within 20 ms of it, waits for its batch
  after_commit();
  EXPECT_EQ(arrived(c), "");
  EXPECT_GT(subscribers_->next_flush_s(), 0.0);
  EXPECT_LE(subscribers_->next_flush_s(), Subscribers::kBatchDelayS);
  clock_.advance(Subscribers::kBatchDelayS);
  EXPECT_EQ(subscribers_->next_flush_s(), 0.0);
  subscribers_->flush_due();
  EXPECT_EQ(lines_in(arrived(c)), 1);
  EXPECT_EQ(subscribers_->next_flush_s(), 3600);  // nothing waits
  // Many events at once make a batch by their size: out without waiting.
  auto tx = store_->transaction();
  for (int i = 0; i < 200; ++i) add_job();
  ASSERT_TRUE(tx.commit());
  after_commit();
  EXPECT_GE(arrived(c).size(), Subscribers::kBatchBytes);
}

TEST_F(Streams, AStoppingDaemonTellsEveryStreamWhy) {
  add_job();
  after_commit();
  const int w = connect(), v = connect();
  subscribers_->watch(server_end_[w], WatchRequest{1, true, {}});
  subscribers_->wait(server_end_[v], WaitRequest{{1}});
  subscribers_->stop("the daemon stopped");
  for (int c : {w, v}) {
    auto got = lines(c);
    ASSERT_EQ(got.size(), 1u);
    auto r = decode_wait_reply(got[0]);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.kind(), ErrorKind::Unavailable);
    EXPECT_EQ(r.error(), "the daemon stopped");
  }
}

TEST_F(Streams, AStoppingDaemonDoesNotWaitForEverForAWatcherThatNeverReads) {
  const int stalled = connect(), reader = connect();
  subscribers_->watch(server_end_[stalled], WatchRequest{0, true, {}});
  subscribers_->watch(server_end_[reader], WatchRequest{0, true, {}});
  // Enough events to fill the stalled client's socket and the daemon's buffer for it.
  for (int round = 0; round < 20; ++round) {
    auto tx = store_->transaction();
    for (int i = 0; i < 100; ++i) run_and_end(add_job());
    ASSERT_TRUE(tx.commit());
    after_commit();
    subscribers_->flush_due();
    drain(reader);
  }
  ASSERT_GT(connections_.unsent(server_end_[stalled]), 0u) << "its socket should be full";
  // It returns (before, it blocked in a send until the client read: never), and the
  // connections are closed: the stalled client, reading at last, finds the end.
  subscribers_->stop("the daemon stopped");
  EXPECT_EQ(subscribers_->watchers(), 0u);
  EXPECT_FALSE(connections_.owns(server_end_[stalled]));
  EXPECT_FALSE(connections_.owns(server_end_[reader]));
}

}  // namespace
}  // namespace yard
