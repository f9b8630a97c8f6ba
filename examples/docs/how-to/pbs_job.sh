#!/bin/bash
#PBS -N sim
#PBS -l select=1:ncpus=4:mem=16gb
#PBS -l walltime=01:00:00
#PBS -q workq
#PBS -A proj
#PBS -J 1-8%2
#PBS -j oe
cd "$PBS_O_WORKDIR"
./sim "$PBS_ARRAY_INDEX"
