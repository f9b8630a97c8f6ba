"""Slurm's commands as front ends, tested as the tools that call them do: each test file
gets a daemon of its own (its directories in a temporary one, started by the first
command as a user's would be, stopped at the end by its pid), and a shell whose PATH
starts with the front ends (`yard slurm-commands env --replace`: the real Slurm the test
machine has installed stays behind them)."""

import os
import shutil
import subprocess
import tempfile
import time

import pytest

from yard_test_daemon import wait_gone

YARD = os.environ.get("YARD", "yard")


class Shell:
    def __init__(self, root):
        self.root = root
        self.cwd = os.path.join(root, "work")
        os.makedirs(self.cwd)
        self.env = dict(os.environ)
        for key in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
            self.env[key] = os.path.join(root, key.lower())
            os.makedirs(self.env[key], mode=0o700)
        line = subprocess.run([YARD, "slurm-commands", "env", "--replace"], env=self.env, check=True,
                              capture_output=True, text=True).stdout
        self.env["PATH"] = subprocess.run(["bash", "-c", line + 'printf %s "$PATH"'], env=self.env, check=True,
                                          capture_output=True, text=True).stdout

    def run(self, command, check=True, stdin=None):
        """A command line, run by the shell as the tools run it: (exit status, stdout, stderr)."""
        p = subprocess.run(command, shell=True, cwd=self.cwd, env=self.env, capture_output=True, text=True,
                           input=stdin, timeout=120)
        if check and p.returncode != 0:
            raise AssertionError(f"{command!r} exited {p.returncode}: {p.stdout}{p.stderr}")
        return p.returncode, p.stdout, p.stderr

    def until(self, predicate, timeout=120):
        """Waits for a condition (each try a command), up to `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = predicate()
            if got:
                return got
            time.sleep(0.1)
        raise AssertionError("condition not met in time")

    def write(self, name, text, mode=0o644):
        path = os.path.join(self.cwd, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path


@pytest.fixture(scope="module")
def shell():
    root = tempfile.mkdtemp(prefix="yard-slurm-commands-")
    sh = Shell(root)
    yield sh
    pid = None
    code, out, _ = sh.run(f"{YARD} server status --json", check=False)
    if code == 0:
        import json
        pid = json.loads(out).get("pid")
    sh.run(f"{YARD} server stop", check=False)
    assert not pid or wait_gone(pid), f"the daemon {pid} did not stop"
    shutil.rmtree(root, ignore_errors=True)

