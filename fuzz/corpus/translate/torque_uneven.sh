#!/bin/sh
#PBS -l nodes=1:ppn=3+1:ppn=2:gpus=1
#PBS -l mem=4gb -t 1,3,5-7%2 -d /scratch -n
#PBS -W depend=afterok:1:2,afternotok:3
#PBS -v 'A=1,B' -m abe
hostname
