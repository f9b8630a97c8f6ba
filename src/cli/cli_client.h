// The daemon client as the CLI uses it: it starts the daemon when none runs, and tells
// the user on stderr why a command waits (a daemon that holds its state directory but
// does not answer is waited for: client/daemon_client.h).
#pragma once

#include <iostream>
#include <string>

#include "client/daemon_client.h"

namespace yard {

inline DaemonClient cli_client(const std::string& command) {
  DaemonClient client(default_paths(), true);
  client.on_notice([command](const std::string& notice) { std::cerr << "yard " << command << ": " << notice << std::endl; });
  return client;
}

}  // namespace yard
