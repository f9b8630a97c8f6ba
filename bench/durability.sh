#!/usr/bin/env bash
# Benchmark of "nothing lost, nothing run twice": N jobs through the local backend with
# the store on a 16 MB tmpfs that fills up and is freed twice during the run, the daemon
# killed with SIGKILL three times and stopped (SIGSTOP, as a hung disk would) for 40 s
# twice. Four submitters share the work, and each, as a naive script would, submits
# again on every non-zero exit. Every job appends its attempt's tag and its id to a
# ledger outside the tmpfs; at the end, with room again and a daemon running:
#   - acknowledged jobs lost:  acknowledged ids that never ran, or are not finished
#   - jobs run twice:          ids in the ledger more than once, and submissions that ran
#                              under two attempts (a retry after a false "failed")
#   - unacknowledged jobs run: ledger lines of an attempt that was refused (exit 1 or 2)
#   - outcomes reported unknown: attempts that ended with exit 4 (counted: the client
#                              waits for a stalled daemon, and says so if it gives up)
# and, on a normal disk without trouble, the submit throughput of this yard beside
# another's (BASELINE_YARD=path/to/older/yard), same run, same machine.
# Usage: bench/durability.sh [N]   (default 20000; root, for the tmpfs; a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20000}
ARRAY=100                       # elements per submission
SUBMITS=$(( (N + ARRAY - 1) / ARRAY ))
yard=$PWD/build/src/cli/yard
[ -x "$yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }

work=$(mktemp -d)
export HOME=$work XDG_RUNTIME_DIR=$work/run XDG_CONFIG_HOME=$work/config XDG_STATE_HOME=$work/state
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_STATE_HOME" "$work/acks"
mount -t tmpfs -o size=16m tmpfs "$XDG_STATE_HOME"
cleanup() {
  rm -f "$XDG_STATE_HOME/filler"
  "$yard" server stop --kill-jobs >/dev/null 2>&1 || true
  umount -l "$XDG_STATE_HOME" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ledger=$work/ledger
now() { echo "${EPOCHREALTIME/./}"; }

SUBMITTERS=4
STOP_S=${STOP_S:-40}
echo "bench: $N jobs ($SUBMITS submissions of $ARRAY, $SUBMITTERS submitters retrying on any non-zero exit)," \
     "16 MB tmpfs filled twice, 3 SIGKILLs, 2 SIGSTOPs of $STOP_S s" >&2
"$yard" server start >/dev/null

# A submitter: submissions k, k+SUBMITTERS, ...; each attempt tagged t<s>.<attempt>; its
# ids kept only when acknowledged (exit 0); any other exit is noted and tried again.
submitter() {
  local first=$1 s attempt rc out
  for s in $(seq "$first" "$SUBMITTERS" "$SUBMITS"); do
    attempt=0
    while :; do
      attempt=$((attempt + 1))
      rc=0
      out=$("$yard" submit --json -a "0-$((ARRAY - 1))" -o /dev/null -- sh -c "echo \"\$0 \$YARD_JOB_ID\" >> $ledger" "t$s.$attempt" 2>/dev/null) || rc=$?
      if [ "$rc" = 0 ]; then
        echo "$out" | tr -d '{}[]"' | sed 's/.*ids://' | tr ',' '\n' >> "$work/acks/t$s.$attempt"
        break
      fi
      echo "t$s.$attempt $rc" >> "$work/refused"
      [ "$attempt" -lt 500 ] || break
      sleep 0.2
    done
  done
}
t0=$(now)
subs=()
for k in $(seq "$SUBMITTERS"); do submitter "$k" & subs+=($!); done

# Chaos, spread over the run: fill and free the tmpfs twice, SIGKILL the daemon 3 times.
chaos() {
  local pause=$1
  for step in kill stop fill kill stop fill kill; do
    sleep "$pause"
    case $step in
      kill) # The daemon at work: once the submitter is done, nothing restarts a killed
            # one, so one is started (it resumes the jobs it finds) and killed mid-work.
            for _ in $(seq 100); do
              pid=$("$yard" server status --json 2>/dev/null | sed -n 's/.*"pid":\([0-9]*\).*/\1/p' || true)
              if [ -z "$pid" ]; then
                "$yard" server start >/dev/null 2>&1 || true
                sleep 0.5
                continue
              fi
              if kill -9 "$pid" 2>/dev/null; then
                echo "  chaos: SIGKILL daemon $pid" >&2
                echo "$pid" >> "$work/killed"
                break
              fi
              sleep 0.1
            done ;;
      stop) pid=$("$yard" server status --json 2>/dev/null | sed -n 's/.*"pid":\([0-9]*\).*/\1/p' || true)
            if [ -n "$pid" ] && kill -STOP "$pid" 2>/dev/null; then
              echo "  chaos: SIGSTOP daemon $pid for $STOP_S s" >&2
              echo "$pid" >> "$work/stopped"
              sleep "$STOP_S"
              kill -CONT "$pid" 2>/dev/null || true
            fi ;;
      fill) head -c 64M /dev/zero > "$XDG_STATE_HOME/filler" 2>/dev/null || true
            echo "  chaos: tmpfs full" >&2; sleep 1.5; rm -f "$XDG_STATE_HOME/filler"; echo "  chaos: tmpfs freed" >&2 ;;
    esac
  done
}
chaos "$(awk -v n="$N" 'BEGIN { p = n / 20000 * 2; print (p < 0.5 ? 0.5 : p) }')"
wait "${subs[@]}"
t1=$(now)

