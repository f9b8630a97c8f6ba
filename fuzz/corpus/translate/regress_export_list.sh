#!/bin/sh
#SBATCH --export X,Y=1,Z=$x
echo
