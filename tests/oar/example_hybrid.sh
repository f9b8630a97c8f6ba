#!/usr/bin/env bash
# examples/oar-hybrid/run.sh on the fixture's OAR cluster, as the test user, with a yard
# daemon of its own: the server and every client COMPLETED, the inner clients in the
# container and the best-effort ones outside it.  example_hybrid.sh YARD
set -euo pipefail
yard=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
user=yardtest
home=$(mktemp -d /tmp/yard-oar-hybrid.XXXXXX)
bin=$home/bin
mkdir -p "$bin" "$home/run"
cp -- "$yard" "$(dirname -- "$yard")/yardd" "$bin/"   # yardd: the daemon yard starts, beside it
cp -- "$root/examples/oar-hybrid/run.sh" "$home/run.sh"
chown -R "$user:" "$home"
chmod 755 "$home" "$bin"
as_user() {
  (cd "$home" && runuser -u "$user" -- env HOME="$home" XDG_RUNTIME_DIR="$home/run" XDG_STATE_HOME="$home/state" \
    XDG_CONFIG_HOME="$home/config" TMPDIR="$home" PATH="$bin:$PATH" "$@")
}
cleanup() {
  as_user yard server stop >/dev/null 2>&1 || true
  rm -rf -- "$home"
}
trap cleanup EXIT
out=$(as_user bash "$home/run.sh" 6 2 3 2>&1) || { echo "example_hybrid: FAIL: run.sh failed:"; echo "$out"; exit 1; }
echo "$out"
grep -q '^server: sum 91$' <<< "$out" || { echo "example_hybrid: FAIL: the server did not sum the 6 clients"; exit 1; }
[[ $(grep -c ': COMPLETED (client-' <<< "$out") == 6 ]] || { echo "example_hybrid: FAIL: not every client COMPLETED"; exit 1; }
# Where they ran, by OAR's own record of this run's clients: 3 and 6 best-effort, the
# others inner jobs of the container.
ids=$(as_user yard status --json | python3 -c 'import json,sys; print(",".join(j["native_id"] for j in json.load(sys.stdin) if j["name"].startswith("client-")))')
types=$(as_user oarstat -J --sql "job_id IN ($ids)" |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(sorted(t for j in d.values() for t in j["types"] if not t.startswith("inner=")) + [str(sum(1 for j in d.values() if any(t.startswith("inner=") for t in j["types"])))]))')
[[ $types == "besteffort besteffort 4" ]] || { echo "example_hybrid: FAIL: job types in OAR: $types"; exit 1; }
echo "example_hybrid: ok"
