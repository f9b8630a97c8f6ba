"""HTCondor 23/24 stand-in: the scheduler module the server, standin-ctl and start.sh load
(`standin.htcondor`), and the commands' entry point.

It behaves as one schedd and one execute machine for one user: condor_submit,
condor_q, condor_history, condor_rm, condor_hold and condor_release, with HTCondor's formats. Facts come from the
published samples in tests/fixtures/htcondor (their README names the sources) and from
HTCondor's sources and documentation (htcondor/htcondor @ 7491a145); HTCONDOR.md says
which file gave what, and lists what is UNVERIFIED.

The work is spread over the htcondor_* modules:
  htcondor_common       settings, job ids, JobStatus and hold codes, times, the outage words
  htcondor_submit_file  the submit description: lines, macros, queue statements
  htcondor_submit_keys  what the keys mean for one proc (executable, environment, ...)
  htcondor_submit       condor_submit
  htcondor_view         one proc as a job ClassAd
  htcondor_json         the ClassAd printers (-json, -jsonl, -long, -af)
  htcondor_q            condor_q
  htcondor_history      condor_history
  htcondor_rm           condor_rm (and what the tools that act on jobs share)
  htcondor_hold         condor_hold, condor_release
  htcondor_policy       what the server does the HTCondor way (Policy)
  htcondor_starter      the per-job starter (output files, memory limit, exit status)
  htcondor_synth        synthetic jobs for benchmarks

    python3 -m standin.htcondor synth-q N     (= python3 -m standin.htcondor_synth N)
prints a `condor_q -json -attributes ...` answer for N synthetic procs without a server.
"""

import sys

from standin.htcondor_common import DEFAULTS, find_for_ctl  # noqa: F401  (start.sh, standin-ctl)
from standin.htcondor_history import condor_history
from standin.htcondor_hold import condor_hold, condor_release
from standin.htcondor_policy import Policy  # noqa: F401  (the server)
from standin.htcondor_q import condor_q
from standin.htcondor_rm import condor_rm
from standin.htcondor_submit import condor_submit
from standin.htcondor_synth import synth_q

COMMANDS = {"condor_submit": condor_submit, "condor_q": condor_q,
            "condor_history": condor_history, "condor_rm": condor_rm,
            "condor_hold": condor_hold, "condor_release": condor_release}


def main(argv):
    if argv and argv[0] == "synth-q":
        return synth_q(argv[1:])
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    sys.stderr.write("usage: python3 -m standin.htcondor synth-q N\n"
                     "       python3 -m standin.htcondor condor_submit|condor_q|"
                     "condor_history|condor_rm|condor_hold|condor_release ARGS...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
