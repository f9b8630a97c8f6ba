"""Every test file gets a daemon of its own: its runtime, state and configuration
directories in a temporary directory, started by the module on first use (as a user's
would be), and stopped at the end by its pid, which the test then waits to see gone."""

import os
import shutil
import tempfile

import pytest

from yard_test_daemon import wait_gone


@pytest.fixture(scope="module", autouse=True)
def daemon():
    root = tempfile.mkdtemp(prefix="yard-python-")
    saved = {k: os.environ.get(k) for k in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME")}
    for key in saved:
        os.environ[key] = os.path.join(root, key.lower())
        os.makedirs(os.environ[key], mode=0o700)
    import switchyard
    from switchyard import _client
    _client._client = None  # a client for these directories
    switchyard.ping()  # started here, before the tests
    yield root
    pid = switchyard.ping()["pid"]  # the daemon now (a test may have killed the first)
    try:
        _client.request("shutdown", kill_jobs=True)
    except switchyard.DaemonError:
        pass
    assert wait_gone(pid), f"the daemon {pid} did not stop"
    _client._client = None
    from switchyard import _watcher
    _watcher._watcher = None
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    shutil.rmtree(root, ignore_errors=True)

