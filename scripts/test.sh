#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test: once in a release build and once
# under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
for kind in release asan; do
  echo "== build ($kind)"
  bash scripts/build.sh "$kind"
  dir=build; [ "$kind" = asan ] && dir=build-asan
  echo "== tests ($kind)"
  (cd "$dir" && ctest --output-on-failure --timeout 600 -j2)
done
