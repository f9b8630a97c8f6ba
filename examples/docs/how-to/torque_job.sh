#!/bin/bash
#PBS -N sweep
#PBS -l nodes=1:ppn=4,mem=4gb,walltime=00:30:00
#PBS -t 1-3,6,9%2
#PBS -q batch
#PBS -j oe
cd "$PBS_O_WORKDIR"
./sweep "$PBS_ARRAYID"
