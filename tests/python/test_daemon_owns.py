"""The daemon owns the jobs: a process that submitted and died leaves them running, and a
fresh interpreter finds them, and their results, by tag."""

import os
import subprocess
import sys
import textwrap

import switchyard

SUBMITTER = textwrap.dedent("""
    import switchyard
    ex = switchyard.Executor(tag="sweep-7")
    ex.submit(pow, 2, 5)
    ex.map_array(pow, [3, 4], [2, 2])
    switchyard.Executor(tag="other").submit(pow, 1, 1)
    import os
    os._exit(0)  # dies at once, its futures never ended
""")


def test_a_fresh_interpreter_finds_the_jobs_and_results_of_one_that_died():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, "-c", SUBMITTER], env=env, check=True, timeout=120)
    jobs = switchyard.jobs(tag="sweep-7")
    assert sorted(j.result(60) for j in jobs) == [9, 16, 32]
    assert {j.name for j in jobs} == {"pow"}
    assert len(switchyard.jobs(tag="other")) == 1
    assert len(switchyard.jobs()) == 4


def test_a_submission_cut_before_its_ids_were_stored_is_found_once(tmp_path):
    ex = switchyard.Executor(tag="cut", folder=str(tmp_path))
    job = ex.submit(pow, 3, 3)
    assert job.result(60) == 27
    meta = os.path.join(job.folder, "meta.json")
    import json
    with open(meta) as f:
        record = json.load(f)
    record["ids"] = None  # as if the caller died between the daemon's reply and this write
    with open(meta, "w") as f:
        json.dump(record, f)
    again = switchyard.jobs(tag="cut", folder=str(tmp_path))
    assert [j.job_id for j in again] == [job.job_id]  # the same job: not submitted twice
    assert again[0].result(60) == 27


def slow_identity(x):
    import time
    time.sleep(2)  # the job is still running when its daemon is killed
    return x


def test_a_future_ends_with_its_value_across_a_killed_daemon():
    import signal
    import time
    job = switchyard.Executor().submit(slow_identity, 7)
    deadline = time.monotonic() + 60
    while job.state != "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.02)
    old = switchyard.ping()["pid"]
    os.kill(old, signal.SIGKILL)
    assert job.result(60) == 7  # the event-log thread reaches the daemon started again
    assert switchyard.ping()["pid"] != old
    assert job.record()["state"] == "COMPLETED"
