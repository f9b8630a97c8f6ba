#!/bin/sh
#BSUB -J "arr[1-100:3]%5" -n 16 -R "rusage[mem=2GB] span[ptile=4]"
#BSUB -W 2:30 -o out.%J.%I -e err.%J -gpu "num=1/task"
#BSUB -w 'done(5) && exit(6)' -env "all, X=1"
echo $LSB_JOBINDEX
#BSUB -q late
