// Load on `yard web serve` (bench/web/run.sh): API clients making requests as fast as they
// are answered, and event streams open as pages hold them, while a large array runs.
// Prints requests per second, request latency (p50, p99), the time from a state change
// (its time in the daemon's log) to its event reaching a stream (p50, p95), and the state
// changes each stream lost or got twice, checked against one stream read after the end.
//   web_load URL TOKEN CLIENTS STREAMS SECONDS ARRAY_SIZE THINK_MS
// (THINK_MS: how long each API client waits after an answer before its next request)
#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

double wall() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// One open event stream, read without a thread of its own.
struct Stream {
  int fd = -1;
  std::string buffer;
  std::vector<std::int64_t> ids;
  std::atomic<std::int64_t> last{0};  // the last id taken, read by the main thread
};

// Delays from a change to its arrival, counted by the millisecond (up to two minutes):
// 30 million of them are not kept one by one.
struct DelayCounts {
  static constexpr std::size_t kBuckets = 120001;
  std::vector<std::uint64_t> counts = std::vector<std::uint64_t>(kBuckets);
  std::uint64_t total = 0;
  void add(double seconds) {
    const double ms = std::max(0.0, seconds * 1000);
    ++counts[std::min(kBuckets - 1, static_cast<std::size_t>(ms))];
    ++total;
  }
  void add(const DelayCounts& other) {
    for (std::size_t i = 0; i < kBuckets; ++i) counts[i] += other.counts[i];
    total += other.total;
  }
  double percentile(double p) const {
    const auto want = static_cast<std::uint64_t>(p * static_cast<double>(total));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < kBuckets; ++i)
      if ((seen += counts[i]) > want) return static_cast<double>(i) / 1000;
    return 0;
  }
};

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void open_stream(Stream& s, int port, const std::string& token, std::int64_t since) {
  s.fd = connect_to(port);
  if (s.fd < 0) return;
  const std::string req = "GET /api/v1/events?since=" + std::to_string(since) +
                          " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + token +
                          "\r\n\r\n";
  (void)!::write(s.fd, req.data(), req.size());
  ::fcntl(s.fd, F_SETFL, O_NONBLOCK);
}

// A decimal integer at `c`, and `c` past it.
std::int64_t read_int(const char*& c) {
  std::int64_t v = 0;
  while (*c >= '0' && *c <= '9') v = v * 10 + (*c++ - '0');
  return v;
}

