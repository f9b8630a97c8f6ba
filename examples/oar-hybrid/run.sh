#!/usr/bin/env bash
# Melissa's oar-hybrid pattern on OAR through yard: one container job holding the cores
# for the server and N1 clients at once; the server and those clients run inside it as
# inner jobs (OAR queues them in the container); one client in every N2 goes outside it
# as a best-effort job instead, filling cores the cluster leaves idle, and is submitted
# again if OAR takes its cores back (--requeue). Everything is one `yard` command each:
# yard tracks every job, whichever queue it is in.
#
#   examples/oar-hybrid/run.sh [CLIENTS] [N1] [N2]     (defaults: 6 clients, N1=2, N2=3)
#
# Run as a user OAR accepts (not root), with yard on PATH and a yard daemon that reaches
# oarsub/oarstat/oardel. The server ends once every client has reported; the script
# prints where each client ran and exits 0 when the server and all clients COMPLETED.
set -euo pipefail
clients=${1:-6} n1=${2:-2} n2=${3:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/oar-hybrid.XXXXXX")
cd "$work"
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# The container: a core for the server and one per concurrent client.
container=$(yard submit --backend oar --job-type container -n $((n1 + 1)) -t 0:30:00 -J container -- sleep 1800)
trap 'yard cancel "$container" >/dev/null 2>&1 || true' EXIT
until [ "$(yard status "$container" --json | json 'd[0]["state"]')" = RUNNING ]; do sleep 1; done
oar_id=$(yard status "$container" --json | json 'd[0]["native_id"]')
echo "container: yard job $container, OAR job $oar_id"

# The server: waits until every client has reported, then sums their results.
server=$(yard submit --backend oar --job-type "inner=$oar_id" -t 0:10:00 -J server -- sh -c "
  until [ \$(ls $work/client-*.done 2>/dev/null | wc -l) -ge $clients ]; do sleep 1; done
  cat $work/client-*.done | awk '{ s += \$2 } END { print \"server: sum\", s }'")

ids=()
for i in $(seq "$clients"); do
  if ((i % n2 == 0)); then
    where=(--job-type besteffort --requeue)  # outside the container, on idle cores
  else
    where=(--job-type "inner=$oar_id")       # in the container's own queue
  fi
  ids+=("$(yard submit --backend oar "${where[@]}" -t 0:05:00 -J "client-$i" -- sh -c \
    "echo \"client-$i \$((${i} * ${i})) \$OAR_JOB_ID\" > $work/client-$i.done")")
done
rc=0
yard wait "$server" "${ids[@]}" || rc=$?
yard logs "$server"
for id in "${ids[@]}"; do yard status "$id" --json | json '"job %s: %s (%s)" % (d[0]["id"], d[0]["state"], d[0]["name"])'; done
rm -rf -- "$work"
exit $rc
