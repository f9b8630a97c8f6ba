"""Checkpoint and requeue: an object with __checkpoint__ is told before its time limit,
and its job runs again under the same id from the state it saved, until it finishes."""

import time

import switchyard


class Count:
    """Counts to `target` in steps of 0.1 s, longer than one try's time limit."""

    def __init__(self, target):
        self.target = target

    def __call__(self, done=0, tries=1):
        self.done, self.tries = done, tries
        while self.done < self.target:
            time.sleep(0.1)
            self.done += 1
        return self.done, self.tries

    def __checkpoint__(self, done=0, tries=1):
        return switchyard.DelayedSubmission(self, done=self.done, tries=self.tries + 1)


def test_a_checkpointed_job_goes_on_after_its_time_limit_under_the_same_id():
    ex = switchyard.Executor(time="0:04", checkpoint_s=2, max_requeues=10)  # however slow a loaded machine is
    job = ex.submit(Count(50))  # 5 s of work, 2 s a try before the warning
    done, tries = job.result(120)
    assert done == 50
    assert tries >= 2
    record = job.record()
    assert record["state"] == "COMPLETED"
    assert record["retries"] == tries - 1


def test_without_a_checkpoint_a_job_over_its_time_is_a_timeout():
    ex = switchyard.Executor(time="0:02")
    job = ex.submit(time.sleep, 30)
    try:
        job.result(60)
        raise AssertionError("no timeout")
    except switchyard.Timeout:
        pass
    assert job.record()["retries"] == 0
