#!/bin/bash
#BSUB -J "arr[1-10:2,15]%3"
#BSUB -n 4,8 -R "select[mem>4000] rusage[mem=2000/task:duration=5] span[ptile=2]"
#BSUB -W 1:30/hostA -M 4G! -q "normal long" -P proj
#BSUB -o out.%J.%I -eo err/ -w 'done(12) && ended(13) && exit(14) && 15'
#BSUB -gpu "num=2/task:mode=shared" -x -B -N -u me -env "all, ~HOME, A=1"
echo $LSB_JOBID $LS_SUBCWD
  # BSUB -n4 -sp 10 # low
#BSUB -R "span[hosts=1]" \
  -K -r -cwd /tmp
