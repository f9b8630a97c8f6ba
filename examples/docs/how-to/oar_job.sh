#!/bin/bash
#OAR -n sim
#OAR -l /host=2/core=4,walltime=1:30:00
#OAR -q default
#OAR --project proj
#OAR -O sim.%jobid%.out
#OAR -E sim.%jobid%.err
#OAR -p "cluster='grisou'"
mpirun -machinefile "$OAR_NODEFILE" ./sim
