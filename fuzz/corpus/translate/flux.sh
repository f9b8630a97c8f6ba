#!/bin/bash
echo before
# flux: -N 2 -n 4 -c 2 -g 1 --gpus-per-node=1 --tasks-per-node=2
# flux: -t 1.5h --job-name='a b' --queue=pdebug -B bank -x
# comment inside the group
# flux: --output=o.{{id.dec}}.{{cc}} --error=e.{{name}}.{{node.name}} --cc=[1-4]
# flux: --dependency=afterok:12 --dependency afterany:13 --urgency=expedite
# flux: --setattr=a=1 -o x=1 --env=A=1 --env=-B --cwd=/tmp
flux run -n4 hostname $FLUX_JOB_ID
