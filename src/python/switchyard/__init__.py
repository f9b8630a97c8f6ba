"""Switchyard from Python: functions as jobs on any backend the daemon has.

    import switchyard
    ex = switchyard.Executor(cpus_per_task=2, mem="1G", time="10:00")
    job = ex.submit(pow, 2, 10)
    print(job.result())          # 1024

Jobs belong to the daemon, not to this process: switchyard.jobs(tag=...) finds them
again, and their results, from another interpreter. docs/PYTHON.md says more."""

import os

from . import _client
from ._calls import Call, default_folder
from ._errors import (Cancelled, DaemonError, DependencyFailed, EnvironmentMismatch, InvalidRequest, JobError,
                      JobFailed, JobLost, NodeFail, OutOfMemory, ResultTooLarge, Timeout)
from ._executor import Executor
from ._job import Job
from ._watcher import watcher

__all__ = ["Executor", "Job", "jobs", "ping", "Cancelled", "DaemonError", "DependencyFailed", "EnvironmentMismatch",
           "InvalidRequest", "JobError", "JobFailed", "JobLost", "NodeFail", "OutOfMemory", "ResultTooLarge",
           "Timeout"]


def jobs(tag=None, folder=None):
    """The Python jobs submitted from any process into `folder` (by default the state
    directory's), with this tag if one is given, oldest first, as Jobs whose futures end
    when the jobs end (at once for those that already have)."""
    folder = os.path.abspath(folder) if folder else default_folder()
    found = []
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return []
    for name in names:
        call = Call(os.path.join(folder, name))
        try:
            meta = call.meta()
        except (FileNotFoundError, NotADirectoryError, ValueError):
            continue
        if tag is not None and meta.get("tag") != tag:
            continue
        ids = meta.get("ids")
        if ids is None:
            ids = _submitted_ids(call)
            if ids is None:
                continue
        array = meta.get("array_size") is not None
        found += [Job(job_id, call, i if array else None, meta.get("function", "")) for i, job_id in enumerate(ids)]
    if found:
        w = watcher()
        w.track(found)
        w.check_now(found)
    return found


def _submitted_ids(call):
    # A caller that died between its submit and storing the ids: the request again under
    # its key gives the first try's ids (the daemon keeps them: exactly once), or submits
    # it if the first try never reached the daemon.
    import json
    try:
        with open(call.file("request.json")) as f:
            request = json.load(f)
    except (FileNotFoundError, ValueError):
        return None
    return _client.request("submit", **request)["ids"]


def ping():
    """The daemon's answer to ping: its pid, socket, store and backends."""
    return _client.request("ping")
