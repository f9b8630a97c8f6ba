#!/bin/bash
#SBATCH --job-name=train
#SBATCH --cpus-per-task=2
#SBATCH --gpus=2
#SBATCH --time=04:00:00
./train
