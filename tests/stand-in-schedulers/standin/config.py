"""Instance settings and file names shared by every stand-in scheduler.

One instance = one state directory holding config.json (the settings below plus the
scheduler's own, written once by start.sh), the database, the spool and the server's
files. `write_config` creates it; `load_config` reads it back.
"""

import json
import os
import socket

DB_NAME = "standin.db"
CONFIG_NAME = "config.json"
PID_NAME = "server.pid"
READY_NAME = "ready"
LOG_NAME = "server.log"

# Settings every stand-in understands; a scheduler module adds its own (pbs.DEFAULTS).
DEFAULTS = {
    "server_name": None,          # None: the short host name
    "slots": 4,                   # CPUs the one execution host has
    "gpus": 0,                    # GPUs it has (0: the scheduler knows no GPU resource)
    "kill_grace": 2.0,            # seconds between SIGTERM and SIGKILL
    "job_history_duration": 3600, # seconds a finished job stays visible
    "tick": 0.1,                  # server period, seconds
    "exiting_delay": 0.0,         # seconds a job spends in the exiting phase (E) before done
    "requeue_delay": 0.0,         # seconds a requeued job waits before it may run again
    "first_seq": 1,               # first job sequence number
    "shared": 0,                  # 1: state dir and database writable by every user
    # The queue's limits, listed by qstat -Q -f, bqueues -l, flux queue list (queue_limits.py)
    "queue_max_walltime": 0,      # seconds a job may run at most (0: no limit)
    "queue_default_walltime": 0,  # seconds a job gets when it asks for none (0: none)
    "queue_max_cpus": 0,          # CPUs one job may ask for at most (0: no limit)
    "queue_max_mem": 0,           # MiB one job may ask for at most (0: no limit)
}


class StandinError(Exception):
    """An error a client command reports: message for stderr and exit status."""

    def __init__(self, message, status):
        super().__init__(message)
        self.message = message
        self.status = status


def short_hostname():
    return socket.gethostname().split(".")[0]


def scheduler_defaults(scheduler):
    module = __import__("standin." + scheduler, fromlist=["DEFAULTS"])
    return dict(getattr(module, "DEFAULTS", {}))


def coerce(value, like):
    """A key=value string from start.sh, typed like the default it overrides."""
    if isinstance(like, bool):
        return value.lower() in ("1", "true", "yes", "on")
    if isinstance(like, int):
        try:
            return int(value)
        except ValueError:
            return float(value)
    if isinstance(like, float):
        return float(value)
    if like is None:
        for cast in (int, float):
            try:
                return cast(value)
            except ValueError:
                pass
    return value


def write_config(state_dir, scheduler, overrides):
    """Create the state dir, its subdirectories and config.json. Returns the config."""
    state_dir = os.path.abspath(state_dir)
    os.makedirs(state_dir, exist_ok=True)
    cfg = dict(DEFAULTS)
    cfg.update(scheduler_defaults(scheduler))
    cfg["scheduler"] = scheduler
    for item in overrides:
        if "=" not in item:
            raise StandinError("bad setting (want key=value): %s" % item, 2)
        key, value = item.split("=", 1)
        if key not in cfg:
            raise StandinError("unknown setting: %s (known: %s)" % (key, ", ".join(sorted(cfg))), 2)
        cfg[key] = coerce(value, cfg[key])
    if not cfg.get("server_name"):
        cfg["server_name"] = short_hostname()
    cfg["host"] = short_hostname()
    for sub in ("spool", "aux", "tmp"):
        os.makedirs(os.path.join(state_dir, sub), exist_ok=True)
    if cfg.get("shared"):
        for d in (state_dir, os.path.join(state_dir, "spool"), os.path.join(state_dir, "aux"),
                  os.path.join(state_dir, "tmp")):
            os.chmod(d, 0o1777)
    tmp = os.path.join(state_dir, CONFIG_NAME + ".tmp")
    with open(tmp, "w") as f:
        json.dump(cfg, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, os.path.join(state_dir, CONFIG_NAME))
    return cfg


def load_config(state_dir):
    with open(os.path.join(state_dir, CONFIG_NAME)) as f:
        return json.load(f)
