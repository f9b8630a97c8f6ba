#!/usr/bin/env bash
# Runs a test binary as root, its `yard` (and so the daemon) as the unprivileged test user
# (ctest's emulator for the OAR outage test: root stops and starts OAR's server, which
# refuses jobs from root):  yard_as_test_user.sh USER YARD TEST [ARGS...]
# The harness runs YARD_TEST_YARD, here a wrapper that drops to USER; yard is copied where
# that user can run it. The test hands its world's directory to USER itself.
set -euo pipefail
user=$1 yard=$2 test=$3
shift 3
dir=$(mktemp -d /tmp/yard-test-bin.XXXXXX)
trap 'rm -rf -- "$dir"' EXIT
cp -- "$yard" "$dir/yard"
cp -- "$(dirname -- "$yard")/yardd" "$dir/yardd"   # the daemon yard starts, found beside it
printf '#!/bin/sh\nexec setpriv --reuid=%s --regid=%s --init-groups -- %s/yard "$@"\n' "$user" "$user" "$dir" > "$dir/yard-as-user"
chmod 755 "$dir" "$dir/yard" "$dir/yardd" "$dir/yard-as-user"
cd /tmp
YARD_TEST_USER="$user" YARD_TEST_YARD="$dir/yard-as-user" "$test" "$@"
