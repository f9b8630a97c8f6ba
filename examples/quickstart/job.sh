#!/bin/bash
#SBATCH --job-name=count
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --time=0:10:00
#SBATCH --output=count-%j.out
# A Slurm batch script: yard submit reads its #SBATCH lines on any backend, and
# yard translate writes them in another scheduler's words.
echo "counting on $(hostname) with ${SLURM_CPUS_PER_TASK:-2} CPUs"
seq 1 1000 | awk '{ s += $1 } END { print s }'
