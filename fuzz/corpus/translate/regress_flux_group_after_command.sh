#!/bin/bash
echo before
# flux: -N 2 -n 4
# comment inside the group
# flux: --output=o.{{id}}
flux run hostname
