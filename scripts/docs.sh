#!/usr/bin/env bash
# Builds the documentation site into build/site/ (open build/site/index.html): docs/ and
# mkdocs.yml copied into build/docs-src/ with the pages generated from the code (the
# command reference from yard's own option tables, the REST API from the OpenAPI
# document, the Python API from the module's docstrings), then `mkdocs build --strict`,
# which fails on a missing page or a broken link.
#   scripts/docs.sh [BUILD_DIR]   (default: build; needs a release build of it)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath -m "${1:-build}")
yard=$build/src/cli/yard
[ -x "$yard" ] || { echo "docs.sh: build first (scripts/build.sh release): no $yard" >&2; exit 2; }
command -v mkdocs >/dev/null || { echo "docs.sh: mkdocs is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
src=$build/docs-src
rm -rf "$src"
mkdir -p "$src/docs/reference/commands"
cp mkdocs.yml "$src/"
cp -r docs/. "$src/docs/"
"$yard" __markdown "$src/docs/reference/commands"
python3 scripts/docs/openapi_markdown.py src/web/openapi.json > "$src/docs/reference/rest-api.md"
python3 scripts/docs/python_markdown.py "$build/python" > "$src/docs/reference/python-api.md"
# Warnings are errors (strict: in mkdocs.yml); mkdocs' own INFO lines are left out.
mkdocs build -q -f "$src/mkdocs.yml" -d "$build/site"
echo "docs.sh: the site is in $build/site/index.html"