// A time in seconds (digits, a point, digits) at `c`, and `c` past it. The fraction is
// read as an integer and scaled once (a division a digit made this loop the reader's cost).
double read_time(const char*& c) {
  static constexpr double kScale[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
  const double whole = static_cast<double>(read_int(c));
  if (*c != '.') return whole;
  const char* from = ++c;
  const std::int64_t fraction = read_int(c);
  return whole + static_cast<double>(fraction) / kScale[std::min<std::ptrdiff_t>(c - from, 18)];
}

// Past the JSON string whose opening quote is at `c`.
void skip_string(const char*& c) {
  for (++c; *c != '"'; ++c)
    if (*c == '\\') ++c;
  ++c;
}

// Takes the messages out of what arrived: each change's event id, and how long it took
// from the change to here. Read by hand, not by a JSON parser: 30 million changes go
// through the readers, which must keep up with the server they measure. A change is
// [event id, run, job, "STATE", time, detail], or a span of `count` with the event ids
// counting up, [event id, run, job, "STATE", time, detail, count]; chunked framing is skipped (a chunk's size
// line is not a message's "data: " line).
void take_messages(Stream& s, double now, DelayCounts* delays) {
  std::size_t at = 0, end;
  const std::string& b = s.buffer;
  while ((end = b.find("\n\n", at)) != std::string::npos) {
    const std::size_t p = b.find("\"changes\":[", at);
    at = end + 2;
    if (p == std::string::npos || p > end) continue;
    const char* c = b.data() + p + 11;
    const char* const last = b.data() + end;
    while (c < last && *c == '[') {
      ++c;
      const std::int64_t id = read_int(c);
      ++c;
      read_int(c);  // the run
      ++c;
      read_int(c);  // the job
      ++c;
      skip_string(c);  // the state
      ++c;
      const double time = read_time(c);
      ++c;
      if (*c == '"') skip_string(c);  // the detail
      else c = std::strchr(c, '}') + 1;  // {"base64": ...}
      std::int64_t count = 1;  // a span: this many, the ids counting up
      if (*c == ',') {
        ++c;
        count = read_int(c);
      }
      for (std::int64_t k = 0; k < count; ++k) {
        s.ids.push_back(id + k);
        if (delays) delays->add(now - time);
      }
      ++c;  // ']'
      if (*c == ',') ++c;
    }
  }
  s.buffer.erase(0, at);
  if (!s.ids.empty()) s.last = s.ids.back();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: web_load URL TOKEN CLIENTS STREAMS SECONDS ARRAY_SIZE THINK_MS\n");
    return 2;
  }
  const std::string url = argv[1], token = argv[2];
  const int clients = std::atoi(argv[3]), streams_n = std::atoi(argv[4]), seconds = std::atoi(argv[5]);
  const int array_size = std::atoi(argv[6]), think_ms = std::atoi(argv[7]);
  const int port = std::atoi(url.substr(url.rfind(':') + 1).c_str());
  const httplib::Headers auth = {{"Authorization", "Bearer " + token}};

  httplib::Client setup("127.0.0.1", port);
  setup.set_read_timeout(120, 0);
  auto listed = setup.Get("/api/v1/runs?limit=1", auth);
  if (!listed || listed->status != 200) {
    std::fprintf(stderr, "web_load: cannot list runs\n");
    return 1;
  }
  const std::int64_t since = nlohmann::json::parse(listed->body)["last_event"];

  std::vector<Stream> streams(static_cast<std::size_t>(streams_n));
  // Two readers (the machine's cores), each with half the streams.
  constexpr std::size_t kReaders = 2;
  std::vector<int> eps;
  for (std::size_t r = 0; r < kReaders; ++r) eps.push_back(::epoll_create1(0));
  for (std::size_t i = 0; i < streams.size(); ++i) {
    open_stream(streams[i], port, token, since);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = i;
    ::epoll_ctl(eps[i % kReaders], EPOLL_CTL_ADD, streams[i].fd, &ev);
  }
  std::atomic<bool> reading{true};
  std::vector<DelayCounts> reader_delays(kReaders);
  std::vector<std::thread> readers;
  for (std::size_t r = 0; r < kReaders; ++r)
    readers.emplace_back([&, r] {
      // The streams stand for pages in browsers on other machines: their reading here
      // yields the CPU to the API clients and the service measured.
      (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10);
      std::vector<epoll_event> events(256);
      std::vector<char> buf(1 << 16);
      while (reading) {
        const int n = ::epoll_wait(eps[r], events.data(), static_cast<int>(events.size()), 200);
        for (int k = 0; k < n; ++k) {
          Stream& s = streams[events[static_cast<std::size_t>(k)].data.u64];
          ssize_t got;
          while ((got = ::read(s.fd, buf.data(), buf.size())) > 0) s.buffer.append(buf.data(), static_cast<std::size_t>(got));
          take_messages(s, wall(), &reader_delays[r]);
        }
      }
    });

  auto started = setup.Post("/api/v1/runs", auth,
                            nlohmann::json{{"template", "array"}, {"values", {{"count", array_size}}}}.dump(),
                            "application/json");
  if (!started || started->status != 201) {
    std::fprintf(stderr, "web_load: the array did not start: %s\n", started ? started->body.c_str() : "no reply");
    return 1;
  }
  const std::int64_t run_id = nlohmann::json::parse(started->body)["run"]["id"];
  const double t0 = wall();

  std::mutex mu;
  std::vector<double> latencies;
  std::vector<std::vector<double>> by_path(4);  // the same, by request
  std::vector<std::pair<double, double>> timed;  // (when it was sent, latency), for the array's span
  std::atomic<long> failures{0};
  std::atomic<bool> loading{true};
  std::vector<std::thread> workers;
  for (int c = 0; c < clients; ++c)
    workers.emplace_back([&, c] {
      httplib::Client api("127.0.0.1", port);
      api.set_keep_alive(true);
      api.set_tcp_nodelay(true);
      api.set_read_timeout(60, 0);
      std::vector<double> mine;
      std::vector<std::vector<double>> mine_by_path(4);
      std::vector<std::pair<double, double>> mine_timed;
      const std::string paths[] = {"/api/v1/runs?limit=20", "/api/v1/runs/" + std::to_string(run_id),
                                   "/api/v1/templates", "/api/v1/runs/" + std::to_string(run_id) + "/logs?limit=1024"};
      for (long i = c; loading; ++i) {
        const auto a = std::chrono::steady_clock::now();
        auto res = api.Get(paths[i % 4].c_str(), auth);
        const auto b = std::chrono::steady_clock::now();
        if (!res || res->status != 200) {
          // The first few failures say what they were (on standard error, beside the table).
          if (++failures <= 3)
            std::fprintf(stderr, "web_load: %s: %s after %.3f s, %.1f s into the load\n", paths[i % 4].c_str(),
                         res ? (std::to_string(res->status) + " " + res->body.substr(0, 200)).c_str()
                             : httplib::to_string(res.error()).c_str(),
                         std::chrono::duration<double>(b - a).count(), wall() - t0);
        }
        mine.push_back(std::chrono::duration<double, std::milli>(b - a).count());
        mine_by_path[static_cast<std::size_t>(i % 4)].push_back(mine.back());
        mine_timed.emplace_back(wall() - mine.back() / 1000, mine.back());
        if (think_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(think_ms));
      }
      std::lock_guard lock(mu);
      latencies.insert(latencies.end(), mine.begin(), mine.end());
      timed.insert(timed.end(), mine_timed.begin(), mine_timed.end());
      for (std::size_t k = 0; k < 4; ++k) by_path[k].insert(by_path[k].end(), mine_by_path[k].begin(), mine_by_path[k].end());
    });
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  loading = false;
  for (auto& w : workers) w.join();
  const double load_s = wall() - t0;

  // The run's end, then every stream up to the last event of it.
  std::string state;
  double run_s = 0, run_end = 0;
  const double wait_until = wall() + 600;
  while (wall() < wait_until) {
    auto r = setup.Get(("/api/v1/runs/" + std::to_string(run_id)).c_str(), auth);
    if (r && r->status == 200) {
      const auto run = nlohmann::json::parse(r->body)["run"];
      state = run["state"];
      if (run["end_time"].is_number()) {
        run_end = run["end_time"].get<double>();
        run_s = run_end - run["submit_time"].get<double>();
      }
    }
    if (state == "COMPLETED" || state == "FAILED" || state == "CANCELLED") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  // The reference: one more stream, read after the end, from the same start.
  Stream ref;
  open_stream(ref, port, token, since);
  ::fcntl(ref.fd, F_SETFL, 0);
  timeval tv{60, 0};
  ::setsockopt(ref.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char buf[1 << 16];
  ssize_t got;
  // Read until the server has had nothing more for it for a while (its keepalive comes
  // after 15 s without a message).
  while ((got = ::read(ref.fd, buf, sizeof buf)) > 0) {
    const std::string chunk(buf, static_cast<std::size_t>(got));
    ref.buffer += chunk;
    take_messages(ref, wall(), nullptr);
    if (chunk.find(": keepalive") != std::string::npos) break;
  }
  const std::set<std::int64_t> want(ref.ids.begin(), ref.ids.end());
  const std::int64_t last = want.empty() ? 0 : *want.rbegin();
  const double settle_until = wall() + 60;
  auto caught_up = [&] {
    return std::all_of(streams.begin(), streams.end(),
                       [&](const Stream& s) { return s.last >= last; });
  };
  while (!caught_up() && wall() < settle_until) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  reading = false;
  for (auto& r : readers) r.join();

  long lost = 0, twice = 0, messages = 0;
  DelayCounts delays;
  for (const auto& d : reader_delays) delays.add(d);
  for (const auto& s : streams) {
    std::set<std::int64_t> seen;
    for (auto id : s.ids) {
      if (!seen.insert(id).second) ++twice;
    }
    for (auto id : want)
      if (!seen.count(id)) ++lost;
    messages += static_cast<long>(s.ids.size());
  }
  std::printf("%-58s %12s\n", "web service, loopback", "value");
  std::printf("%-58s %12d\n", "API clients", clients);
  std::printf("%-58s %12d\n", "each client's pause between answer and request (ms)", think_ms);
  std::printf("%-58s %12d\n", "event streams open", streams_n);
  std::printf("%-58s %12d\n", "array run (jobs)", array_size);
  std::printf("%-58s %12s\n", "array's end state", state.c_str());
  std::printf("%-58s %12.1f\n", "array's run time, submit to end (s)", run_s);
  std::printf("%-58s %12.1f\n", "load time (s)", load_s);
  std::printf("%-58s %12.0f\n", "API requests per second", static_cast<double>(latencies.size()) / load_s);
  std::printf("%-58s %12ld\n", "API requests failed", failures.load());
  std::printf("%-58s %12.2f\n", "API latency p50 (ms)", percentile(latencies, 0.50));
  std::printf("%-58s %12.2f\n", "API latency p99 (ms)", percentile(latencies, 0.99));
  // The same, of the requests sent while the array ran (it may end before the load does).
  std::vector<double> during;
  for (const auto& [sent, ms] : timed)
    if (sent < run_end) during.push_back(ms);
  std::printf("%-58s %12.2f\n", "API latency p99 while the array ran (ms)", percentile(during, 0.99));
  const char* names[] = {"runs list", "one run", "templates", "a run's log"};
  for (std::size_t k = 0; k < 4; ++k)
    std::printf("  %-56s %5.2f %6.2f\n", (std::string(names[k]) + ": p50, p99 (ms)").c_str(), percentile(by_path[k], 0.50),
                percentile(by_path[k], 0.99));
  std::printf("%-58s %12zu\n", "state changes of the run (reference stream)", want.size());
  std::printf("%-58s %12ld\n", "events delivered to all streams", messages);
  std::printf("%-58s %12.3f\n", "change to stream p50 (s)", delays.percentile(0.50));
  std::printf("%-58s %12.3f\n", "change to stream p95 (s)", delays.percentile(0.95));
  std::printf("%-58s %12ld\n", "changes lost, all streams", lost);
  std::printf("%-58s %12ld\n", "changes delivered twice, all streams", twice);
  return lost == 0 && twice == 0 ? 0 : 1;
}
