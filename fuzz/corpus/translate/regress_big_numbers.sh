#!/bin/sh
#SBATCH -n 2000000000 -d afterok:12345678901 --priority=2147483647
echo
