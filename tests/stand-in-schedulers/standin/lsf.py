"""IBM Spectrum LSF 10.1 stand-in: the scheduler module the server, standin-ctl and
start.sh load (`standin.lsf`), and the commands' entry point.

Facts come from the published samples in tests/fixtures/lsf (their README names the
sources), the IBM Spectrum LSF 10.1 documentation, and OpenLava (the open descendant of
LSF 4, zjma/openlava @ 69fa3e0) for the messages and rules LSF kept. What had to be
invented is listed in LSF.md under UNVERIFIED.

The work is spread over the lsf_* modules:
  lsf_common        settings, job ids and index lists, messages, times, JSON, outage
  lsf_bsub_options  bsub's options and #BSUB lines, -J -n -W -R -gpu -env
  lsf_depend        bsub -w: the dependency expression, checked and evaluated
  lsf_bsub          bsub
  lsf_view          one job as bjobs shows it (STAT and the -o fields)
  lsf_bjobs         bjobs (-json, -o, the default table)
  lsf_bkill         bkill, bstop, bresume
  lsf_bqueues       bqueues -l (the queue and its limits)
  lsf_policy        what the server does the LSF way (Policy)
  lsf_synth         synthetic jobs for benchmarks

    python3 -m standin.lsf synth-bjobs N     (= python3 -m standin.lsf_synth N)
prints a `bjobs -a -json -o ...` answer for N synthetic jobs without any server.
"""

import sys

from standin.lsf_bjobs import bjobs
from standin.lsf_bkill import bkill, bresume, bstop
from standin.lsf_bqueues import bqueues
from standin.lsf_bsub import bsub
from standin.lsf_common import DEFAULTS, find_for_ctl  # noqa: F401  (start.sh, standin-ctl)
from standin.lsf_policy import Policy  # noqa: F401  (the server)
from standin.lsf_synth import synth_bjobs

COMMANDS = {"bsub": bsub, "bjobs": bjobs, "bkill": bkill, "bstop": bstop, "bresume": bresume,
            "bqueues": bqueues}


def main(argv):
    if argv and argv[0] == "synth-bjobs":
        return synth_bjobs(argv[1:])
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    sys.stderr.write("usage: python3 -m standin.lsf synth-bjobs N\n"
                     "       python3 -m standin.lsf bsub|bjobs|bkill|bstop|bresume|bqueues ARGS...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
