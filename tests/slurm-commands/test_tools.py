"""Each tool's own command lines, run exactly so, their answers parsed as the tool parses
them (the tools' sources: Nextflow's SlurmExecutor, snakemake-executor-plugin-slurm,
submitit 1.5, PSI/J's Slurm executor, dask-jobqueue's SLURMCluster)."""

import csv
import datetime
import getpass
import os
import re

NEXTFLOW_STATES = {"PD": "PENDING", "R": "RUNNING", "CA": "ERROR", "CF": "PENDING", "CG": "RUNNING", "CD": "DONE",
                   "F": "ERROR", "TO": "ERROR", "NF": "ERROR", "S": "HOLD", "ST": "HOLD", "PR": "ERROR", "BF": "ERROR"}
PSIJ_STATES = {"BF": "FAILED", "CA": "CANCELED", "CD": "COMPLETED", "CF": "QUEUED", "CG": "ACTIVE", "DL": "FAILED",
               "F": "FAILED", "NF": "FAILED", "OOM": "FAILED", "PD": "QUEUED", "PR": "FAILED", "R": "ACTIVE",
               "RD": "QUEUED", "RF": "QUEUED", "RH": "QUEUED", "RQ": "ACTIVE", "SO": "ACTIVE", "TO": "FAILED",
               "RS": "ACTIVE", "RV": "QUEUED", "SI": "ACTIVE", "SE": "ACTIVE", "ST": "ACTIVE", "S": "ACTIVE"}
SUBMITIT_RUNNING = {"READY", "PENDING", "RUNNING", "UNKNOWN", "REQUEUED", "COMPLETING", "PREEMPTED"}


def nextflow_status(shell):
    # queueStatusCommand, then parseQueueStatus: two columns per line, codes mapped.
    _, out, _ = shell.run(f"squeue --noheader -o '%i %t' -t all -u {getpass.getuser()}")
    status = {}
    for line in out.splitlines():
        cols = line.split()
        if len(cols) == 2:
            status[cols[0]] = NEXTFLOW_STATES.get(cols[1])
    return status


def test_nextflow_submits_polls_and_kills(shell):
    shell.write(".command.run", "#!/bin/bash\n#SBATCH -J nf-task_1\n#SBATCH -o .command.log\n#SBATCH --no-requeue\n"
                                "#SBATCH --signal B:USR2@30\n#SBATCH -t 00:10:00\n#SBATCH --mem 100M\n"
                                "echo task ran in $SLURM_JOB_ID > .exitcode.txt\n")
    _, out, _ = shell.run("sbatch .command.run")
    job = re.search(r"Submitted batch job (\d+)", out).group(1)
    assert shell.until(lambda: nextflow_status(shell).get(job) == "DONE")
    assert open(os.path.join(shell.cwd, ".exitcode.txt")).read() == f"task ran in {job}\n"
    assert os.path.exists(os.path.join(shell.cwd, ".command.log"))
    shell.write("long.run", "#!/bin/bash\n#SBATCH -J nf-long\nsleep 300\n")
    _, out, _ = shell.run("sbatch long.run")
    long_job = re.search(r"Submitted batch job (\d+)", out).group(1)
    assert shell.until(lambda: nextflow_status(shell).get(long_job) == "RUNNING")
    shell.run(f"scancel {long_job}")
    assert shell.until(lambda: nextflow_status(shell).get(long_job) == "ERROR")


def snakemake_status(shell, run_uuid):
    start = (datetime.datetime.now() - datetime.timedelta(days=2)).strftime("%Y-%m-%dT%H:00")
    _, out, _ = shell.run(f"sacct -X --parsable2 --clusters all --noheader --format=JobIdRaw,State "
                          f"--starttime {start} --endtime now --name {run_uuid}")
    return {row[0]: row[1] for row in csv.reader(out.splitlines(), delimiter="|") if row}


