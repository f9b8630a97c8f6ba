"""What the pytest suites share: whether a daemon they started is still there, waited
for with a deadline once they asked it to stop."""

import os
import time


def alive(pid):
    """True while the process runs (a zombie its parent has not reaped yet is gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_gone(pid, timeout=30):
    """True once the process is gone, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)
