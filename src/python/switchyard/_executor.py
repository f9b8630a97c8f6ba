"""Executor: Python functions as jobs of the daemon, on any backend, with the resources
`yard submit` takes (its long flags, `_` for `-`: cpus_per_task=4, mem="8G",
time="1:00:00", partition=..., gpus=1, account=...)."""

import concurrent.futures
import os
import sys

from . import _client
from ._checkpoint import checkpointable
from ._calls import Call, default_folder, interpreter, packages_file, write_atomically, write_json
from ._job import Job
from ._watcher import watcher

# Jobs an array holds at most where the backend states no limit; a map over more is split
# into arrays of this size. A backend with a limit (its scheduler's configuration, such as
# Slurm's MaxArraySize, or max_array_size in its settings file) splits at its own.
ARRAY_LIMIT = 1000


def array_limit(backend):
    """The most elements of one array on `backend` (a name; None: the default), as the
    daemon knows it: the backend's own limit, else ARRAY_LIMIT. A wish routes.yaml maps is
    looked up as itself (its target may change between two calls)."""
    try:
        routes = _client.request("routes").get("routes", {})
    except _client.DaemonError:
        return ARRAY_LIMIT
    for b in routes.get("backends", []):
        if b.get("backend") == (backend or "local") and b.get("max_array_size", 0) > 0:
            return b["max_array_size"]
    return ARRAY_LIMIT


def _flag_words(resources):
    words = []
    for name, value in resources.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        words += [flag] if value is True else [flag, str(value)]
    return words


def _checked_flags(resources, where):
    """The words of these resources, checked by yard submit's own parser: an unknown name
    is a TypeError naming every unknown one, a bad value a ValueError naming it."""
    words = _flag_words(resources)
    try:
        _client.job_spec(words, ["true"])
        return words
    except ValueError as e:
        unknown = []
        for name, value in resources.items():
            try:
                _client.job_spec(_flag_words({name: value}), ["true"])
            except ValueError as one:
                if "unrecognized option" in str(one) or "not a job's flag" in str(one):
                    unknown.append(name)
                else:
                    raise ValueError(f"{where}: {name}={value!r}: {one}") from None
        if unknown:
            raise TypeError(f"{where}: unknown resource name(s): {', '.join(unknown)} (the names are yard submit's "
                            f"long flags with _ for -: cpus_per_task, mem, time, nodes, ntasks, gpus, partition, "
                            f"account, qos, ...)") from None
        raise ValueError(f"{where}: {e}") from None


def _python_path():
    # The caller's own places of modules (its script's directory, PYTHONPATH, the build's
    # package), not the interpreter's: the job runs the same interpreter, which has those.
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    out = []
    for entry in sys.path:
        path = os.path.realpath(entry or os.getcwd())
        if not any(path == p or path.startswith(p + os.sep) for p in prefixes) and path not in out:
            out.append(path)
    return os.pathsep.join(out)


def instances_in(value, cls, found):
    """The instances of `cls` among `value`, in lists, tuples and dicts too (a Job among a
    call's arguments, a Step among a flow step's)."""
    if isinstance(value, cls):
        found.append(value)
    elif type(value) in (list, tuple):
        for v in value:
            instances_in(v, cls, found)
    elif type(value) is dict:
        for v in value.values():
            instances_in(v, cls, found)
    return found


def _pickled(value, what):
    import cloudpickle
    try:
        return cloudpickle.dumps(value)
    except Exception as e:
        raise TypeError(f"{what} cannot be pickled, nothing was submitted: {e}") from None


