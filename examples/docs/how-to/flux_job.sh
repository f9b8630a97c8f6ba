#!/bin/bash
# flux: --job-name=sim
# flux: -N 2
# flux: -n 8
# flux: -t 90m
# flux: --output=sim-{{id}}.out
flux run -n 8 ./sim
