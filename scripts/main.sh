#!/usr/bin/env bash
# Installs what is needed, builds, and runs the main job: the example workflow through
# the embedded local scheduler, with a live progress display.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh release
if [ -x build/src/cli/yard ]; then
  exec build/src/cli/yard run examples/pipeline.yaml
fi
echo "main: yard is not built yet; ran the build only"
