#!/bin/sh
#$ -t 1-3 -o out.$JOB_ID.$TASK_ID -e e.%j
echo
