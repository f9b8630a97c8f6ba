"""PBS Professional / OpenPBS stand-in: the scheduler module the server, standin-ctl and
start.sh load (`standin.pbs`), and the commands' entry point.

Facts come from the published samples in tests/fixtures/pbs (their README names the
sources) and from the OpenPBS sources (openpbs/openpbs @ cd7ab5e: src/cmds/qstat.c,
qsub.c, qdel.c, src/lib/Libjson/cJSON/pbs_cjson.c, the pre-cJSON
src/lib/Libcmds/pbs_json.c, src/server/*.c). What had to be invented is listed in
README.md under UNVERIFIED.

The work is spread over the pbs_* modules:
  pbs_common        settings, error numbers, substates, usage texts, job ids, outage
  pbs_resources     -l resources, select chunks, Resource_List
  pbs_qsub_options  qsub options and #PBS directives
  pbs_qsub          qsub
  pbs_view          one job as qstat shows it (states, attributes in qstat's order)
  pbs_qstat_json    qstat -F json: the "old" and the cJSON printers
  pbs_qstat_text    qstat -f text and the default table
  pbs_qstat         qstat
  pbs_qdel          qdel, qhold, qrls, the lookup standin-ctl uses
  pbs_policy        what the server does the PBS way (Policy)
  pbs_synth         synthetic jobs for benchmarks

    python3 -m standin.pbs synth-qstat N [--printer old|cjson]
prints a `qstat -x -f -F json -t` answer for N synthetic jobs without any server.
"""

import sys

from standin.pbs_common import DEFAULTS  # noqa: F401  (core.scheduler_defaults)
from standin.pbs_policy import Policy  # noqa: F401  (the server)
from standin.pbs_qdel import find_for_ctl, qdel, qhold, qrls  # noqa: F401  (standin-ctl)
from standin.pbs_qstat import qstat
from standin.pbs_qsub import qsub
from standin.pbs_synth import synth_qstat

COMMANDS = {"qsub": qsub, "qstat": qstat, "qdel": qdel, "qhold": qhold, "qrls": qrls}


def main(argv):
    if argv and argv[0] == "synth-qstat":
        return synth_qstat(argv[1:])
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    sys.stderr.write("usage: python3 -m standin.pbs synth-qstat N [--printer old|cjson]\n"
                     "       python3 -m standin.pbs qsub|qstat|qdel|qhold|qrls ARGS...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