def test_snakemake_plugin_submits_with_parsable_and_reads_sacct(shell):
    run_uuid = "7a0c2f9e-5f3a-4a49-9d0b-1f1c2b3a4d5e"
    _, out, _ = shell.run(f"sbatch --parsable --job-name {run_uuid} --output {shell.cwd}/rule_a.log --export=ALL "
                          f"--comment rule_a_wildcards -t 5 --mem 100 --wrap=\"echo from rule a\"")
    job = out.strip().split(";")[0]
    assert re.fullmatch(r"\d+", job), out
    assert shell.until(lambda: snakemake_status(shell, run_uuid).get(job) == "COMPLETED")
    assert open(os.path.join(shell.cwd, "rule_a.log")).read() == "from rule a\n"
    # The plugin's other status query, and its cancel.
    _, out, _ = shell.run(f"sbatch --parsable --job-name {run_uuid} --wrap=\"sleep 300\"")
    sleeper = out.strip().split(";")[0]
    _, out, _ = shell.run(f"squeue --format='%i|%T' --states=all --noheader --name {run_uuid}")
    states = dict(line.split("|") for line in out.splitlines())
    assert states[job] == "COMPLETED" and states[sleeper] in ("PENDING", "RUNNING")
    shell.run(f"scancel {sleeper} --clusters=all")
    assert shell.until(lambda: snakemake_status(shell, run_uuid).get(sleeper, "").startswith("CANCELLED"))


def submitit_info(shell, job):
    # read_info: the header's names as keys, step lines (with '.') skipped.
    _, out, _ = shell.run(f"sacct -o JobID,State,NodeList --parsable2 -j {job}")
    lines = out.splitlines()
    if len(lines) < 2:
        return {}
    names = lines[0].split("|")
    info = {}
    for line in lines[1:]:
        values = dict(zip(names, (v.strip() for v in line.split("|"))))
        if "." not in values["JobID"]:
            info[values["JobID"]] = values
    return info


def test_submitit_runs_its_python_through_srun_and_reads_sacct(shell):
    folder = os.path.join(shell.cwd, "submitit")
    os.makedirs(folder)
    script = shell.write("submission_file.sh", f"""#!/bin/bash

# Parameters
#SBATCH --cpus-per-task=1
#SBATCH --error={folder}/%j_0_log.err
#SBATCH --job-name=submitit
#SBATCH --mem=1GB
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --open-mode=append
#SBATCH --output={folder}/%j_0_log.out
#SBATCH --signal=USR2@90
#SBATCH --time=5
#SBATCH --wckey=submitit

# command
export SUBMITIT_EXECUTOR=slurm
srun --unbuffered --output {folder}/%j_%t_log.out --error {folder}/%j_%t_log.err python3 -u -c \
  'import os; print(" ".join(os.environ[v] for v in ("SLURM_JOB_ID", "SLURM_NTASKS", "SLURM_JOB_NUM_NODES", "SLURM_NODEID", "SLURM_PROCID", "SLURM_LOCALID")), os.environ["SLURM_JOB_NODELIST"] != "")'
""")
    _, out, _ = shell.run(f"sbatch {script}")
    job = re.search(r"job (?P<id>[0-9]+)", out).group("id")
    info = shell.until(lambda: (lambda i: i if i.get(job, {}).get("State", "PENDING").upper() not in SUBMITIT_RUNNING
                                else None)(submitit_info(shell, job)))
    assert info[job]["State"] == "COMPLETED"
    assert info[job]["NodeList"] != ""
    assert open(os.path.join(folder, f"{job}_0_log.out")).read() == f"{job} 1 1 0 0 0 True\n"
    # Its cancel: a running job, ended "CANCELLED by UID", which submitit takes as done.
    _, out, _ = shell.run(f"sbatch --wrap 'sleep 300'")
    sleeper = re.search(r"job (?P<id>[0-9]+)", out).group("id")
    shell.run(f"scancel {sleeper}")
    state = shell.until(lambda: submitit_info(shell, sleeper).get(sleeper, {}).get("State", "").startswith("CANCELLED")
                        and submitit_info(shell, sleeper)[sleeper]["State"])
    assert state == f"CANCELLED by {os.getuid()}"



