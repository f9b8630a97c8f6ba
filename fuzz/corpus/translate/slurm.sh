#!/bin/bash
# header
#SBATCH -J alpha -N 2 -n 8 -c 2
#SBATCH --mem-per-c 1G --gpus 2 -t 1:30:00
#SBATCH -o out-%j.txt -e err-%A_%3a.txt -p short -A proj1
#SBATCH --array=1-9:2%3 --dependency=afterok:42:43,afterany:7
#SBATCH --exclusive --mail-type=END --open-mode=append
cd $SLURM_SUBMIT_DIR
srun ./app café