# Room again and a daemon: every acknowledged job must finish.
"$yard" server start >/dev/null
acked=$(cat "$work"/acks/* 2>/dev/null | grep -c . || true)
cat "$work"/acks/* 2>/dev/null | xargs -r -n 2000 "$yard" wait --timeout 3600 >/dev/null || true
t2=$(now)

touch "$work/refused"
refused=$(awk '$2 != 4' "$work/refused" | wc -l)
unknown=$(awk '$2 == 4' "$work/refused" | wc -l)
ids_ran=$(awk '{ print $2 }' "$ledger" | sort)
# The same id twice, or one submission run under two of its attempts.
twice_ids=$(echo "$ids_ran" | uniq -d | grep -c . || true)
twice_retried=$(awk '{ split($1, t, "."); if (!seen[$1]++) n[t[1]]++ } END { for (s in n) if (n[s] > 1) c += n[s] - 1; print c + 0 }' "$ledger")
twice=$((twice_ids + twice_retried))
lost=$(comm -23 <(cat "$work"/acks/* | sort -u) <(echo "$ids_ran" | sort -u) | grep -c . || true)
# Jobs of an attempt refused outright (exit 1 or 2: "nothing was stored").
unacked_ran=$(awk 'NR == FNR { if ($2 != 4) r[$1] = 1; next } ($1 in r)' "$work/refused" "$ledger" | wc -l)
# Jobs that ran without being in any acknowledged submission's ids.
strays=$(comm -13 <(cat "$work"/acks/* | sort -u) <(echo "$ids_ran" | sort -u) | grep -c . || true)

# Submit throughput on a normal disk, nothing going wrong: 300 single submissions.
submit_rate() {
  local bin=$1 dir
  dir=$(mktemp -d)
  (
    export HOME=$dir XDG_RUNTIME_DIR=$dir/run XDG_STATE_HOME=$dir/state XDG_CONFIG_HOME=$dir/config
    mkdir -p "$XDG_RUNTIME_DIR"
    "$bin" server start >/dev/null
    local a b
    a=$(now)
    for _ in $(seq 300); do "$bin" submit -o /dev/null -- true >/dev/null; done
    b=$(now)
    "$bin" server stop --kill-jobs >/dev/null 2>&1 || true
    awk -v us="$((b - a))" 'BEGIN { printf "%.0f", 300 / (us / 1e6) }'
  )
  rm -rf "$dir"
}
rate_now=$(submit_rate "$yard")
rate_base=-
[ -n "${BASELINE_YARD:-}" ] && [ -x "$BASELINE_YARD" ] && rate_base=$(submit_rate "$BASELINE_YARD")

echo
echo "| measure | value | target |"
echo "|---|---:|---:|"
echo "| submissions acknowledged / attempts refused (then retried) | $(ls "$work/acks" | wc -l) / $refused | |"
echo "| jobs acknowledged | $acked | |"
echo "| acknowledged jobs lost | $lost | 0 |"
echo "| jobs run twice | $twice | 0 |"
echo "| unacknowledged jobs run | $((unacked_ran + strays)) | 0 |"
echo "| outcomes reported unknown (exit 4) | $unknown | counted |"
echo "| daemon SIGKILLs delivered | $(cat "$work/killed" 2>/dev/null | wc -l) | 3 |"
echo "| daemon SIGSTOPs of $STOP_S s delivered | $(cat "$work/stopped" 2>/dev/null | wc -l) | 2 |"
echo "| submit phase, with the chaos | $(awk -v us="$((t1 - t0))" 'BEGIN { printf "%.1f s", us / 1e6 }') | |"
echo "| all acknowledged jobs finished after | $(awk -v us="$((t2 - t0))" 'BEGIN { printf "%.1f s", us / 1e6 }') | |"
echo
echo "| submit throughput (300 single submits, normal disk) | submits/s |"
echo "|---|---:|"
echo "| this yard | $rate_now |"
echo "| baseline (${BASELINE_YARD:-not given}) | $rate_base |"
