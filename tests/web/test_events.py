"""Live state by server-sent events: a change reaches the page's stream, a page that
reconnects with Last-Event-ID gets exactly what it missed, a user's stream carries only
their runs, an array's jobs submitted together come as spans, and a daemon that restarts
under the service loses nothing."""

import os
import shutil
import signal
import tempfile
import time

from web_site import EventStream, Site
from yard_test_daemon import wait_gone

ENDED = ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT")


def watch_a_run(c, template, values):
    """Starts a run and reads a stream (opened after it, from before it) until the run has
    ended: (the run, the changes seen, the closed stream)."""
    since = c.call("GET", "/api/v1/runs")[1]["last_event"]
    run = c.start(template, values)
    stream = EventStream(c, since=since)
    seen = stream.until(lambda ch: ch["run"] == run["id"] and ch["run_state"] in ENDED)
    stream.close()
    return run, seen, stream


def test_a_runs_changes_reach_its_owners_stream_and_no_one_elses(site):
    alice, bob = site.client(), site.client()
    alice.login("alice")
    bob.login("bob")
    since = alice.call("GET", "/api/v1/runs")[1]["last_event"]
    mine = alice.start("hello", {"count": 1})  # started before the streams open: ?since= covers it
    stream = EventStream(alice, since=since)
    try:
        seen = stream.until(lambda c: c["run"] == mine["id"] and c["run_state"] in ENDED)
        states = [c["state"] for c in seen if c["run"] == mine["id"]]
        assert states == ["PENDING", "RUNNING", "COMPLETED"]
        ids = [c["id"] for c in seen]
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        bob_stream = EventStream(bob, since=since)
        theirs = bob.start("hello", {"count": 1})
        got = bob_stream.until(lambda c: c["run_state"] in ENDED)
        assert {c["run"] for c in got} == {theirs["id"]}
        bob_stream.close()
    finally:
        stream.close()


def test_a_page_that_reconnects_gets_every_change_it_missed_once(site):
    c = site.client()
    c.login("alice")
    _, seen, _ = watch_a_run(c, "hello", {"count": 1})
    last = seen[-1]["id"]
    # While the page is away: another run starts and ends.
    second = c.start("hello", {"count": 2})
    c.wait_run(second["id"])
    again = EventStream(c, last_event_id=last)
    missed = again.until(lambda c: c["run"] == second["id"] and c["run_state"] in ENDED)
    again.close()
    ids = [c["id"] for c in missed]
    assert min(ids) > last and len(set(ids)) == len(ids)
    assert [c["state"] for c in missed if c["run"] == second["id"]] == ["PENDING", "RUNNING", "COMPLETED"]


def test_a_daemon_restart_under_the_service_loses_no_change(site):
    c = site.client()
    c.login("alice")
    since = c.call("GET", "/api/v1/runs")[1]["last_event"]
    stream = EventStream(c, since=since)
    pid = site.daemon_pid()
    site.yard("server", "stop")
    assert wait_gone(pid)
    # The next request starts the daemon again; the feed follows it from where it was.
    run = c.start("hello", {"count": 1})
    seen = stream.until(lambda c: c["run"] == run["id"] and c["run_state"] in ENDED)
    states = [c["state"] for c in seen if c["run"] == run["id"]]
    assert states == ["PENDING", "RUNNING", "COMPLETED"]
    stream.close()


def test_the_service_stops_promptly_with_streams_open(site):
    c = site.client()
    c.login("alice")
    streams = [EventStream(c) for _ in range(5)]
    site.server.send_signal(signal.SIGTERM)
    assert site.server.wait(timeout=30) == 0
    for s in streams:
        s.close()
    site.start()


ARRAY_TEMPLATE = """title: An array
fields:
  - {name: count, type: integer, min: 1, max: 1000, default: 40}
job:
  options: {array: "1-{count}", time: "0:05:00"}
  command: ["true"]
"""


def test_an_arrays_jobs_submitted_together_come_as_spans_and_every_change_once():
    templates = tempfile.mkdtemp(prefix="yard-web-templates-")
    with open(os.path.join(templates, "array.yaml"), "w") as f:
        f.write(ARRAY_TEMPLATE)
    site = Site(templates=templates)
    try:
        c = site.client()
        c.login("alice")
        run, seen, stream = watch_a_run(c, "array", {"count": 40})
        # 40 PENDING changes in a few spans (one, unless the daemon logged them in pieces).
        assert stream.spans >= 1
        mine = [ch for ch in seen if ch["run"] == run["id"]]
        ids = [ch["id"] for ch in mine]
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        by_job = {}
        for ch in mine:
            by_job.setdefault(ch["job"], []).append(ch["state"])
        assert len(by_job) == 40
        assert all(states == ["PENDING", "RUNNING", "COMPLETED"] for states in by_job.values()), by_job
    finally:
        site.close()
        shutil.rmtree(templates, ignore_errors=True)


def batch_threads(pid):
    """How many of the process's threads are under SCHED_BATCH (policy 3, field 41 of stat)."""
    count = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        count += fields[41 - 3] == "3"
    return count


def test_a_streams_thread_yields_to_requests_while_open_and_is_itself_again_after(site):
    c = site.client()
    c.login("alice")
    pid = site.server.pid
    before = batch_threads(pid)
    stream = EventStream(c)
    deadline = time.monotonic() + 30
    while batch_threads(pid) <= before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert batch_threads(pid) == before + 1
    stream.close()
    # The server finds the stream gone at its next write: a change gives it one.
    run = c.start("hello", {"count": 1})
    c.wait_run(run["id"])
    deadline = time.monotonic() + 30
    while batch_threads(pid) > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert batch_threads(pid) == before
