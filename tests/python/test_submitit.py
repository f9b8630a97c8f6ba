"""A submitit script moved by its import line alone: AutoExecutor, update_parameters,
submit, map_array with a parallelism limit, batch, and submitit's Job methods."""

import pytest

import switchyard.submitit as submitit


def add(a, b):
    return a + b


def test_a_submitit_script_runs_with_its_import_changed(tmp_path):
    executor = submitit.AutoExecutor(folder=tmp_path / "log_test")
    executor.update_parameters(timeout_min=5, mem_gb=1, cpus_per_task=1, name="adder", slurm_array_parallelism=2)
    job = executor.submit(add, 5, 7)
    assert job.result() == 12
    assert job.results() == [12]
    job.wait()
    assert job.done()
    jobs = executor.map_array(add, [1, 2, 3], [10, 20, 30])
    assert [j.result() for j in jobs] == [11, 22, 33]
    assert jobs[0].record()["array_max_running"] == 2
    assert jobs[0].record()["name"] == "adder"
    with executor.batch():
        batch = [executor.submit(add, i, i) for i in range(3)]
    assert [j.result() for j in batch] == [0, 2, 4]
    assert (tmp_path / "log_test").is_dir()


def test_a_name_submitit_would_refuse_is_refused_naming_it(tmp_path):
    executor = submitit.AutoExecutor(folder=tmp_path)
    with pytest.raises(ValueError) as info:
        executor.update_parameters(timeout_minutes=5)
    assert "timeout_minutes" in str(info.value)
