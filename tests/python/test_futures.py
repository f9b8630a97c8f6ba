"""Functions as jobs: values, exceptions with their remote traceback, the Future's
protocol (as_completed, wait, callbacks), arrays, dependencies, output, scripts."""

import concurrent.futures
import os

import pytest

import switchyard


def square(x):
    return x * x


def fail_with(message):
    raise KeyError(message)


def where():
    return os.getpid(), os.environ.get("YARD_JOB_ID")


def shout(text):
    print(text)
    print("to stderr", file=__import__("sys").stderr)
    return len(text)


@pytest.fixture(scope="module")
def ex():
    return switchyard.Executor(mem="200M", time="5:00")


def test_a_function_runs_as_a_job_and_its_value_comes_back(ex):
    job = ex.submit(square, 12)
    assert job.result(60) == 144
    assert job.state == "COMPLETED"
    pid, job_id = ex.submit(where).result(60)
    assert pid != os.getpid()  # it ran in a process of its own, as a job of the daemon
    assert job_id is not None


def test_an_exception_is_raised_again_with_the_jobs_traceback(ex):
    job = ex.submit(fail_with, "no such key")
    with pytest.raises(KeyError) as info:
        job.result(60)
    assert info.value.args == ("no such key",)
    note = "\n".join(info.value.__notes__)
    assert f"raised in job {job.job_id}" in note
    assert "in fail_with" in note  # the remote frame, by the function's name
    assert isinstance(job.exception(), KeyError)
    assert job.state == "FAILED"


def test_jobs_are_futures_for_as_completed_wait_and_callbacks(ex):
    jobs = [ex.submit(square, i) for i in range(6)]
    called = []
    jobs[0].add_done_callback(lambda f: called.append(f.result()))
    assert sorted(f.result() for f in concurrent.futures.as_completed(jobs, timeout=120)) == [0, 1, 4, 9, 16, 25]
    done, not_done = concurrent.futures.wait(jobs, timeout=60)
    assert len(done) == 6 and not not_done
    assert called == [0]


def test_map_runs_an_array_and_gives_the_results_in_order(ex):
    assert list(ex.map(square, range(7), timeout=120)) == [i * i for i in range(7)]
    jobs = ex.map_array(pow, [2, 3], [3, 2])
    assert len({j.job_id for j in jobs}) == 2
    assert [j.result(60) for j in jobs] == [8, 9]
    record = jobs[1].record()
    assert record["array_job_id"] == jobs[0].job_id and record["array_index"] == 1


def test_map_splits_its_arrays_at_the_backends_limit_as_the_daemon_states_it(ex, monkeypatch):
    # The daemon's answer for a backend whose scheduler takes 3 elements an array (as
    # Slurm's MaxArraySize or max_array_size in its settings file would say).
    from switchyard import _client, _executor
    real = _client.request

    def routes_with_a_limit(op, **fields):
        reply = real(op, **fields)
        if op == "routes":
            for b in reply["routes"]["backends"]:
                if b["backend"] == "local":
                    b["max_array_size"] = 3
        return reply
    assert _executor.array_limit("local") == _executor.ARRAY_LIMIT  # the local backend states none
    monkeypatch.setattr(_client, "request", routes_with_a_limit)
    assert _executor.array_limit(None) == 3
    jobs = ex.map_array(square, range(7))
    arrays = [j.record()["array_job_id"] for j in jobs]
    assert len(set(arrays)) == 3 and arrays.count(arrays[-1]) == 1
    assert [j.result(120) for j in jobs] == [i * i for i in range(7)]


def test_a_job_given_as_an_argument_is_a_dependency_and_stands_for_its_result(ex):
    first = ex.submit(square, 3)
    second = ex.submit(square, first)
    third = ex.submit(sum, [first, second])
    assert third.result(120) == 9 + 81
    assert second.record()["start_time"] >= first.record()["end_time"]


def test_a_dependent_of_a_failed_job_never_runs(ex):
    bad = ex.submit(fail_with, "x")
    after = ex.submit(square, bad)
    with pytest.raises(switchyard.Cancelled) as info:
        after.result(120)
    assert info.value.state == "CANCELLED"
    assert after.record()["start_time"] is None


def test_output_and_scripts(ex):
    job = ex.submit(shout, "hello")
    assert job.result(60) == 5
    assert job.stdout() == "hello\n"
    assert "to stderr" in job.stderr()
    assert ex.submit_script("echo fine").result(60) is None
    failing = ex.submit_script("echo bad >&2; exit 3")
    with pytest.raises(switchyard.JobFailed) as info:
        failing.result(60)
    assert info.value.exit_code == 3
    assert "bad" in failing.stderr()
