// The web service: the API and the built pages on one listening socket.
#pragma once

#include <memory>
#include <string>

#include <httplib.h>

#include "core/result.h"
#include "web/site.h"

namespace yard::web {

struct ListenSettings {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port
  int threads = 512;  // connections served at once (each open event stream holds one)
  // HTTPS with this certificate (chain) and private key, PEM files; "": plain HTTP (behind
  // a reverse proxy that speaks TLS).
  std::string tls_cert, tls_key;
};

// The server `listen` asks for: HTTPS with its certificate and key (an error naming the
// file it cannot read, or a pair it cannot use), else plain HTTP.
Result<std::unique_ptr<httplib::Server>> new_server(const ListenSettings& listen);

// Called first, before any thread starts: SIGINT and SIGTERM are then taken by serve().
void block_stop_signals();

// Serves on `server` (new_server(listen)'s) until SIGINT or SIGTERM; prints "listening on http://HOST:PORT" (https://, with
// TLS) once ready. Returns the exit status: 2 for a certificate or key it cannot use.
int serve(Site& site, const ListenSettings& listen, std::unique_ptr<httplib::Server> server);

}  // namespace yard::web
