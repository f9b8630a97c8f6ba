"""Switchyard from Python: functions as jobs on any backend the daemon has.

    import switchyard
    ex = switchyard.Executor(cpus_per_task=2, mem="1G", time="10:00")
    job = ex.submit(pow, 2, 10)
    print(job.result())          # 1024

Jobs belong to the daemon, not to this process: switchyard.jobs(tag=...) finds them
again, and their results, from another interpreter. docs/PYTHON.md says more."""

import os

# The package loads its parts when first used (PEP 562): a job's runner
# (`python -m switchyard._runner`) imports this file too, and pays for none of the
# client's parts, the compiled module included: Python jobs start faster.
_LAZY = {
    "Executor": "._executor", "Job": "._job", "DelayedSubmission": "._checkpoint", "Flow": "._flow",
    **{name: "._errors" for name in ("Cancelled", "DaemonError", "DependencyFailed", "EnvironmentMismatch",
                                      "InvalidRequest", "JobError", "JobFailed", "JobLost", "NodeFail",
                                      "OutOfMemory", "ResultTooLarge", "Timeout")},
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'switchyard' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = ["Executor", "Job", "DelayedSubmission", "Flow", "jobs", "ping", "Cancelled", "DaemonError", "DependencyFailed", "EnvironmentMismatch",
           "InvalidRequest", "JobError", "JobFailed", "JobLost", "NodeFail", "OutOfMemory", "ResultTooLarge",
           "Timeout"]


def jobs(tag=None, folder=None):
    """The Python jobs submitted from any process into `folder` (by default the state
    directory's), with this tag if one is given, oldest first, as Jobs whose futures end
    when the jobs end (at once for those that already have)."""
    from ._calls import Call, default_folder
    from ._job import Job
    from ._watcher import watcher
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
    from . import _client
    try:
        with open(call.file("request.json")) as f:
            request = json.load(f)
    except (FileNotFoundError, ValueError):
        return None
    return _client.request("submit", **request)["ids"]


def ping():
    """The daemon's answer to ping: its pid, socket, store and backends."""
    from . import _client
    return _client.request("ping")
