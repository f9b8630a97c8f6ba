"""One thread per process that ends the futures of this process's jobs: it follows the
daemon's event log (no polling of jobs: one request waits up to a second for the next
events, whatever the number of jobs) and, when a job watched reaches an end state, reads
its record and its result. It runs while there are jobs to watch."""

import atexit
import threading
import time

from . import _client

END_STATES = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "LOST"}


class Watcher:
    def __init__(self):
        self._lock = threading.Lock()
        self._jobs = {}  # job id -> [Job]
        self._thread = None
        self._stop = False
        # Events after this one are news: taken before any job of this process is submitted.
        self._cursor = _client.request("ping").get("last_event", 0)

    def track(self, jobs):
        with self._lock:
            for job in jobs:
                self._jobs.setdefault(job.job_id, []).append(job)
            if self._thread is None and not self._stop:
                self._thread = threading.Thread(target=self._run, name="switchyard-watcher", daemon=True)
                self._thread.start()

    def check_now(self, jobs):
        """Ends the futures of jobs that have already ended (found by a fresh process)."""
        records = jobs_by_id([j.job_id for j in jobs])
        for job_id in {j.job_id for j in jobs}:
            record = records.get(job_id)
            if record and record["state"] in END_STATES:
                for job in self._forget(job_id):  # every Job of this process for it
                    job._finish(record)

    def _forget(self, job_id):
        with self._lock:
            return self._jobs.pop(job_id, [])

    def _run(self):
        while True:
            with self._lock:
                if not self._jobs or self._stop:
                    self._thread = None
                    return
            try:
                events = _client.events(self._cursor, 1.0)
            except Exception:  # the daemon restarting (the client library starts it again), or
                time.sleep(0.5)  # not startable now: asked again, without spinning
                continue
            ended = []
            for event in events:
                self._cursor = max(self._cursor, event["id"])
                if event["state"] in END_STATES and event["job"] in self._jobs:
                    ended.append(event["job"])
            if ended:
                records = jobs_by_id(ended)
                for job_id in ended:
                    for job in self._forget(job_id):
                        job._finish(records.get(job_id))

    def stop(self):
        with self._lock:
            self._stop = True
            thread = self._thread
        if thread is not None:
            thread.join(2.0)


def jobs_by_id(ids):
    """The daemon's records of these jobs, by id."""
    out = {}
    ids = sorted(set(ids))
    for start in range(0, len(ids), 5000):
        reply = _client.request("jobs", ids=ids[start:start + 5000])
        for record in _client.rows(reply["jobs"]):
            out[record["id"]] = record
    return out


_watcher = None
_watcher_lock = threading.Lock()


def watcher():
    global _watcher
    with _watcher_lock:
        if _watcher is None:
            _watcher = Watcher()
            atexit.register(_watcher.stop)
        return _watcher
