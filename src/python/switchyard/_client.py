"""The daemon, as this process reaches it: one client library connection per process,
requests and replies as the protocol's JSON objects (docs/API.md)."""

import base64
import json
import os

from . import _switchyard
from ._errors import DaemonError, InvalidRequest

_client = None
_client_pid = None


def _daemon_default():
    # A module used from the build tree starts that build's daemon; an installed one
    # finds the installed yardd by itself. $YARD_DAEMON, when set, wins.
    if os.environ.get("YARD_DAEMON"):
        return
    try:
        from ._build_tree import DAEMON
    except ImportError:
        return
    if os.access(DAEMON, os.X_OK):
        os.environ["YARD_DAEMON"] = DAEMON


def client():
    """This process's client (a forked child makes its own)."""
    global _client, _client_pid
    if _client is None or _client_pid != os.getpid():
        _daemon_default()
        _client = _switchyard.Client()
        _client_pid = os.getpid()
    return _client


def raised(error):
    """A client library error (message, kind) as this package's exception."""
    message, kind = error.args if len(error.args) == 2 else (str(error), "internal")
    if kind == "invalid":
        return InvalidRequest(message, kind)
    return DaemonError(message, kind)


def request(op, **fields):
    """One request of the protocol; its reply as a dict, or DaemonError."""
    line = json.dumps({"op": op, **fields}, separators=(",", ":"))
    try:
        reply = client().request(line)
    except _switchyard.Error as e:
        raise raised(e) from None
    return json.loads(reply)


def events(since, timeout=1.0):
    """The event log after `since` (dicts), the first within `timeout` seconds."""
    try:
        return [json.loads(e) for e in client().events(since, timeout)]
    except _switchyard.Error as e:
        raise raised(e) from None


def job_spec(flags, command):
    """yard submit's flags and a command: (spec dict, class)."""
    spec, job_class = _switchyard.job_spec(flags, command)
    return json.loads(spec), job_class


def rows(table):
    """Jobs as the daemon sends many: {"columns", "rows"} (or already a list)."""
    if isinstance(table, list):
        return table
    columns = table["columns"]
    return [dict(zip(columns, row)) for row in table["rows"]]


def text(value):
    """A byte string of the wire (a string, or {"base64": ...}) as bytes."""
    if isinstance(value, dict):
        return base64.b64decode(value["base64"])
    return (value or "").encode("utf-8", "surrogateescape")
