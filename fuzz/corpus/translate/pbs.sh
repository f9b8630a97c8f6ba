#!/bin/bash
#PBS -N sim -q workq@srv -A proj -P p2
#PBS -l select=2:ncpus=8:mpiprocs=4:mem=16gb:ngpus=1+1:ncpus=8:mpiprocs=4:mem=16gb:ngpus=1
#PBS -l walltime=1:30:00.5,place=scatter:excl
#PBS -o out.$PBS_JOBID.^array_index^ -e host:err/ -j eo
#PBS -J 1-9:2%3 -W depend=afterok:12.srv:14,afterany:15,block=true
#PBS -v A=1,"B='x y'" -p -10 -r n -m abe -M me@x.org -Vf
#PBS -l select=1:\
ncpus=4
cd $PBS_O_WORKDIR
echo $PBS_ARRAY_INDEX
