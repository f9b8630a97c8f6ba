"""What a Python job runs: `python -m switchyard._runner FOLDER`. Loads the function and
its arguments, calls it, and writes what it returned or raised to the folder, whole. An
array's element takes its index from $YARD_ARRAY_TASK_ID. Exit status: 0 with a result,
1 when the function raised or the call could not be loaded."""

import os
import pickle
import sys

from ._calls import Call, write_atomically
from ._checkpoint import arm, checkpointable
from ._errors import EnvironmentMismatch, JobFailed, ResultTooLarge
from ._results import JobResult


def _resolved(value):
    if isinstance(value, JobResult):
        return value.value()
    if type(value) in (list, tuple):
        return type(value)(_resolved(v) for v in value)
    if type(value) is dict:
        return {k: _resolved(v) for k, v in value.items()}
    return value


def _dumps(outcome):
    # pickle first: most values need nothing more, and cloudpickle's import is a third of
    # a short job's time; a value pickle cannot take (a lambda, a local class) goes by it.
    try:
        return pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        import cloudpickle
        return cloudpickle.dumps(outcome)


def _outcome(call, index, meta):
    try:
        with open(call.call_file(index), "rb") as f:
            fn, args, kwargs = pickle.load(f)
    except (ModuleNotFoundError, ImportError) as e:
        name = getattr(e, "name", None) or str(e)
        caller = meta.get("interpreter", {})
        return ("error", EnvironmentMismatch(
            f"the job's Python ({sys.executable}, {sys.version.split()[0]}) cannot import module '{name}', "
            f"which the caller's ({caller.get('executable', '?')}, {caller.get('version', '?')}) could: install it "
            f"for {sys.executable}, or run the job where it is"), "")
    args, kwargs = _resolved(args), _resolved(kwargs)
    if checkpointable(fn):
        def store(f, a, k):
            import cloudpickle
            write_atomically(call.call_file(index), cloudpickle.dumps((f, a, k)))
        arm(fn, args, kwargs, store)
    try:
        return ("ok", fn(*args, **kwargs), "")
    except BaseException as e:  # the job reports whatever the function raised, SystemExit included
        import traceback
        return ("error", e, traceback.format_exc())


def _script(call):
    import subprocess
    rc = subprocess.call(["/bin/bash", call.file("script.sh")])
    outcome = ("ok", None, "") if rc == 0 else ("error", JobFailed(f"the script exited {rc}", exit_code=rc), "")
    write_atomically(call.result_file(None), _dumps(outcome))
    return 0 if rc == 0 else 1


def main(argv):
    call = Call(argv[1])
    if argv[2:] == ["--script"]:
        return _script(call)
    index = os.environ.get("YARD_ARRAY_TASK_ID") if os.path.isdir(call.file("calls")) else None
    meta = call.meta()
    outcome = _outcome(call, index, meta)
    try:
        data = _dumps(outcome)
    except Exception as e:
        import traceback
        what = "result" if outcome[0] == "ok" else "exception"
        outcome = ("error", TypeError(f"the function's {what} cannot be pickled: {e}"), traceback.format_exc())
        data = _dumps(outcome)
    cap = int(meta.get("result_cap", 0))
    if cap and len(data) > cap:
        outcome = ("error", ResultTooLarge(f"the result is {len(data)} bytes pickled, over the executor's result cap "
                                           f"of {cap} bytes (Executor(result_cap=...))"), "")
        data = _dumps(outcome)
    target = call.result_file(index)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    write_atomically(target, data)
    if outcome[0] != "ok":
        print(outcome[2] or f"{type(outcome[1]).__name__}: {outcome[1]}", file=sys.stderr)
    return 0 if outcome[0] == "ok" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
