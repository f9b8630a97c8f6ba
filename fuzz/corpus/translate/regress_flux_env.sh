#!/bin/sh
# flux: --env=-* --env=A=$$x --env=B
echo
