#!/usr/bin/env bash
# Runs a test binary as the unprivileged test user (ctest's emulator for the Grid Engine
# and OAR backend tests):  as_test_user.sh USER YARD TEST [ARGS...]
# The build tree may sit where that user cannot go (a clone under /root, mode 700): the
# test binary, yard and yardd are then copied to a directory of their own that it can read, and
# the tests find yard through YARD_TEST_YARD. Started from /tmp: the build directory may
# not be the user's to enter either.
set -euo pipefail
user=$1 yard=$2 test=$3
shift 3
if ! runuser -u "$user" -- test -x "$test" || ! runuser -u "$user" -- test -x "$yard" ||
  ! runuser -u "$user" -- test -x "$(dirname -- "$yard")/yardd"; then
  dir=$(mktemp -d /tmp/yard-test-bin.XXXXXX)
  trap 'rm -rf -- "$dir"' EXIT
  cp -- "$test" "$yard" "$(dirname -- "$yard")/yardd" "$dir/"  # yardd: the daemon, found beside yard
  # Slurm's commands as front ends, found beside yard too (yard slurm-commands path).
  if [ -x "$(dirname -- "$yard")/yard-slurm" ]; then
    cp -- "$(dirname -- "$yard")/yard-slurm" "$dir/"
    mkdir "$dir/slurm-commands"
    for link in "$(dirname -- "$yard")"/slurm-commands/*; do ln -s ../yard-slurm "$dir/slurm-commands/$(basename -- "$link")"; done
  fi
  chmod 755 "$dir" "$dir"/*
  test=$dir/$(basename -- "$test") yard=$dir/$(basename -- "$yard")
fi
cd /tmp
setpriv --reuid="$user" --regid="$user" --init-groups -- env YARD_TEST_YARD="$yard" "$test" "$@"
