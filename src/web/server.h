// The web service: the API and the built pages on one listening socket.
#pragma once

#include <string>

#include "web/site.h"

namespace yard::web {

struct ListenSettings {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port
  int threads = 512;  // connections served at once (each open event stream holds one)
};

// Called first, before any thread starts: SIGINT and SIGTERM are then taken by serve().
void block_stop_signals();

// Serves until SIGINT or SIGTERM; prints "listening on http://HOST:PORT" once ready.
// Returns the exit status.
int serve(Site& site, const ListenSettings& listen);

}  // namespace yard::web