def test_submitit_checkpoint_requeues_the_job_through_scontrol(shell):
    # submitit's JobEnvironment._requeue: `scontrol requeue $SLURM_JOB_ID` from inside the
    # job, which is stopped and starts again under its id (here: once, then it completes).
    script = shell.write("checkpointed.sh", """#!/bin/bash
#SBATCH --job-name=checkpointed
#SBATCH --open-mode=append
n=$(cat starts 2>/dev/null || echo 0); n=$((n + 1)); echo $n > starts
if [ $n -lt 2 ]; then scontrol requeue "$SLURM_JOB_ID"; sleep 300; fi
""")
    _, out, _ = shell.run(f"sbatch --parsable {script}")
    job = out.strip()
    info = shell.until(lambda: (lambda i: i if i.get(job, {}).get("State", "PENDING").upper() not in SUBMITIT_RUNNING
                                else None)(submitit_info(shell, job)))
    assert info[job]["State"] == "COMPLETED"
    assert open(os.path.join(shell.cwd, "starts")).read() == "2\n"
    # A job that cannot be held (it ended): Slurm's error line, exit 1.
    code, _, err = shell.run(f"scontrol hold {job}", check=False)
    assert code == 1 and err.startswith("slurm_hold error: job ") and "cannot be held" in err, err
    code, _, err = shell.run("scontrol requeue 99999", check=False)
    assert (code, err) == (1, "slurm_requeue error: Invalid job id specified\n")

def psij_status(shell):
    # squeue -O, first line skipped, exactly three columns, the state in its map.
    _, out, _ = shell.run("squeue -O JobArrayID,StateCompact,Reason -t all --me")
    status = {}
    for line in out.split("\n")[1:]:
        if not line.strip():
            continue
        cols = line.split()
        assert len(cols) == 3, line
        status[cols[0]] = PSIJ_STATES[cols[1]]
    return status


def test_psij_submits_polls_and_cancels(shell):
    script = shell.write("psij.job", "#!/bin/bash\n#SBATCH --job-name=\"psij-1\"\n#SBATCH --ntasks=1\n"
                                     "#SBATCH --time=00:10:00\n#SBATCH -e /dev/null\n#SBATCH -o /dev/null\n"
                                     "#SBATCH --export=ALL\nsleep 300\n")
    _, out, _ = shell.run(f"sbatch {script}")
    job = out.strip().split()[-1]
    assert shell.until(lambda: psij_status(shell).get(job) == "ACTIVE")
    code, _, _ = shell.run(f"scancel -Q {job}")
    assert code == 0
    assert shell.until(lambda: psij_status(shell).get(job) == "CANCELED")
    _, out, _ = shell.run("squeue --me -o %i -h -r -t all")
    assert job in out.split()


def test_dask_jobqueue_submits_and_cancels(shell):
    logs = os.path.join(shell.cwd, "dask-logs")
    os.makedirs(logs)
    script = shell.write("dask.sh", f"#!/usr/bin/env bash\n\n#SBATCH -J dask-worker\n#SBATCH -e {logs}/dask-worker-%J.err\n"
                                    f"#SBATCH -o {logs}/dask-worker-%J.out\n#SBATCH -n 1\n#SBATCH -N 1\n"
                                    "#SBATCH --cpus-per-task=1\n#SBATCH --mem=1G\n#SBATCH -t 00:30:00\n\nsleep 300\n")
    _, out, _ = shell.run(f"sbatch {script}")
    job = re.search(r"(?P<job_id>\d+)", out).group("job_id")
    shell.run(f"scancel {job}")
    assert shell.until(lambda: "CANCELLED" in shell.run(f"sacct -X -n -P -o State -j {job}")[1])
