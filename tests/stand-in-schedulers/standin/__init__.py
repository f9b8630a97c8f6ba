"""Stand-in batch schedulers for Switchyard's tests.

A small program that keeps a real queue, runs jobs as the real scheduler would and
prints the scheduler's documented formats. `core` holds the job model and the spool
(one SQLite database per instance), `server` the daemon that runs the jobs, and one
module per scheduler (`pbs`) its command-line front ends and printers.
"""
