#!/bin/sh
#SBATCH -o '$HOME/x-%j' -e '$USER.$JOB_ID^array_index^%%J%%jobid%%'
#SBATCH -D '/tmp/$x' -A 'a$$b' -J '$(Cluster)'
echo
