"""The stand-in schedulers' shared core, under one name.

The pieces live in their own modules; this one gathers their names so the scheduler
modules and the tools can say `core.Store`, `core.kill_group`, ... :
  config   settings, file names, config.json
  spool    the SQLite job database (Store) and the job row
  procs    processes, process groups, users; stopping an instance
  clients  what the client commands share (finding the instance, outage, units)

    python3 -m standin.core init STATE SCHEDULER [key=value ...]
    python3 -m standin.core stop STATE
    python3 -m standin.core running STATE
are what start.sh and stop.sh call.
"""

import json
import sys

from standin.clients import (client_store, ctime_str, hms, parse_duration,  # noqa: F401
                             require_env)
from standin.config import (CONFIG_NAME, DB_NAME, DEFAULTS, LOG_NAME, PID_NAME,  # noqa: F401
                            READY_NAME, StandinError, coerce, load_config,
                            scheduler_defaults, short_hostname, write_config)
from standin.procs import (group_list, group_members, is_our_server, kill_group,  # noqa: F401
                           pid_alive, read_pid, server_running, stop_instance, user_info)
from standin.spool import JSON_COLUMNS, PHASES, SCHEMA, Store, decode  # noqa: F401


def init_instance(state_dir, scheduler, overrides):
    """Create the state dir, config.json and the database. Returns the config."""
    cfg = write_config(state_dir, scheduler, overrides)
    store = Store(state_dir, create=True)
    store.close()
    return cfg


def main(argv):
    """python3 -m standin.core init STATE SCHED [k=v...] | stop STATE | running STATE"""
    if len(argv) >= 3 and argv[0] == "init":
        try:
            cfg = init_instance(argv[1], argv[2], argv[3:])
        except StandinError as e:
            sys.stderr.write("standin: %s\n" % e.message)
            return e.status
        print(json.dumps(cfg, sort_keys=True))
        return 0
    if len(argv) == 2 and argv[0] == "stop":
        stop_instance(argv[1])
        return 0
    if len(argv) == 2 and argv[0] == "running":
        return 0 if server_running(argv[1]) else 1
    sys.stderr.write("usage: python3 -m standin.core init STATE SCHEDULER [key=value ...]\n"
                     "       python3 -m standin.core stop STATE\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
