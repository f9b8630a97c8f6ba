#!/usr/bin/env python3
"""What the Flux stand-in self-tests share (no tests of its own): a FluxInstance driven
through bin/flux/flux only, as the C++ backend drives flux."""

import json

from selftest_helpers import Instance, wait_for  # noqa: F401  (re-exported)
from standin.flux_common import parse_jobid

INACTIVE = ("INACTIVE",)


class FluxInstance(Instance):
    """Jobs submitted with `flux submit`/`flux batch`, read with `flux jobs --json`."""

    scheduler = "flux"
    STATE = "state"

    def ok(self, *args, stdin=None, env=None):
        """Run `flux ARGS`; it must succeed with nothing on stderr. Its stdout."""
        r = self.flux(*args, stdin=stdin, env=env)
        if r.returncode != 0 or r.stderr:
            raise AssertionError("flux %s: %d %r %r" % (args, r.returncode, r.stdout, r.stderr))
        return r.stdout

    def flux(self, *args, stdin=None, env=None, timeout=30):
        if env is None:
            return self.run("flux", *args, stdin=stdin, timeout=timeout)
        saved = self.env
        self.env = dict(saved, **env)
        try:
            return self.run("flux", *args, stdin=stdin, timeout=timeout)
        finally:
            self.env = saved

    def submit(self, *args, cmd="submit", stdin=None):
        """One job's id (F58 as printed)."""
        ids = self.submit_all(*args, cmd=cmd, stdin=stdin)
        assert len(ids) == 1, ids
        return ids[0]

    def submit_all(self, *args, cmd="submit", stdin=None):
        out = self.ok(cmd, *args, stdin=stdin)
        ids = out.split("\n")[:-1]
        assert ids and all(parse_jobid(i) for i in ids), out
        return ids

    def batch(self, *args, stdin=None):
        return self.submit(*args, cmd="batch", stdin=stdin)

    def job(self, jid):
        r = self.flux("jobs", "--json", jid)
        if r.returncode != 0 or r.stderr:
            raise AssertionError("flux jobs %s: %d %s" % (jid, r.returncode, r.stderr))
        return json.loads(r.stdout)

    def done(self, jid, timeout=30.0):
        return self.wait_state(jid, INACTIVE, timeout)
