"""Checkpoint and requeue. A callable object with a `__checkpoint__` method is told before
its time limit: the job asks for the backend's warning signal (sbatch's --signal,
SIGUSR1 `checkpoint_s` seconds before the limit) and a retry on TIMEOUT. When the signal
comes, the job's runner calls `__checkpoint__(*args, **kwargs)`, which returns a
DelayedSubmission (the call to make instead, holding the state so far) or None (no
requeue); the runner stores that call as the job's next one and waits for the limit; the
daemon runs the job again under the same id (its retry policy), and it goes on from there.
The caller's future ends only with the last try."""


class DelayedSubmission:
    """A call to run instead, in the job's next try: `function(*args, **kwargs)`."""

    def __init__(self, function, *args, **kwargs):
        self.function = function
        self.args = args
        self.kwargs = kwargs


def checkpointable(fn):
    return callable(getattr(fn, "__checkpoint__", None))


def arm(fn, args, kwargs, store):
    """In the job: on SIGUSR1, the checkpoint taken and stored with store(fn, args, kwargs)."""
    import signal
    import sys
    import time

    def on_warning(signum, frame):
        try:
            nxt = fn.__checkpoint__(*args, **kwargs)
        except Exception as e:  # the job goes on to its limit without a checkpoint
            print(f"switchyard: __checkpoint__ failed: {e!r}", file=sys.stderr)
            return
        if nxt is None:
            return
        store(nxt.function, nxt.args, nxt.kwargs)
        print("switchyard: checkpointed; waiting for the time limit to run again", file=sys.stderr, flush=True)
        while True:  # the backend ends this try at the limit; the daemon starts the next
            time.sleep(3600)

    signal.signal(signal.SIGUSR1, on_warning)
