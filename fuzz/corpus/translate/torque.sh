#!/bin/sh
#PBS -l nodes=2:ppn=4:gpus=1+n01:ppn=2:ib,walltime=10:00,mem=8gb,pmem=1gb
#PBS -t 1-10%2 -d /scratch -w /data -n
#PBS -Nglued -lprocs=6 -Vjoe # comment
: not a command
#PBS -S /bin/bash -k oe stray
