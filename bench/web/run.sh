#!/usr/bin/env bash
# The web service under load, on the loopback: CLIENTS API clients (200), each pausing
# THINK_MS (100) between an answer and its next request, and STREAMS open event streams
# (1,000) for SECONDS (60) while an array of ARRAY jobs (10,000) runs on the local backend,
# all as one user (every stream carries every change). Prints the table of
# bench/web/web_load.cpp. Its own daemon and site in a temporary directory, stopped by pid.
#   bash bench/web/run.sh [CLIENTS] [STREAMS] [SECONDS] [ARRAY] [THINK_MS]
set -euo pipefail
cd "$(dirname "$0")/../.."
clients=${1:-200} streams=${2:-1000} seconds=${3:-60} array=${4:-10000} think_ms=${5:-100}
bin=$PWD/build/src/cli
ninja -C build yard yardd yard-web web_load >/dev/null
root=$(mktemp -d /tmp/yard-web-bench.XXXXXX)
export XDG_RUNTIME_DIR=$root/run XDG_STATE_HOME=$root/state XDG_CONFIG_HOME=$root/config
mkdir -p -m 700 "$XDG_RUNTIME_DIR" "$XDG_STATE_HOME" "$XDG_CONFIG_HOME" "$root/templates"
ulimit -n "$(ulimit -Hn)"
cat > "$root/templates/array.yaml" <<'YAML'
title: An array
fields:
  - {name: count, type: integer, min: 1, max: 100000, default: 100}
job:
  options: {array: "1-{count}", time: "0:10:00"}
  command: ["true"]
YAML
password=bench-password
echo "$password" | "$bin/yard-web" user add bench --site "$root/site" --password-stdin >/dev/null
"$bin/yard-web" serve --listen 127.0.0.1:0 --site "$root/site" --templates "$root/templates" \
  --threads $((clients + streams + 64)) > "$root/serve.out" 2> "$root/serve.err" &
web=$!
cleanup() {
  kill "$web" 2>/dev/null || true
  wait "$web" 2>/dev/null || true
  pid=$("$bin/yard" server status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])' || true)
  "$bin/yard" server stop --kill-jobs >/dev/null 2>&1 || true
  if [ -n "$pid" ]; then
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$root"
}
trap cleanup EXIT
for _ in $(seq 100); do grep -q listening "$root/serve.out" 2>/dev/null && break; sleep 0.1; done
url=$(awk '/listening/ {print $3}' "$root/serve.out")
token=$(curl -s -X POST "$url/api/v1/tokens" -d "{\"name\":\"bench\",\"password\":\"$password\"}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
build/bench/web/web_load "$url" "$token" "$clients" "$streams" "$seconds" "$array" "$think_ms"
