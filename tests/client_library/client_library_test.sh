#!/usr/bin/env bash
# The client library as a program outside the project uses it: this build installed
# (`cmake --install`, staged under a temporary DESTDIR), then client_program.cpp compiled
# with nothing but `pkg-config --cflags --libs switchyard-client` from that staging tree
# (no include path into the source or build tree), and run against a real daemon in a
# private HOME: the program starts the installed yardd through the client and stops it.
# Checked also: the installed headers are daemon_client.h and what it reaches, and none of
# them is, or reaches, a header of the daemon, the CLI, the store or the backends.
# Usage: client_library_test.sh BUILD_DIR PROGRAM.cpp CXX [FLAGS]   (CTest runs it; FLAGS:
# the build's sanitizer flags, which a program linking a sanitized library needs too)
set -euo pipefail
build=$(cd "$1" && pwd)
program=$2
cxx=$3
flags=${4:-}
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
# Short: the daemon's socket lives below it, and socket paths hold at most 107 bytes.
work=$(mktemp -d /tmp/yard-client-XXXXXX)
stage=$work/stage
fail() { echo "client library test: $*" >&2; exit 1; }

# Every process running a program of the staging tree (the daemon, its job host).
staged_processes() {
  local exe p
  for p in /proc/[0-9]*; do
    exe=$(readlink "$p/exe" 2>/dev/null) || continue
    [[ $exe == "$stage"/* ]] && echo "${p#/proc/}"
  done
  return 0
}
# Waits (30 s at most) for a pid to exit: tail returns when it does.
gone() { timeout 30 tail --pid="$1" -s 0.05 -f /dev/null; }
cleanup() {
  local pid
  # A daemon left by a failed run is stopped by its pid, then whatever it started.
  for pid in $(staged_processes); do
    kill -TERM "$pid" 2>/dev/null || true
    gone "$pid" || kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# The install, as a packager stages it (DESTDIR: nothing of it lands outside $stage). The
# .pc file finds its prefix from where it lies (${pcfiledir}): pkg-config needs no sysroot.
DESTDIR=$stage cmake --install "$build" >/dev/null
prefix=$stage$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
pc=$(find "$stage" -name switchyard-client.pc)
if [ -z "$pc" ] || [ "$(echo "$pc" | wc -l)" != 1 ]; then fail "not one switchyard-client.pc in the install: '$pc'"; fi
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
export PKG_CONFIG_PATH=${pc%/*}
cflags=$(pkg-config --cflags switchyard-client)
libs=$(pkg-config --libs switchyard-client)
include=$prefix/include/switchyard
libdir=
for word in $cflags $libs; do
  case $word in
    -I*) if [ "$(realpath -m "${word#-I}")" = "$include" ]; then include_named=1; fi ;;
    -L*) libdir=$(realpath -m "${word#-L}") ;;
  esac
done
[ -n "${include_named:-}" ] || fail "pkg-config --cflags: '$cflags' names no $include"
[[ $libdir == "$prefix"/* ]] || fail "pkg-config --libs: '$libs' names no library directory in the install"
[[ "$cflags $libs" != *"$source_dir"* && "$cflags $libs" != *"$build"* ]] ||
  fail "pkg-config points into the source or build tree: $cflags $libs"

# The installed headers: the client's, the protocol's and the job model's, nothing else,
# and every header one of them includes is installed (none of another folder).
others=$(cd "$include" && find . -type f ! -path './client/*' ! -path './protocol/*' ! -path './core/*')
[ -z "$others" ] || fail "installed headers outside client/, protocol/ and core/: $others"
declare -A reached=([client/daemon_client.h]=1)
queue=(client/daemon_client.h)
while [ ${#queue[@]} -gt 0 ]; do
  header=${queue[0]}
  queue=("${queue[@]:1}")
  case $header in
    client/* | protocol/* | core/*) ;;
    *) fail "$header (of the daemon, the CLI, the store or the backends) is reachable from client/daemon_client.h" ;;
  esac
  [ -f "$include/$header" ] || fail "$header is reachable from client/daemon_client.h but not installed"
  while read -r next; do
    [ -n "${reached[$next]:-}" ] && continue
    reached[$next]=1
    queue+=("$next")
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$include/$header")
done

# The program: compiled from the staging tree alone (no CPATH either), warning-free, and
# linked with the library only.
unset CPATH CPLUS_INCLUDE_PATH LIBRARY_PATH
# shellcheck disable=SC2086  # the flags are words
"$cxx" -std=c++20 -Wall -Wextra -Werror $flags $cflags -o "$work/client_program" "$program" $libs
needed=$(readelf -d "$work/client_program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "$needed" | grep -q '^libswitchyard-client\.so' || fail "the program does not link libswitchyard-client: $needed"

# Run in a private HOME; the client starts the installed daemon ($YARD_DAEMON: the
# program's own directory holds none, and the configured prefix may hold another).
home=$work/home
mkdir -p "$home/run" "$home/jobs"
set +e
out=$(env -u YARD_CONFIG -u YARD_POLICY HOME="$home" XDG_RUNTIME_DIR="$home/run" XDG_STATE_HOME="$home/state" \
  XDG_CONFIG_HOME="$home/config" YARD_DAEMON="$prefix/bin/yardd" LD_LIBRARY_PATH="$libdir" \
  "$work/client_program" "$home/jobs")
rc=$?
set -e
echo "$out"
[ $rc -eq 0 ] || fail "the program failed (exit $rc)"
# The program asked the daemon to stop: it does, and its job host with it.
daemon=$(echo "$out" | sed -n 's/^daemon \([0-9]*\)$/\1/p')
[ -n "$daemon" ] || fail "the program did not name its daemon"
gone "$daemon" || fail "the daemon $daemon did not stop"
for pid in $(staged_processes); do
  gone "$pid" || fail "process $pid ($(tr '\0' ' ' < "/proc/$pid/cmdline")) still runs after the daemon stopped"
done
echo "client library test: a program built with pkg-config alone ran a job through the installed library"

# docs/API.md's own example (release builds: the page's command line has no sanitizer
# flags): its prog.cpp compiled with the line the page shows, run in a new HOME, and its
# output as the page shows it.
if [ -z "$flags" ]; then
  doc=$source_dir/docs/API.md
  mkdir -p "$work/doc" "$work/dochome/run"
  awk '/^```cpp$/ { inside = 1; n = 0; next }
       /^```$/ { if (keep) exit; inside = 0; next }
       inside { if (++n == 1) keep = ($0 ~ /^\/\/ prog\.cpp:/); if (keep) print }' "$doc" > "$work/doc/prog.cpp"
  [ -s "$work/doc/prog.cpp" ] || fail "docs/API.md has no cpp block that starts with '// prog.cpp:'"
  compile=$(sed -n 's/^\$ \(c++ .*prog\.cpp.*\)$/\1/p' "$doc" | head -n 1)
  [ -n "$compile" ] || fail "docs/API.md shows no 'c++ ... prog.cpp' line"
  (cd "$work/doc" && bash -c "$compile") || fail "docs/API.md's line failed: $compile"
  expected=$(awk '/^\$ \.\/a\.out$/ { on = 1; next } on && /^```$/ { exit } on' "$doc")
  dochome=$work/dochome
  docenv=(env -u YARD_CONFIG -u YARD_POLICY HOME="$dochome" XDG_RUNTIME_DIR="$dochome/run"
    XDG_STATE_HOME="$dochome/state" XDG_CONFIG_HOME="$dochome/config" YARD_DAEMON="$prefix/bin/yardd")
  said=$(cd "$work/doc" && "${docenv[@]}" LD_LIBRARY_PATH="$libdir" ./a.out) || fail "docs/API.md's program failed: $said"
  [ "$said" = "$expected" ] || fail "docs/API.md's program printed '$said', the page shows '$expected'"
  [ "$(cat "$work/doc/yard-1.out" 2>/dev/null)" = hi ] || fail "the page's job wrote no 'hi' into yard-1.out: $(ls "$work/doc")"
  daemon=$("${docenv[@]}" "$prefix/bin/yard" server status --json | sed -n 's/.*"pid": *\([0-9]*\).*/\1/p')
  "${docenv[@]}" "$prefix/bin/yard" server stop >/dev/null
  [ -z "$daemon" ] || gone "$daemon" || fail "the daemon $daemon of the page's program did not stop"
  echo "client library test: docs/API.md's prog.cpp, compiled and run as the page shows, printed: $said"
fi
