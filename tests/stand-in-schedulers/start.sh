#!/bin/bash
# Start a stand-in scheduler instance.
#   start.sh STATE_DIR SCHEDULER [key=value ...]
# Creates STATE_DIR and its config.json, starts the server detached (its own session,
# nohup, log in STATE_DIR/server.log), writes STATE_DIR/server.pid, waits (deadline 30 s)
# until the server says it is ready, then prints the line a shell can eval:
#   export PATH=<bin dir>:$PATH YARD_STANDIN_DIR=<STATE_DIR>
# Settings: see README.md (slots, gpus, kill_grace, job_history_duration, printer, ...).
# Starting an instance that already runs prints the line again and changes nothing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 2 ]; then
  echo "usage: start.sh STATE_DIR SCHEDULER [key=value ...]" >&2
  exit 2
fi
state=$1
sched=$2
shift 2
if [ ! -d "$here/bin/$sched" ]; then
  echo "start.sh: no stand-in for scheduler '$sched' (have: $(ls "$here/bin" | tr '\n' ' '))" >&2
  exit 2
fi
mkdir -p "$state"
state=$(cd "$state" && pwd)
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPYCACHEPREFIX="$state/pycache"   # compiled modules: never in the source tree
line="export PATH=$here/bin/$sched:\$PATH YARD_STANDIN_DIR=$state"

if python3 -m standin.core running "$state"; then
  echo "$line"
  exit 0
fi
python3 -m standin.core init "$state" "$sched" "$@" >/dev/null
rm -f "$state/ready"
(cd / && exec nohup python3 -m standin.server --dir "$state" >>"$state/server.log" 2>&1 </dev/null) &
pid=$!
echo "$pid" >"$state/server.pid"

# Wait for the server's ready marker (it holds the server's pid).
deadline=$((SECONDS + 30))
while :; do
  if [ -s "$state/ready" ] && [ "$(cat "$state/ready" 2>/dev/null)" = "$pid" ]; then
    break
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "start.sh: the server exited before it was ready; $state/server.log says:" >&2
    tail -n 20 "$state/server.log" >&2 || true
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "start.sh: the server was not ready within 30 s; stopping it" >&2
    python3 -m standin.core stop "$state" || true
    exit 1
  fi
  sleep 0.05
done
echo "$line"
