"""Flows from Python: the same graph a flow file describes (docs/WORKFLOWS.md), built with
calls, run by the daemon as one request, and, like a flow file's, never run twice: each
step has a key (a digest of its command, directory, outputs, the content of its inputs no
step makes, and the keys of the steps it needs), and running the flow again takes a step
whose key found a completed job (its outputs all there) as up to date, and one pending or
running as its own, submitting only the others and what follows them.

    flow = switchyard.Flow("prep-and-fit")
    prep = flow.step("prep", "sort data.txt > sorted.txt", inputs=["data.txt"], outputs=["sorted.txt"])
    fit = flow.step("fit", ["python3", "fit.py"], needs=[prep], cpus_per_task=2, mem="1G")
    run = flow.run()             # {"prep": "submitted", "fit": "submitted"} in run.origins
    run.wait()                   # {"prep": "COMPLETED", "fit": "COMPLETED"}
"""

import hashlib
import json
import os
import sys
import uuid

from . import _client
from ._calls import Call, interpreter, write_atomically, write_json
from ._executor import _checked_flags, _pickled, _python_path, instances_in
from ._errors import JobError
from ._results import JobResult


class Step:
    def __init__(self, index, name, argv, needs, inputs, outputs, words):
        self.index, self.name, self.argv = index, name, argv
        self.needs, self.inputs, self.outputs, self.words = needs, inputs, outputs, words
        self.key = ""
        self.call = None       # a Python function's step: its call's folder
        self.pickled = b""     # and its call, pickled (part of its key)

    # A step among a function step's arguments stands for that step's result.
    def __reduce__(self):
        if self.call is None:
            raise TypeError(f"step {self.name!r} runs a command: it has no result to pass on")
        return (JobResult, (self.name, self.call.result_file(None)))


class FlowRun:
    """One run of a flow: its id in the daemon (`yard flow status ID`), each step's job ids
    and where each came from (submitted, attached: still running from an earlier run,
    up-to-date: completed before)."""

    def __init__(self, flow_id, ids, origins, results=None):
        self.flow_id, self.ids, self.origins = flow_id, ids, origins
        self._results = results or {}

    def result(self, name):
        """A function step's value (its exception raised again), once it ended."""
        if name not in self._results:
            raise KeyError(f"{name!r} is no function step of this flow")
        import pickle
        try:
            with open(self._results[name], "rb") as f:
                kind, value, remote_trace = pickle.load(f)
        except FileNotFoundError:
            raise JobError(f"step {name!r} left no result (it has not ended, or ended without one)") from None
        if kind == "ok":
            return value
        if isinstance(value, BaseException) and remote_trace:
            value.add_note(f"(raised in step {name!r}; its traceback there:)\n{remote_trace.rstrip()}")
        raise value

    def wait(self, timeout=0):
        """Until every step's jobs ended: each step's state (its last job's), or None after
        `timeout` seconds (0: no limit)."""
        every = [i for ids in self.ids.values() for i in ids]
        try:
            reply = _client.client().wait(every, float(timeout))
        except _client._switchyard.Error as e:
            raise _client.raised(e) from None
        if reply is None:
            return None
        states = {j["id"]: j["state"] for j in _client.rows(json.loads(reply)["jobs"])}
        return {name: states.get(ids[-1], "UNKNOWN") for name, ids in self.ids.items()}


