#!/bin/sh
#SBATCH --export NONE
echo
