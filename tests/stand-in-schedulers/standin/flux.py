"""Flux (flux-core 0.6x) stand-in: the scheduler module the server, standin-ctl and
start.sh load (`standin.flux`), and the entry point of its one command, `flux`.

It behaves as a single-node Flux instance of one user. Facts come from the published
samples in tests/fixtures/flux (their README names the sources) and flux-core's sources
and documentation (flux-framework/flux-core, v0.65.0 and master); what had to be
invented is listed in FLUX.md under UNVERIFIED.

The work is spread over the flux_* modules:
  flux_common          settings, FLUIDs and F58, idsets, messages, the broker out of reach
  flux_submit_options  submit's and batch's options, FSD, --env rules, `# flux:` lines
  flux_submit          flux submit, flux batch (the jobspec, --cc copies)
  flux_ingest          what the instance checks and keeps of a new job
  flux_view            one job as flux jobs shows it (JobInfo, to_dict)
  flux_format          flux jobs -o: format strings, headings
  flux_jobs            flux jobs
  flux_cancel          flux cancel, flux job id, flux job urgency
  flux_queue           flux queue list (the queues and their limits)
  flux_policy          what the server does the Flux way (Policy)
  flux_shell           the job shell the server starts for a job
  flux_synth           synthetic jobs for benchmarks

    python3 -m standin.flux synth-jobs N     (= python3 -m standin.flux_synth N)
prints a `flux jobs --json -a` answer for N synthetic jobs without any server.
"""

import sys

from standin.flux_cancel import cancel, job
from standin.flux_common import DEFAULTS, find_for_ctl, write_err  # noqa: F401
from standin.flux_jobs import jobs
from standin.flux_policy import Policy  # noqa: F401  (the server)
from standin.flux_queue import queue
from standin.flux_submit import batch, submit
from standin.flux_synth import synth_jobs

COMMANDS = {"submit": submit, "batch": batch, "jobs": jobs, "cancel": cancel, "job": job,
            "queue": queue}


def main(argv):
    if argv and argv[0] == "synth-jobs":
        return synth_jobs(argv[1:])
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    if not argv or argv[0].startswith("-"):
        write_err("usage: flux [OPTIONS] COMMAND ARGS\n"
                  "the stand-in has: flux submit|batch|jobs|cancel|job id|job urgency|"
                  "queue list\n")
        return 1
    write_err("flux: the stand-in does not support 'flux %s'\n" % argv[0])
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