class Flow:
    """A graph of steps, run by the daemon. `folder`: the run directory (the working
    directory by default); relative inputs and outputs are read there."""

    def __init__(self, name, folder=None):
        self.name = name
        self.folder = os.path.abspath(folder or os.getcwd())
        self.steps = []

    def step(self, name, command, needs=(), inputs=(), outputs=(), **resources):
        """A step: `command` a shell line (run by /bin/sh -c) or a list of words; `needs`
        earlier steps (afterok); `inputs`/`outputs` file paths; yard submit's resources."""
        if any(s.name == name for s in self.steps):
            raise ValueError(f"Flow {self.name}: step {name!r} twice")
        for n in needs:
            if not isinstance(n, Step) or n not in self.steps:
                raise ValueError(f"Flow {self.name}: step {name!r} needs {n!r}, which is no earlier step of this flow")
        argv = ["/bin/sh", "-c", command] if isinstance(command, str) else [str(w) for w in command]
        words = _checked_flags(dict(resources, job_name=name), f"step {name!r}")
        absolute = [os.path.join(self.folder, p) for p in outputs]
        step = Step(len(self.steps), name, argv, list(needs), [os.path.join(self.folder, p) for p in inputs],
                    absolute, words)
        self.steps.append(step)
        return step

    def call(self, name, fn, args=(), kwargs=None, needs=(), inputs=(), outputs=(), **resources):
        """A step that runs fn(*args, **kwargs) in the caller's Python, its value kept for
        FlowRun.result(name). A step among the arguments is needed (afterok) and stands for
        its result; a function step is up to date, as any step, while its call (the
        function and arguments, pickled) and the rest of its key do not change."""
        kwargs = dict(kwargs or {})
        found = instances_in([list(args), kwargs], Step, [])
        needs = list(needs) + [n for n in found if n not in needs]
        folder = os.path.join(self.folder, ".switchyard", self.name, name)
        os.makedirs(folder, exist_ok=True)
        step = self.step(name, [sys.executable, "-m", "switchyard._runner", folder], needs, inputs, outputs,
                         **resources)
        step.call = Call(folder)
        step.pickled = _pickled((fn, tuple(args), kwargs), f"step {name!r}'s function or its arguments")
        return step

    def _keys(self):
        made = {o for s in self.steps for o in s.outputs}
        for s in self.steps:
            parts = {"argv": s.argv, "dir": self.folder, "outputs": s.outputs,
                     "call": hashlib.sha256(s.pickled).hexdigest() if s.call else "",
                     "inputs": {p: _digest(p) for p in s.inputs if p not in made},
                     "needs": [n.key for n in s.needs]}
            text = json.dumps(parts, sort_keys=True)
            s.parts = text
            s.key = "py-" + hashlib.sha256(text.encode()).hexdigest()

    def run(self, rerun=()):
        """Submits the steps not up to date (and `rerun`'s, and what follows any submitted)."""
        unknown = set(rerun) - {s.name for s in self.steps}
        if unknown:
            raise ValueError(f"Flow {self.name}: rerun names no step: {', '.join(sorted(unknown))}")
        self._keys()
        for s in self.steps:  # each function step's call, where its job reads it
            if s.call:
                write_atomically(s.call.call_file(None), s.pickled)
                write_json(s.call.file("meta.json"), {"function": s.name, "interpreter": interpreter(),
                                                       "result_cap": 1 << 30, "ids": None})
        env, jobs = None, []
        cwd = os.getcwd()
        try:
            os.chdir(self.folder)
            for s in self.steps:
                spec, job_class = _client.job_spec(s.words, s.argv)
                env = spec.pop("env") if env is None else env
                spec["env"] = {}
                jobs.append({"spec": spec, "class": job_class, "needs": [n.index for n in s.needs], "key": s.key,
                             "parts": s.parts, "outputs": s.outputs, "rerun": s.name in rerun})
        finally:
            os.chdir(cwd)
        if any(s.call for s in self.steps):
            env["PYTHONPATH"] = _python_path()
        reply = _client.request("submit_many", env=env or {}, jobs=jobs, key=uuid.uuid4().hex,
                                flow={"name": self.name, "file": f"python:{self.name}", "run_dir": self.folder,
                                      "digests": []})
        ids = {s.name: reply["ids"][s.index] for s in self.steps}
        origins = {s.name: reply.get("origins", [])[s.index] if reply.get("origins") else "submitted"
                   for s in self.steps}
        return FlowRun(reply.get("flow_id", 0), ids, origins,
                       {s.name: s.call.result_file(None) for s in self.steps if s.call})


def _digest(path):
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except FileNotFoundError:
        raise FileNotFoundError(f"a step's input {path} is missing (no step makes it)") from None
    return h.hexdigest()

