"""submitit's interface over switchyard, so that moving a script from submitit is one
line: `import switchyard.submitit as submitit`. AutoExecutor, update_parameters, submit,
map_array and batch take submitit's names and run on any backend the daemon has; the
jobs are switchyard Jobs (Futures) with submitit's wait(), results() and done().

Parameter names (submitit's; `slurm_` ones too, whatever the backend):
    timeout_min, mem_gb, nodes, cpus_per_task, gpus_per_node, tasks_per_node, name,
    stderr_to_stdout, slurm_partition, slurm_time, slurm_mem, slurm_account, slurm_qos,
    slurm_gres, slurm_constraint, slurm_exclude, slurm_comment, slurm_array_parallelism,
    slurm_additional_parameters (a dict of sbatch's long options), and `backend` (a yard
    backend or route wish). Anything else is a ValueError naming it, as submitit's."""

import contextlib

from ._executor import Executor, array_limit
from ._job import Job

_SLURM = {
    "partition": "partition", "time": "time", "mem": "mem", "account": "account", "qos": "qos",
    "gres": "gres", "constraint": "constraint", "exclude": "exclude", "comment": "comment",
    "cpus_per_task": "cpus_per_task", "nodes": "nodes", "ntasks_per_node": "ntasks_per_node",
    "job_name": "job_name", "mem_per_cpu": "mem_per_cpu", "gpus_per_node": "gpus_per_node",
}


def _resources(params):
    out = {}
    unknown = []
    for key, value in params.items():
        if value is None:
            continue
        if key == "timeout_min":
            out["time"] = str(int(value))  # sbatch's minutes
        elif key == "mem_gb":
            out["mem"] = f"{value}G"
        elif key in ("nodes", "cpus_per_task"):
            out[key] = value
        elif key == "gpus_per_node":
            if value:
                out["gpus"] = value
        elif key == "tasks_per_node":
            out["ntasks_per_node"] = value
        elif key in ("name", "stderr_to_stdout", "slurm_array_parallelism", "backend"):
            pass  # taken by the executor itself
        elif key == "slurm_additional_parameters":
            out.update({k: v for k, v in dict(value).items()})
        elif key.startswith("slurm_") and key[6:] in _SLURM:
            out[_SLURM[key[6:]]] = value
        else:
            unknown.append(key)
    if unknown:
        raise ValueError(f"Unavailable parameter(s): {sorted(unknown)} (switchyard.submitit takes submitit's "
                         f"names: timeout_min, mem_gb, nodes, cpus_per_task, gpus_per_node, tasks_per_node, name, "
                         f"slurm_partition, slurm_account, ..., slurm_additional_parameters)")
    return out


class AutoExecutor:
    """submitit.AutoExecutor(folder, cluster=None): `cluster` ("slurm", "local", or any
    yard backend; None: the daemon's default or routes) picks the backend."""

    def __init__(self, folder, cluster=None, **kwargs):
        self.folder = str(folder)
        self._params = {"backend": None if cluster in (None, "debug") else cluster}
        self._batch = None
        self.update_parameters(**kwargs)

    @property
    def cluster(self):
        return self._params.get("backend") or "local"

    def update_parameters(self, **kwargs):
        params = {**self._params, **kwargs}
        resources = _resources(params)
        self._executor = Executor(backend=params.get("backend"), folder=self.folder, **resources)
        self._params = params

    def _named(self, fn):
        return self._params.get("name") or getattr(fn, "__name__", "submitit")

    def submit(self, fn, *args, **kwargs) -> Job:
        job = self._executor._submit(fn, self._named(fn), [(args, kwargs)], array=False)[0]
        if self._batch is not None:
            self._batch.append(job)
        return job

    def map_array(self, fn, *iterables):
        limit = self._params.get("slurm_array_parallelism")
        ex = self._executor
        calls = [(args, {}) for args in zip(*iterables)]
        jobs = []
        size = array_limit(ex._resources.get("backend"))
        for start in range(0, len(calls), size):
            jobs += ex._submit(fn, self._named(fn), calls[start:start + size], array=True, throttle=limit)
        return jobs

    @contextlib.contextmanager
    def batch(self):
        """As submitit's: submissions inside the block (here each is submitted at once)."""
        self._batch = []
        try:
            yield
        finally:
            self._batch = None


SlurmExecutor = AutoExecutor
LocalExecutor = AutoExecutor


class helpers:  # submitit.helpers.DelayedSubmission, as scripts write it
    from ._checkpoint import DelayedSubmission
