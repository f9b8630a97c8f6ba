"""Bad input is refused at submit, naming what was wrong, with nothing submitted; a result
over the cap and a job whose Python cannot import the function's module say so."""

import os
import subprocess
import sys
import textwrap
import threading

import pytest

import switchyard


def job_count():
    return len(switchyard._client.rows(switchyard._client.request("jobs")["jobs"]))


def big(n):
    return b"x" * n


def test_unknown_resource_names_are_a_type_error_naming_each():
    with pytest.raises(TypeError) as info:
        switchyard.Executor(cpus_per_tusk=2, memory="1G", mem="1G")
    assert "cpus_per_tusk" in str(info.value) and "memory" in str(info.value)
    assert "mem," not in str(info.value).split(":")[1].split("(")[0]


def test_a_bad_value_is_a_value_error_naming_the_resource():
    with pytest.raises(ValueError) as info:
        switchyard.Executor(cpus_per_task="many")
    assert "cpus_per_task='many'" in str(info.value)
    with pytest.raises(ValueError) as info:
        switchyard.Executor(mem="lots")
    assert "mem='lots'" in str(info.value)


def test_an_unpicklable_call_is_refused_and_nothing_is_submitted():
    before = job_count()
    lock = threading.Lock()
    with pytest.raises(TypeError) as info:
        switchyard.Executor().submit(lambda: lock)
    assert "cannot be pickled, nothing was submitted" in str(info.value)
    with pytest.raises(TypeError):
        switchyard.Executor().submit(print, lock)
    assert job_count() == before


def test_an_unknown_backend_is_refused_by_the_daemon():
    before = job_count()
    with pytest.raises(switchyard.InvalidRequest) as info:
        switchyard.Executor(backend="nosuch").submit(print, 1)
    assert "nosuch" in str(info.value)
    assert job_count() == before


def test_a_result_over_the_cap_is_refused_by_the_job_naming_the_cap():
    ex = switchyard.Executor(result_cap=10000)
    assert len(ex.submit(big, 100).result(60)) == 100
    with pytest.raises(switchyard.ResultTooLarge) as info:
        ex.submit(big, 100000).result(60)
    assert "result cap of 10000 bytes" in str(info.value)


def test_a_module_the_jobs_python_cannot_import_is_named(tmp_path):
    # A module that exists for the caller only: the job runs after it is gone (it waits
    # for a job that waits for a file), so its Python cannot import it.
    (tmp_path / "onlyhere.py").write_text(textwrap.dedent("""
        def twice(x):
            return 2 * x
    """))
    sys.path.insert(0, str(tmp_path))
    try:
        import onlyhere
        ex = switchyard.Executor()
        gate = tmp_path / "gate"
        first = ex.submit_script(f"while [ ! -e {gate} ]; do sleep 0.05; done")
        job = ex.submit(onlyhere.twice, first)
        (tmp_path / "onlyhere.py").unlink()
        gate.touch()
        with pytest.raises(switchyard.EnvironmentMismatch) as info:
            job.result(60)
        assert "cannot import module 'onlyhere'" in str(info.value)
        assert sys.executable in str(info.value)
    finally:
        sys.path.remove(str(tmp_path))
