#!/bin/sh
#OAR -l /nodes=2/core=4,walltime=1:00:00
#OAR -n x
#OAR -O o.%jobid%
