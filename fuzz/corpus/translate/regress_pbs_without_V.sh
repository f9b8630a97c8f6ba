#!/bin/sh
#PBS -N x -v A=1
cd $PBS_O_WORKDIR
