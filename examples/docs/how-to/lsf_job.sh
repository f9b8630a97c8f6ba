#!/bin/bash
#BSUB -J "sim[1-4]%2"
#BSUB -n 4
#BSUB -R "rusage[mem=4GB] span[hosts=1]"
#BSUB -W 2:00
#BSUB -q normal
#BSUB -P proj
#BSUB -o sim.%J.%I.out
./sim "$LSB_JOBINDEX"
