"""srun: a step inside a job (its tasks with their ranks, --output per task), and outside
one a job of its own whose output is shown and whose exit status is srun's."""

import os
import re


def test_srun_outside_a_job_runs_it_as_a_job_and_shows_its_output(shell):
    code, out, err = shell.run("srun -J one bash -c 'echo out $SLURM_JOB_ID; echo err >&2'", check=False)
    assert code == 0 and re.fullmatch(r"out \d+\n", out) and err == "err\n"
    job = out.split()[1]
    assert shell.run(f"sacct -X -n -P -o JobName,State -j {job}")[1] == "one|COMPLETED\n"
    code, _, err = shell.run("srun bash -c 'exit 7'", check=False)
    assert code == 7 and "Exited with exit code 7" in err


def test_srun_inside_a_job_runs_its_tasks_with_their_ranks(shell):
    shell.write("step.sh", "#!/bin/bash\nsrun -n 3 --output task-%t.out bash -c 'echo rank $SLURM_PROCID of $SLURM_NTASKS'\n"
                           "srun bash -c 'exit 5'; echo step status $?\n")
    _, out, _ = shell.run("sbatch --parsable -o step.log step.sh")
    job = out.strip()
    shell.until(lambda: "COMPLETED" in shell.run(f"sacct -X -n -P -o State -j {job}")[1])
    for t in range(3):
        assert open(os.path.join(shell.cwd, f"task-{t}.out")).read() == f"rank {t} of 3\n"
    assert "step status 5" in open(os.path.join(shell.cwd, "step.log")).read()
