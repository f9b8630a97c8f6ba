"""A run's webhook: POSTed the run when it ends, only to the places the site allows."""

import http.server
import json
import queue
import threading

import pytest

from web_site import Site

received = queue.Queue()


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        received.put((self.path, json.loads(body)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def hooked():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    prefix = f"http://127.0.0.1:{server.server_address[1]}/hooks/"
    site = Site(serve_args=["--webhook-prefix", prefix])
    yield site, prefix
    site.close()
    server.shutdown()
    thread.join(timeout=30)


def test_a_run_that_ends_is_posted_to_its_webhook_once(hooked):
    site, prefix = hooked
    c = site.client()
    c.login("alice")
    status, body = c.call("POST", "/api/v1/runs", {"template": "hello", "values": {"count": 1},
                                                   "webhook": prefix + "alice?run=hello"})
    assert status == 201, body
    run = body["run"]
    path, posted = received.get(timeout=60)
    assert path == "/hooks/alice?run=hello"
    assert posted["run"]["id"] == run["id"] and posted["run"]["state"] == "COMPLETED"
    assert posted["run"]["exit_code"] == 0
    status, body = c.call("POST", "/api/v1/jobs", {"command": ["false"], "webhook": prefix + "failed"})
    path, posted = received.get(timeout=60)
    assert path == "/hooks/failed" and posted["run"]["state"] == "FAILED"
    with pytest.raises(queue.Empty):
        received.get(timeout=2)  # each run once


def test_webhooks_go_only_where_the_site_allows(hooked):
    site, prefix = hooked
    c = site.client()
    c.login("alice")
    before = c.call("GET", "/api/v1/runs")[1]["runs"]
    for url in ["http://169.254.169.254/latest/meta-data", "file:///etc/passwd", prefix.replace("/hooks/", "/other/"), 5]:
        status, body = c.call("POST", "/api/v1/runs", {"template": "hello", "webhook": url})
        assert status == 400 and body["field"] == "webhook", (url, body)
    assert c.call("GET", "/api/v1/runs")[1]["runs"] == before
