#!/usr/bin/env bash
# The .deb as a site installs it: built with cpack from this build directory, installed
# with dpkg, used by a normal user (a job runs; man pages, bash completion and
# `module load switchyard` under Lmod work), removed, and nothing of it left behind.
# Usage: package_test.sh BUILD_DIR   (root; CTest runs it)
set -euo pipefail
build=$(cd "$1" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "package test: needs root (dpkg, useradd)" >&2; exit 1; }
if dpkg -s switchyard >/dev/null 2>&1; then
  echo "package test: a switchyard package is installed already; this test would replace it" >&2
  exit 1
fi
work=$(mktemp -d)
chmod 755 "$work"
user=yardpkg$$
installed=0
cleanup() {
  if id "$user" >/dev/null 2>&1; then
    # Its daemon (if any) stops; then the user and its home go.
    su "$user" -s /bin/sh -c 'yard server stop --kill-jobs' >/dev/null 2>&1 || true
    pkill -KILL -u "$user" 2>/dev/null || true
    userdel -r "$user" >/dev/null 2>&1 || true
  fi
  [ "$installed" = 1 ] && dpkg -P switchyard >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "package test: $*" >&2; exit 1; }

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >/dev/null
deb=$(ls "$work"/switchyard_*.deb)
dpkg -i "$deb" >/dev/null
installed=1
dpkg -L switchyard > "$work/files"
[ "$(command -v yard)" = /usr/bin/yard ] || fail "yard is not /usr/bin/yard"
[ -x /usr/bin/yardd ] || fail "the daemon yardd is not /usr/bin/yardd"

# A normal user runs a job with the installed yard, from its home, nothing of the source
# tree in sight.
useradd -m -s /bin/bash "$user"
out=$(su - "$user" -c 'cd ~ && id=$(yard submit -o out.txt -- echo hello from the package) && yard wait "$id" >/dev/null && cat out.txt && yard server stop >/dev/null')
[ "$out" = "hello from the package" ] || fail "the job's output was '$out'"
su - "$user" -c 'yard --version' | grep -q '^yard ' || fail "yard --version"

# Man pages, completion, modulefile.
# (Minimal images may tell dpkg to skip man pages: then they are checked in the .deb.)
if grep -qsE 'path-exclude[= ]+/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
  dpkg-deb -c "$deb" | grep -q 'usr/share/man/man1/yard-submit.1' || fail "no yard-submit(1) in the package"
else
  man -w yard-submit | grep -q '^/usr/share/man/man1/yard-submit.1' || fail "man -w yard-submit: $(man -w yard-submit 2>&1)"
fi
bash -c 'source /usr/share/bash-completion/completions/yard && complete -p yard' | grep -q -- '-F _yard' ||
  fail "the bash completion does not register _yard"
loaded=$(su - "$user" -c 'source /usr/share/lmod/lmod/init/bash && module use /usr/share/modulefiles && \
  module load switchyard && echo "$SWITCHYARD_ROOT" && command -v yard')
[ "$loaded" = "$(printf '/usr\n/usr/bin/yard')" ] || fail "module load switchyard: got '$loaded'"

# Slurm's commands as front ends, from the module that puts them first on PATH, and the
# Python module from Debian's python3.
out=$(su - "$user" -c 'source /usr/share/lmod/lmod/init/bash && module use /usr/share/modulefiles && \
  module load switchyard-slurm-commands && cd ~ && id=$(sbatch --parsable --wrap "echo from sbatch") && \
  yard wait "$id" >/dev/null && cat "slurm-$id.out" && command -v squeue')
[ "$out" = "$(printf 'from sbatch\n/usr/libexec/switchyard/slurm-commands/squeue')" ] ||
  fail "module load switchyard-slurm-commands; sbatch: got '$out'"
# (A build without the module, the sanitizers', packages none.)
if grep -q '/dist-packages/switchyard/__init__.py$' "$work/files" && python3 -c 'import cloudpickle' 2>/dev/null; then
  # -S and the package's folder alone: a development build's .pth (scripts/main.sh) is not read.
  out=$(su - "$user" -c 'cd ~ && python3 -S -c "import sys; sys.path.append(\"/usr/lib/python3/dist-packages\"); \
import switchyard; print(switchyard.__file__); print(switchyard.Executor().submit(pow, 2, 5).result(60))" && \
    yard server stop >/dev/null')
  [ "$out" = "$(printf '/usr/lib/python3/dist-packages/switchyard/__init__.py\n32')" ] ||
    fail "the installed Python module: got '$out'"
fi

# The web platform: its program behind `yard web`, and its pages where it finds them.
if grep -q '/share/switchyard/web/index.html$' "$work/files"; then
  out=$(su - "$user" -c 'printf "pass-word-1\n" | yard web user add someone --password-stdin --site ~/web-site && \
    yard web user list --site ~/web-site')
  [ "$out" = "$(printf 'user someone added\nsomeone\tsomeone')" ] || fail "yard web user add/list: got '$out'"
fi

# Removed and purged (its postrm runs ldconfig for the client library, so dpkg keeps a
# removed package registered until it is purged): no file of it remains.
dpkg -P switchyard >/dev/null
installed=0
left=()
while read -r f; do
  [ -f "$f" ] && left+=("$f")
done < "$work/files"
[ ${#left[@]} -eq 0 ] || fail "left after removal: ${left[*]}"
! dpkg -s switchyard >/dev/null 2>&1 || fail "still registered with dpkg"
echo "package test: installed, used, removed: $(basename "$deb")"
