#include "web/server.h"

#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "web/api_routes.h"
#include "web/http_reply.h"

namespace yard::web {
namespace {

// Every page and reply: no framing by other sites, no sniffing, scripts only from here.
void secure_headers(httplib::Response& res) {
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("X-Frame-Options", "DENY");
  res.set_header("Referrer-Policy", "same-origin");
  res.set_header("Content-Security-Policy",
                 "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
}

// The pages are one application: a path that is not a file and not the API is one of its
// routes (/runs/12), answered with index.html.
void add_pages(httplib::Server& server, const std::string& static_dir) {
  if (!static_dir.empty()) server.set_mount_point("/", static_dir);
  server.Get(R"(/(?!api/).*)", [static_dir](const httplib::Request&, httplib::Response& res) {
    auto text = std::make_shared<std::string>();
    if (FILE* f = std::fopen((static_dir + "/index.html").c_str(), "rb")) {
      char buf[65536];
      for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text->append(buf, n);
      std::fclose(f);
    }
    if (text->empty()) {
      res.status = 404;
      res.set_content("The pages are not built: build web/ (npm run build) or pass --static DIR.\n", "text/plain");
      return;
    }
    res.set_content(*text, "text/html; charset=utf-8");
  });
}

// cpp-httplib (Debian's is a compiled library) listens with a queue of 5 connections. When
// hundreds of pages connect at once (the service restarted under them), the rest overflow
// it and wait for the kernel's retries: first requests went unanswered for a minute. A
// second listen() on the socket sets a longer queue; the socket is the one listening on
// `port` among this process's descriptors.
void widen_listen_queue(int port) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    int fd = -1;
    try {
      fd = std::stoi(entry.path().filename().string());
    } catch (const std::exception&) {
      continue;
    }
    int listening = 0;
    socklen_t size = sizeof listening;
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) != 0 || !listening) continue;
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) continue;
    int bound = -1;
    if (address.ss_family == AF_INET) bound = ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
    if (address.ss_family == AF_INET6) bound = ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
    if (bound == port) ::listen(fd, SOMAXCONN);
  }
}

}  // namespace

void block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

Result<std::unique_ptr<httplib::Server>> new_server(const ListenSettings& listen) {
  if (listen.tls_cert.empty()) return std::make_unique<httplib::Server>();
  for (const auto& [flag, path] : {std::pair{"--tls-cert", listen.tls_cert}, std::pair{"--tls-key", listen.tls_key}}) {
    std::ifstream in(path);
    if (!in) return err(std::string(flag) + " " + path + ": cannot read it (" + std::strerror(errno) + ")");
  }
  auto server = std::make_unique<httplib::SSLServer>(listen.tls_cert.c_str(), listen.tls_key.c_str());
  if (!server->is_valid())
    return err("--tls-cert " + listen.tls_cert + " and --tls-key " + listen.tls_key +
               ": not a PEM certificate and its private key");
  return std::unique_ptr<httplib::Server>(std::move(server));
}

int serve(Site& site, const ListenSettings& listen, std::unique_ptr<httplib::Server> owned) {
  const bool tls = !listen.tls_cert.empty();
  httplib::Server& server = *owned;
  const int threads = listen.threads;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
  // Uploads are the largest bodies; JSON bodies are checked against kMaxJsonBody.
  server.set_payload_max_length(std::size_t{1} << 30);
  // cpp-httplib 0.11 waits for a kept-alive connection's next request by polling it every
  // 10 ms (and sleeping 1 ms): 200 idle clients cost the service a quarter of its CPU. Over
  // plain HTTP (the loopback, or behind a proxy, which speaks HTTP/1.0 to it by default)
  // each request has its connection; over TLS a handshake costs more than the polling.
  server.set_keep_alive_max_count(tls ? 1000 : 1);
  // A reply is written in pieces (headers, body, chunks of a stream): sent at once, not held
  // for the 40 ms of a delayed ACK.
  server.set_tcp_nodelay(true);
  server.set_read_timeout(30, 0);
  server.set_post_routing_handler([](const httplib::Request&, httplib::Response& res) { secure_headers(res); });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    std::cerr << "yard web: a request failed: " << what << "\n";
    send_error(res, 500, "the service failed on this request (its log says why)");
  });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 413) return send_error(res, 413, "the body is too large");
    if (req.path.rfind("/api/", 0) == 0) send_error(res, res.status, "no such request: " + req.method + " " + req.path);
  });

  add_session_routes(server, site);
  add_run_routes(server, site);
  add_file_routes(server, site);
  add_event_routes(server, site);
  add_site_routes(server, site);
  add_pages(server, site.settings.static_dir);

  const int port = listen.port == 0 ? server.bind_to_any_port(listen.host) : (server.bind_to_port(listen.host, listen.port) ? listen.port : -1);
  if (port < 0) {
    std::cerr << "yard web: cannot listen on " << listen.host << ":" << listen.port << " (in use, or not an address here)\n";
    return 1;
  }
  widen_listen_queue(port);
  // SIGINT and SIGTERM are blocked in every thread (block_stop_signals) and taken here:
  // the event streams end first (their threads wait on the feed), then the server.
  std::thread([&site, &server] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    int sig = 0;
    sigwait(&set, &sig);
    site.feed->stop();
    server.stop();
  }).detach();
  std::cout << "listening on " << (tls ? "https" : "http") << "://" << listen.host << ":" << port << std::endl;
  const bool ok = server.listen_after_bind();
  site.feed->stop();
  return ok ? 0 : 1;
}

}  // namespace yard::web
