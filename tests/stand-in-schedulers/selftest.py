#!/usr/bin/env python3
"""Run the stand-in schedulers' self-tests: selftest_<scheduler>_*.py.

    python3 selftest.py pbs      ctest StandInPbs.SelfTest
    python3 selftest.py torque   ctest StandInTorque.SelfTest
    python3 selftest.py lsf      ctest StandInLsf.SelfTest
    python3 selftest.py          every scheduler

Each file starts instances of its own in temporary directories and drives them through
the bin/<scheduler> commands only, as the C++ backends will; the printers are checked
against the published samples in tests/fixtures/<scheduler>. Exit status 0 if all
passed. Extra arguments go to unittest (e.g. -k walltime).
"""

import glob
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True      # nothing written into the source tree
SCHEDULERS = ("pbs", "torque", "lsf", "htcondor", "flux")


def main(argv):
    wanted = [a for a in argv if a in SCHEDULERS] or list(SCHEDULERS)
    rest = [a for a in argv if a not in SCHEDULERS]
    names = []
    for sched in wanted:
        names += sorted(os.path.basename(p)[:-3]
                        for p in glob.glob(os.path.join(HERE, "selftest_%s_*.py" % sched)))
    if not names:
        sys.stderr.write("selftest: no selftest_<%s>_*.py files\n" % "|".join(wanted))
        return 2
    loader = unittest.TestLoader()
    for a in rest:
        if a.startswith("-k"):
            loader.testNamePatterns = (loader.testNamePatterns or []) + ["*%s*" % a[2:]]
    suite = unittest.TestSuite(loader.loadTestsFromName(n) for n in names)
    t0 = time.monotonic()
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.stderr.write("selftest %s: %d tests in %.1f s\n"
                     % ("+".join(wanted), result.testsRun, time.monotonic() - t0))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
