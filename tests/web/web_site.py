"""A web site of this build for a test: its own daemon (runtime, state and configuration
directories in a temporary directory), users, the example templates, and `yard web serve`
on a free port of the loopback; stopped at the end by pid (the service, then the daemon),
each waited for with a deadline. And a small client that speaks to it as a page does
(cookie and X-CSRF-Token) or as a program does (a bearer token)."""

import http.client
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse

from yard_test_daemon import wait_gone

BIN = os.environ["YARD_BIN_DIR"]
SOURCE = os.environ["YARD_SOURCE_DIR"]
USERS = {"alice": "alice-password", "bob": "bob-password", "root-admin": "admin-password"}


class Site:
    def __init__(self, templates=None, serve_args=()):
        self.serve_args = list(serve_args)
        self.root = tempfile.mkdtemp(prefix="yard-web-")
        self.env = dict(os.environ)
        for key in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
            self.env[key] = os.path.join(self.root, key.lower())
            os.makedirs(self.env[key], mode=0o700)
        self.site_dir = os.path.join(self.root, "site")
        self.templates = templates or os.path.join(SOURCE, "examples", "web", "templates")
        for name, password in USERS.items():
            extra = ["--admin"] if name == "root-admin" else []
            subprocess.run([f"{BIN}/yard-web", "user", "add", name, "--site", self.site_dir, "--password-stdin", *extra],
                           input=password + "\n", text=True, env=self.env, check=True, capture_output=True)
        self.server = None
        self.start()

    def start(self):
        self.server = subprocess.Popen(
            [f"{BIN}/yard-web", "serve", "--listen", "127.0.0.1:0", "--site", self.site_dir, "--templates",
             self.templates, "--threads", "64", *self.serve_args], env=self.env, stdout=subprocess.PIPE, text=True)
        line = self.server.stdout.readline()
        assert line.startswith(("listening on http://", "listening on https://")), f"yard web serve said {line!r}"
        self.url = line.split()[-1]
        self.port = int(self.url.rsplit(":", 1)[1])

    def yard(self, *args):
        return subprocess.run([f"{BIN}/yard", *args], env=self.env, capture_output=True, text=True)

    def daemon_pid(self):
        out = self.yard("server", "status", "--json")
        return json.loads(out.stdout)["pid"] if out.returncode == 0 else None

    def stop_service(self):
        self.server.send_signal(signal.SIGTERM)
        self.server.wait(timeout=60)

    def close(self):
        if self.server and self.server.poll() is None:
            self.stop_service()
        pid = self.daemon_pid()
        self.yard("server", "stop", "--kill-jobs")
        if pid:
            assert wait_gone(pid), f"the daemon {pid} did not stop"
        shutil.rmtree(self.root, ignore_errors=True)

    def client(self):
        return Client(self.port)


class Client:
    """One person's browser (a cookie and the session's CSRF token), or a program (token)."""

    def __init__(self, port):
        self.port = port
        self.cookie = None
        self.csrf = None
        self.token = None

    def request(self, method, path, body=None, headers=None, csrf=True):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        h = dict(headers or {})
        if self.cookie:
            h["Cookie"] = self.cookie
        if self.csrf and csrf and method not in ("GET", "HEAD"):
            h["X-CSRF-Token"] = self.csrf
        if self.token:
            h["Authorization"] = "Bearer " + self.token
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
            h.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=body, headers=h)
        res = conn.getresponse()
        data = res.read()
        conn.close()
        return res.status, res, data

    def call(self, method, path, body=None, **kw):
        status, res, data = self.request(method, path, body, **kw)
        ctype = res.getheader("Content-Type", "")
        return status, (json.loads(data) if ctype.startswith("application/json") and data else data)

    def login(self, name, password=None):
        status, res, data = self.request("POST", "/api/v1/session",
                                         {"name": name, "password": password or USERS[name]})
        assert status == 200, data
        self.cookie = res.getheader("Set-Cookie").split(";")[0]
        self.csrf = json.loads(data)["csrf"]
        return res

    def start(self, template, values=None):
        status, body = self.call("POST", "/api/v1/runs", {"template": template, "values": values or {}})
        assert status == 201, body
        return body["run"]

    def wait_run(self, run_id, states=("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"), timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, body = self.call("GET", f"/api/v1/runs/{run_id}")
            assert status == 200, body
            if body["run"]["state"] in states:
                return body
            time.sleep(0.1)
        raise AssertionError(f"run {run_id} not in {states} within {timeout} s: {body['run']['state']}")


class EventStream:
    """An open /api/v1/events stream read line by line, as EventSource reads it."""

    def __init__(self, client, since=None, last_event_id=None):
        self.conn = http.client.HTTPConnection("127.0.0.1", client.port, timeout=30)
        headers = {"Cookie": client.cookie, "Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        path = "/api/v1/events" + (f"?since={since}" if since is not None else "")
        self.conn.request("GET", path, headers=headers)
        self.res = self.conn.getresponse()
        self.pending = []
        self.spans = 0  # changes that came as spans of several

    def next_message(self):
        """The next message: (id, data as JSON); comments are skipped."""
        msg = {}
        while True:
            line = self.res.fp.readline().decode()
            if line == "":
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line == "":
                if "data" in msg:
                    assert msg["event"] == "runs", msg
                    return int(msg["id"]), json.loads(msg["data"])
                msg = {}
            elif not line.startswith(":"):
                key, _, value = line.partition(": ")
                msg[key] = value

    def next_change(self):
        """The next change of a job, as a dict (id, run, job, state, time, detail), with the
        state its run had after it ("run_state")."""
        while not self.pending:
            message_id, data = self.next_message()
            runs = {r["id"]: r for r in data["runs"]}
            assert data["changes"] and data["changes"][-1][0] == message_id
            self.spans += sum(1 for change in data["changes"] if len(change) == 7)
            for event_id, run, job, state, when, detail, *count in data["changes"]:
                # A span: `count` changes, the event ids and job ids counting up.
                for k in range(count[0] if count else 1):
                    self.pending.append({"id": event_id + k, "run": run, "job": job + k, "state": state, "time": when,
                                         "detail": detail, "run_state": runs[run]["state"]})
            # A run's state is the one after its last change of the message.
            for c in self.pending[:-1]:
                c["run_state"] = None
            last_of_run = {}
            for c in self.pending:
                last_of_run[c["run"]] = c
            for c in last_of_run.values():
                c["run_state"] = runs[c["run"]]["state"]
        return self.pending.pop(0)

    def until(self, predicate, limit=10000):
        """Changes up to and including the first for which `predicate` holds."""
        seen = []
        for _ in range(limit):
            seen.append(self.next_change())
            if predicate(seen[-1]):
                return seen
        raise AssertionError("no such change in " + str(limit))

    def close(self):
        self.res.close()  # the response holds the socket open too
        self.conn.close()


def quoted(path):
    return urllib.parse.quote(path, safe="/")
