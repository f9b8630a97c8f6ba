"""What a job, or the daemon, can raise in the caller."""


class DaemonError(Exception):
    """The daemon refused a request, or could not be reached; `kind` says which
    (invalid, not_found, unavailable, conflict, internal, unsatisfiable,
    outcome_unknown)."""

    def __init__(self, message, kind="internal"):
        super().__init__(message)
        self.kind = kind


class InvalidRequest(DaemonError, ValueError):
    """The daemon refused the request as given (a bad option, an unknown backend)."""


class JobError(Exception):
    """A job ended without a result. `job_id`, `state` (COMPLETED, FAILED, TIMEOUT, ...),
    `reason` and `exit_code` come from its record in the daemon."""

    def __init__(self, message, job_id=None, state=None, reason="", exit_code=None):
        super().__init__(message)
        self.job_id = job_id
        self.state = state
        self.reason = reason
        self.exit_code = exit_code


class JobFailed(JobError):
    """The job ended FAILED without a result (its program could not start, or died)."""


class OutOfMemory(JobError):
    """The job was killed for using more memory than it asked for."""


class Timeout(JobError):
    """The job was killed at its time limit."""


class NodeFail(JobError):
    """The node the job ran on failed."""


class Cancelled(JobError):
    """The job was cancelled (by someone, or because a job it needed failed)."""


class JobLost(JobError):
    """The job's fate is unknown: what ran it vanished (yard says LOST)."""


class EnvironmentMismatch(JobError):
    """The job's Python could not import what the function needs."""


class ResultTooLarge(JobError):
    """The job's result was over the executor's result cap."""


class DependencyFailed(JobError):
    """A job whose result was an argument of this one gave no result."""


# A state a job ended in, and the exception that says so.
BY_STATE = {
    "FAILED": JobFailed,
    "OUT_OF_MEMORY": OutOfMemory,
    "TIMEOUT": Timeout,
    "NODE_FAIL": NodeFail,
    "CANCELLED": Cancelled,
    "LOST": JobLost,
}

# Shown as switchyard.X (they are imported there, so pickles find them by that name too).
for _cls in (DaemonError, InvalidRequest, JobError, JobFailed, OutOfMemory, Timeout, NodeFail, Cancelled, JobLost,
             EnvironmentMismatch, ResultTooLarge, DependencyFailed):
    _cls.__module__ = "switchyard"
