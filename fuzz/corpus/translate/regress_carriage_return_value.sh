#!/bin/sh
#SBATCH -J "ab" -o "x"
echo
