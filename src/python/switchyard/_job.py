"""A job of the daemon seen as a concurrent.futures.Future: it ends when the job ends
(PENDING again after a preemption or a requeue is no end), with the function's value,
or its exception raised again with the job's traceback, or an exception whose type says
how the scheduler ended it."""

import concurrent.futures
import pickle

from . import _client
from ._errors import BY_STATE, JobError
from ._results import JobResult


class Job(concurrent.futures.Future):
    """One job: `job_id` (as yard status shows it), `state`, `cancel()`, `stdout()`,
    `stderr()`, and the Future's `result()`, `exception()`, `done()`, callbacks."""

    def __init__(self, job_id, call, index=None, name=""):
        super().__init__()
        self.job_id = job_id
        self.name = name
        self._call = call
        self._index = index
        self._ended_as = None  # the state it ended in

    def __repr__(self):
        return f"<switchyard.Job {self.job_id} {self.name!r} {self._ended_as if self.done() else 'not ended'}>"

    # Passed as an argument of another job, a job stands for its result there.
    def __reduce__(self):
        return (JobResult, (self.job_id, self._call.result_file(self._index)))

    @property
    def folder(self):
        """The call's folder (its pickles and output)."""
        return self._call.path

    @property
    def state(self):
        """The job's state now, as the daemon has it (PENDING, RUNNING, COMPLETED, ...)."""
        return self.record()["state"]

    def record(self):
        """The job's whole record in the daemon (yard status --json's fields)."""
        return _client.request("job", id=self.job_id)["job"]

    def cancel(self):
        """Cancels the job (running or not); False if it had already ended."""
        if self.done():
            return False
        _client.request("cancel", ids=[self.job_id])
        return super().cancel()

    # submitit's names, for scripts moved from it (switchyard.submitit).
    def wait(self):
        """Until the job ended (whatever its outcome)."""
        self.exception()

    def results(self):
        """[result()], as submitit's Job.results()."""
        return [self.result()]

    def _log(self, stream):
        data, offset = b"", 0
        while True:
            reply = _client.request("logs", id=self.job_id, stream=stream, offset=offset)
            chunk = _client.text(reply.get("data"))
            data += chunk
            offset += len(chunk)
            if not chunk or offset >= reply.get("size", 0):
                return data.decode("utf-8", "replace")

    def stdout(self):
        """What the job wrote on its standard output so far ("" before it started)."""
        return self._log("stdout")

    def stderr(self):
        """What the job wrote on its standard error so far."""
        return self._log("stderr")

    def _finish(self, record):
        """Called once the job ended, with its record (None if the daemon has none)."""
        if self.done():  # cancelled here already
            return
        self._ended_as = record["state"] if record else "LOST"
        try:
            with open(self._call.result_file(self._index), "rb") as f:
                kind, value, remote_trace = pickle.load(f)
        except FileNotFoundError:
            self._end_without_result(record)
            return
        except Exception as e:  # the result's classes cannot be loaded here
            self._set(exception=JobError(f"job {self.job_id}: its result cannot be read here: {e}", self.job_id,
                                         self._ended_as))
            return
        if kind == "ok":
            self._set(result=value)
            return
        if isinstance(value, BaseException):
            if remote_trace:
                value.add_note(f"(raised in job {self.job_id}; its traceback there:)\n{remote_trace.rstrip()}")
            self._set(exception=value)
        else:
            self._set(exception=JobError(f"job {self.job_id}: {value!r}", self.job_id, self._ended_as))

    def _end_without_result(self, record):
        state = record["state"] if record else "LOST"
        reason = (record or {}).get("reason", "") or ""
        exit_code = (record or {}).get("exit_code")
        kind = BY_STATE.get(state, JobError)
        message = f"job {self.job_id} ({self.name}) ended {state}"
        if reason:
            message += f": {reason}"
        if state in ("FAILED", "COMPLETED"):
            tail = self.stderr().strip().splitlines()[-5:]
            if exit_code is not None:
                message += f" (exit code {exit_code})"
            message += " without a result" + (":\n" + "\n".join(tail) if tail else "")
        self._set(exception=kind(message, self.job_id, state, reason, exit_code))

    def _set(self, result=None, exception=None):
        try:
            if exception is not None:
                self.set_exception(exception)
            else:
                self.set_result(result)
        except concurrent.futures.InvalidStateError:  # cancelled meanwhile
            pass

