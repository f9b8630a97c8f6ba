"""A call's folder: what a Python job reads and writes, on a file system the job's node
sees (the state directory, under $HOME, by default). One folder per submission:
    meta.json        who submitted it, from which interpreter, its tag, its job ids
    request.json     the submit request, sent again under its key if the caller died
                     before it stored the ids (the daemon gives the first try's ids)
    call.pkl         the function and its arguments (an array: calls/<index>.pkl)
    result.pkl       what it returned or raised (an array: results/<index>.pkl)
    stdout, stderr   its output (an array: stdout_<index>, stderr_<index>)
Every file is written whole and renamed into place: a reader never sees half of one."""

import json
import os
import sys


def default_folder():
    from . import _client  # not in a job's runner, which needs no client
    return os.path.join(_client.client().paths()["state_dir"], "python")


def write_atomically(path, data):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def write_json(path, value):
    write_atomically(path, json.dumps(value, indent=1).encode())


def interpreter():
    """What a job needs to know about the caller's Python."""
    import platform
    return {
        "executable": sys.executable,
        "version": platform.python_version(),
        "platform": platform.platform(),
    }


_packages_file = {}


def packages_file(folder):
    """The caller's installed distributions, recorded once per process and folder."""
    path = _packages_file.get(folder)
    if path is None:
        try:
            from importlib import metadata
            packages = sorted({(d.metadata["Name"] or "?", d.version) for d in metadata.distributions()})
        except Exception:  # a broken distribution's metadata must not stop a submission
            packages = []
        import uuid
        path = os.path.join(folder, f"environment-{os.getpid()}-{uuid.uuid4().hex[:8]}.json")
        write_json(path, {"interpreter": interpreter(), "packages": [f"{n}=={v}" for n, v in packages]})
        _packages_file[folder] = path
    return path


class Call:
    """One submission's folder."""

    def __init__(self, path):
        self.path = path
        self.key = os.path.basename(path)

    @classmethod
    def new(cls, folder):
        import time
        import uuid
        os.makedirs(folder, mode=0o700, exist_ok=True)
        path = os.path.join(folder, f"{time.strftime('%Y%m%d')}-{uuid.uuid4().hex}")
        os.mkdir(path, 0o700)
        return cls(path)

    def file(self, name):
        return os.path.join(self.path, name)

    def meta(self):
        with open(self.file("meta.json")) as f:
            return json.load(f)

    def call_file(self, index):
        return self.file("call.pkl") if index is None else os.path.join(self.path, "calls", f"{index}.pkl")

    def result_file(self, index):
        return self.file("result.pkl") if index is None else os.path.join(self.path, "results", f"{index}.pkl")
