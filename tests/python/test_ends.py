"""How the scheduler ended a job, as the exception's type: out of memory, time limit,
cancel; and a job cancelled from Python."""

import concurrent.futures
import time

import pytest

import switchyard


def hog(megabytes):
    blocks = [bytearray(1 << 20) for _ in range(megabytes)]
    return len(blocks)


def sleep(seconds):
    time.sleep(seconds)
    return seconds


def test_a_job_over_its_memory_raises_out_of_memory():
    job = switchyard.Executor(mem="64M").submit(hog, 1024)
    with pytest.raises(switchyard.OutOfMemory) as info:
        job.result(120)
    assert info.value.job_id == job.job_id
    assert info.value.state == "OUT_OF_MEMORY"


def test_a_job_over_its_time_raises_timeout():
    job = switchyard.Executor(time="0:02").submit(sleep, 300)
    with pytest.raises(switchyard.Timeout):
        job.result(120)


def test_cancel_ends_the_job_and_the_future():
    job = switchyard.Executor().submit(sleep, 300)
    deadline = time.monotonic() + 60
    while job.state != "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert job.cancel()
    assert job.cancelled()
    with pytest.raises(concurrent.futures.CancelledError):
        job.result(10)
    deadline = time.monotonic() + 60
    while job.state != "CANCELLED" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert job.state == "CANCELLED"


def test_a_job_cancelled_elsewhere_raises_cancelled():
    job = switchyard.Executor().submit(sleep, 300)
    switchyard._client.request("cancel", ids=[job.job_id])
    with pytest.raises(switchyard.Cancelled):
        job.result(60)