class Executor(concurrent.futures.Executor):
    """Runs Python functions as jobs: `submit(fn, *args, **kwargs)` returns a Job (a
    Future). `backend` ("local", "slurm", ... or a wish routes.yaml maps), `cls` (a size
    class), `tag` (to find the jobs again with switchyard.jobs(tag=...)), `folder` (where
    calls and results are kept, on a file system the jobs' nodes see; default: the
    state directory's python/), `result_cap` (bytes of a pickled result, 1 GiB by
    default), and yard submit's resources."""

    def __init__(self, backend=None, cls=None, tag="", folder=None, result_cap=1 << 30, max_requeues=3,
                 checkpoint_s=60, **resources):
        self._resources = dict(resources)
        if backend:
            self._resources["backend"] = backend
        if cls:
            self._resources["class"] = cls
        self._words = _checked_flags(self._resources, "Executor")
        self.tag = tag
        self.folder = os.path.abspath(folder) if folder else default_folder()
        self.result_cap = int(result_cap)
        self.max_requeues = int(max_requeues)
        self.checkpoint_s = int(checkpoint_s)
        self._python_path = _python_path()
        self._shutdown = False

    def update_parameters(self, **resources):
        """More resources for the jobs submitted from now on (checked as in the constructor)."""
        merged = {**self._resources, **resources}
        self._words = _checked_flags(merged, "update_parameters")
        self._resources = merged

    def submit(self, fn, /, *args, **kwargs):
        """Runs fn(*args, **kwargs) as a job. A Job among the arguments stands for its
        result: this job starts once that one completed (afterok)."""
        return self._submit(fn, getattr(fn, "__name__", "python"), [(args, kwargs)], array=False)[0]

    def map_array(self, fn, *iterables):
        """One job per element, as arrays split at the backend's array limit (array_limit);
        returns the Jobs."""
        calls = [(args, {}) for args in zip(*iterables)]
        size = array_limit(self._resources.get("backend"))
        jobs = []
        for start in range(0, len(calls), size):
            jobs += self._submit(fn, getattr(fn, "__name__", "python"), calls[start:start + size], array=True)
        return jobs

    def map(self, fn, *iterables, timeout=None, chunksize=1):
        """As concurrent.futures.Executor.map, the calls as arrays of jobs."""
        jobs = self.map_array(fn, *iterables)

        def results():
            for job in jobs:
                yield job.result(timeout)
        return results()

    def submit_script(self, text, name="script"):
        """A shell script as a job (its #SBATCH-style lines are not read: resources are
        the executor's). The Job's result is None when it exits 0."""
        return self._submit(None, name, [((text,), {})], array=False)[0]

    def shutdown(self, wait=True, *, cancel_futures=False):
        self._shutdown = True

    def _submit(self, fn, name, calls, array, throttle=None):
        if self._shutdown:
            raise RuntimeError("cannot submit after shutdown")
        w = watcher()  # before the submission: its events are news to it
        call = Call.new(self.folder)
        try:
            needs = []
            if fn is None:
                command_tail = ["--script"]
                write_atomically(call.file("script.sh"), calls[0][0][0].encode())
            else:
                command_tail = []
                for i, (args, kwargs) in enumerate(calls):
                    needs += instances_in(args, Job, [])
                    needs += instances_in(kwargs, Job, [])
                    data = _pickled((fn, args, kwargs), f"{name} or its arguments")
                    if array:
                        os.makedirs(call.file("calls"), exist_ok=True)
                    write_atomically(call.call_file(i if array else None), data)
            meta = {"tag": self.tag, "function": name, "interpreter": interpreter(),
                    "environment": packages_file(self.folder), "result_cap": self.result_cap,
                    "array_size": len(calls) if array else None, "ids": None}
            write_json(call.file("meta.json"), meta)
            words = list(self._words) + ["-J", name]
            out = "_%a" if array else ""
            words += ["-o", call.file("stdout" + out), "-e", call.file("stderr" + out)]
            if array:
                words += ["--array", f"0-{len(calls) - 1}" + (f"%{throttle}" if throttle else "")]
            checkpoint = fn is not None and checkpointable(fn)
            if checkpoint:
                words += ["--signal", f"USR1@{self.checkpoint_s}"]
            if needs:
                words += ["-d", "afterok:" + ":".join(str(j.job_id) for j in needs)]
            command = [sys.executable, "-m", "switchyard._runner", call.path] + command_tail
            spec, job_class = _client.job_spec(words, command)
            spec["env"]["PYTHONPATH"] = self._python_path
            if checkpoint:
                spec["retry"] = {"times": self.max_requeues, "on": ["TIMEOUT"]}
            request = {"spec": spec, "class": job_class, "key": call.key}
            write_json(call.file("request.json"), request)
        except BaseException:
            _remove(call.path)
            raise
        ids = _client.request("submit", **request)["ids"]
        meta["ids"] = ids
        write_json(call.file("meta.json"), meta)
        jobs = [Job(job_id, call, i if array else None, name) for i, job_id in enumerate(ids)]
        w.track(jobs)
        return jobs


def _remove(path):
    import shutil
    shutil.rmtree(path, ignore_errors=True)
