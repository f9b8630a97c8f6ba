#!/bin/bash
#$ -N align
#$ -pe smp 4
#$ -l h_rt=2:00:00,h_vmem=2G
#$ -t 1-10
#$ -tc 2
#$ -o align.$TASK_ID.out
#$ -j y
#$ -cwd
echo "sample ${SGE_TASK_ID:-$YARD_ARRAY_TASK_ID} aligned"
