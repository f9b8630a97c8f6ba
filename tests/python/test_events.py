"""The client library's poll of the event log (DaemonClient::poll_events), as the module
uses it: every event after a cursor, in order, each once; the first to come within the
timeout; none, and no error, when nothing happens."""

import time

import switchyard
from switchyard import _client


def test_events_after_a_cursor_come_in_order_once_and_a_quiet_poll_is_empty():
    start = switchyard.ping()["last_event"]
    job = switchyard.Executor().submit(pow, 2, 3)
    assert job.result(60) == 8
    seen, cursor = [], start
    while not any(e["job"] == job.job_id and e["state"] == "COMPLETED" for e in seen):
        got = _client.events(cursor, 5.0)
        assert got, "no event within 5 s"
        seen += got
        cursor = got[-1]["id"]
    ids = [e["id"] for e in seen]
    assert ids == list(range(start + 1, start + 1 + len(ids)))  # in order, none missed, none twice
    assert [e["state"] for e in seen if e["job"] == job.job_id][-1] == "COMPLETED"
    began = time.monotonic()
    assert _client.events(cursor, 0.3) == []
    assert time.monotonic() - began >= 0.25  # it waited for the first event, up to the timeout
