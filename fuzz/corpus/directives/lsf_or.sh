#!/bin/bash
#BSUB -w "done(1) || started(2) || ended(3)"
#BSUB -J x[1-3]
echo
