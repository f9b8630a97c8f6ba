#!/bin/bash
# Stop what start.sh started in STATE_DIR: the server by its pid (TERM, KILL after a
# deadline), then any job process group the database still records that is alive.
# Idempotent: a stopped or missing instance is fine. Exit status 0.
#   stop.sh STATE_DIR
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -ne 1 ]; then
  echo "usage: stop.sh STATE_DIR" >&2
  exit 2
fi
[ -d "$1" ] || exit 0
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" \
  python3 -m standin.core stop "$1" || true
exit 0
