"""Stand-in batch schedulers for Switchyard's tests.

A small program that keeps a real queue, runs jobs as the real scheduler would and
prints the scheduler's documented formats. The shared core: `config` (settings),
`spool` (the job database, one SQLite file per instance), `procs` (processes, users),
`clients` (what the commands share), `jobrun` (starting a job's shell), gathered under
`core`; `server` with `server_jobs` and `server_deps`, the daemon that runs the jobs.
Each scheduler is a module `<name>` (its Policy, settings and commands) with its pieces
in `<name>_*`: `pbs` (PBS Pro / OpenPBS), `torque` (Torque 6) and `lsf` (IBM Spectrum
LSF 10.1).
"""
