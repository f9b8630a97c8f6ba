#!/bin/bash
#SBATCH --job-name=sim
#SBATCH --ntasks=4
#SBATCH --mem=8G
#SBATCH --time=01:00:00
#SBATCH --partition=cpu
#SBATCH --account=proj
#SBATCH --output=sim-%j.out
echo "case ${1:-1} done"
