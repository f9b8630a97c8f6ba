"""Torque stand-in (Torque 6.1.3.h5, the last release): the scheduler module the server,
standin-ctl and start.sh load (`standin.torque`), and the commands' entry point.

Facts come from the published samples in tests/fixtures/torque (their README names
the sources) and from the Torque sources (adaptivecomputing/torque @ 4decc716, tag
6.1.3.h5). What had to be invented is listed in README.md under UNVERIFIED.

The work is spread over the torque_* modules:
  torque_common        settings, error numbers, job ids, usage texts, outage words
  torque_resources     -l resources, the nodes spec, Resource_List
  torque_qsub_options  qsub options, #PBS directives, -W depend, -v, -t
  torque_qsub          qsub
  torque_view          one job as qstat shows it (state, attributes in the server's order)
  torque_qstat_xml     qstat -x (XML)
  torque_qstat_text    qstat -f [-1] and the default table
  torque_qstat         qstat
  torque_qdel          qdel, qhold, qrls
  torque_policy        what the server does the Torque way (Policy)
  torque_synth         synthetic jobs for benchmarks

    python3 -m standin.torque synth-qstat N    (= python3 -m standin.torque_synth N)
prints a `qstat -x -t` answer for N synthetic jobs without any server.
"""

import sys

from standin.torque_common import DEFAULTS, find_for_ctl  # noqa: F401  (start.sh, standin-ctl)
from standin.torque_policy import Policy  # noqa: F401  (the server)
from standin.torque_qdel import qdel, qhold, qrls
from standin.torque_qstat import qstat
from standin.torque_qsub import qsub
from standin.torque_synth import synth_qstat

COMMANDS = {"qsub": qsub, "qstat": qstat, "qdel": qdel, "qhold": qhold, "qrls": qrls}


def main(argv):
    if argv and argv[0] == "synth-qstat":
        return synth_qstat(argv[1:])
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    sys.stderr.write("usage: python3 -m standin.torque synth-qstat N\n"
                     "       python3 -m standin.torque qsub|qstat|qdel|qhold|qrls ARGS...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
