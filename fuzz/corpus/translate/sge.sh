#!/bin/bash
#$ -N from-sge -cwd -V
#$ -pe smp 4 -l h_rt=0:10:00,h_vmem=100M
#$ -o out.$JOB_ID.$TASK_ID -j y -t 1-10:2 -tc 2
#$ -hold_jid 12,13 -q all.q -P proj
echo $SGE_TASK_ID
#$ -m bea
