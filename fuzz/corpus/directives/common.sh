#!/bin/bash
#$ -N sim -q all.q -P p
#$ -l h_rt=1:30:00,h_vmem=2G
#$ -pe smp 4
#$ -t 1-9:2 -tc 3
#$ -o out.$JOB_ID -j y
echo
