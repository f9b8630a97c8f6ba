"""What every client command shares: finding its instance, and the units it prints.

The commands find their instance through YARD_STANDIN_DIR. An outage (standin-ctl
outage on) or a server that is not running is reported by the scheduler's own words
(the `connection_refused` callback each scheduler module passes).
"""

import os
import sqlite3
import sys
import time

from standin.config import StandinError
from standin.procs import server_running
from standin.spool import Store


def ctime_str(t):
    """C ctime() without the newline: 'Wed Jun 24 15:33:18 2020' (local time)."""
    return time.ctime(int(t))


def hms(seconds):
    seconds = max(0, int(seconds))
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def parse_duration(text):
    """[[HH:]MM:]SS[.fraction] -> whole seconds, or None if malformed."""
    text = text.strip()
    if not text:
        return None
    parts = text.split(":")
    if len(parts) > 3:
        return None
    total = 0.0
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if not part:
            return None
        if last:
            try:
                value = float(part)
            except ValueError:
                return None
            if not part.replace(".", "", 1).isdigit():
                return None
        else:
            if not part.isdigit():
                return None
            value = int(part)
        total = total * 60 + value
    return int(total)


# ---------------------------------------------------------------- clients

def require_env(cmd):
    """Exit 1 with the stand-in's message when YARD_STANDIN_DIR is not set."""
    if not os.environ.get("YARD_STANDIN_DIR"):
        sys.stderr.write("%s: YARD_STANDIN_DIR is not set (no stand-in scheduler)\n" % cmd)
        sys.exit(1)


def client_store(cmd, connection_refused):
    """Open the instance named by YARD_STANDIN_DIR for a client command.

    `connection_refused(store)` is the scheduler's way to report that the server
    cannot be reached (outage on, or the server is not running); it must exit.
    With `outage on --hang` the command waits until the outage is switched off.
    """
    require_env(cmd)
    state_dir = os.environ["YARD_STANDIN_DIR"]
    try:
        store = Store(state_dir)
    except (OSError, StandinError, sqlite3.Error, ValueError) as e:
        sys.stderr.write("%s: stand-in instance %s unusable: %s\n" % (cmd, state_dir, e))
        sys.exit(1)
    while True:
        outage = store.meta("outage", "off")
        if outage == "hang" and server_running(store.dir):
            time.sleep(0.1)      # poll the condition: blocks as a hung server would
            continue
        if outage in ("on", "hang") or not server_running(store.dir):
            connection_refused(store)
            sys.exit(1)          # connection_refused should have exited
        return store
