"""A job's result where it is an argument of another job: a Job pickles as this, and
the job that receives it reads the result in its place (switchyard._runner). A module
of its own, so that the class is the same whether the runner runs as __main__ or not."""

import pickle

from ._errors import DependencyFailed


class JobResult:
    """A job's result where it was an argument of another job (pickled in its place)."""

    def __init__(self, job_id, result_file):
        self.job_id = job_id
        self.result_file = result_file

    def value(self):
        try:
            with open(self.result_file, "rb") as f:
                kind, value, *_ = pickle.load(f)
        except FileNotFoundError:
            raise DependencyFailed(f"job {self.job_id}, whose result is an argument, left no result "
                                   f"({self.result_file})", self.job_id) from None
        if kind != "ok":
            raise DependencyFailed(f"job {self.job_id}, whose result is an argument, raised {value!r}", self.job_id)
        return value
