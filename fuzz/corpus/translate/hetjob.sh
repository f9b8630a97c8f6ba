#!/bin/bash
#SBATCH -N 1-4 -p cpu
#SBATCH hetjob
#SBATCH -p gpu -G 1 --constraint=v100
srun ./x
