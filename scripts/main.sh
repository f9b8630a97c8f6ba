#!/usr/bin/env bash
# Installs what is needed, builds, and runs the main job: the example workflow
# (examples/pipeline.yaml) on the embedded local scheduler, with live progress.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh release
# The Python module (src/python/) importable by Debian's python3 from this build: a .pth
# file in the site directory for local installs names the build's python/ folder.
site=$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
mkdir -p "$site" && echo "$PWD/build/python" > "$site/switchyard-build.pth"
yard=build/src/cli/yard
rc=0
"$yard" run examples/pipeline.yaml || rc=$?
echo "== summary written by the last job (/tmp/yard-example/summary.txt)"
cat /tmp/yard-example/summary.txt || true
"$yard" server stop
exit "$rc"
