#!/usr/bin/env bash
# Starts a real single-host Slurm 22.05 cluster for the tests, entirely under one state
# directory, without touching the system's /etc/slurm, /etc/munge or MariaDB:
#
#   scripts/slurm/start.sh [--fresh] [STATE_DIR]      (default STATE_DIR: /tmp/yard-slurm)
#
# Daemons, each with its pid file in STATE/run and its log in STATE/log:
#   munged     private socket STATE/munge/munge.socket.2
#   mariadbd   own datadir STATE/mysql, socket STATE/run/mariadb.sock, a port on 127.0.0.1
#   slurmdbd   accounting, so that `sacct -P` works
#   slurmctld  partitions `cpu` (default: nodes c1, c2, 16 CPUs each) and `gpu` (node g1,
#              8 CPUs and 2 fake GPUs on character devices), all advertised larger than
#              the machine (SlurmdParameters=config_overrides); and `short` (c1, c2: at
#              most 1:00:00, one node, 4096 MB per node), a partition with limits
#   slurmd     one per node, on its own port
#
# A new (or empty) STATE_DIR is initialised; an existing one is re-used: daemons already
# running are kept, the others are started again with their state (jobs, accounting), so
# this also restarts a single daemon that was stopped. --fresh stops the cluster in
# STATE_DIR and wipes it first. Waits, with a deadline ($YARD_SLURM_START_TIMEOUT seconds,
# default 60), until every node is idle and sacct answers, then prints what a client
# needs, also written to STATE_DIR/env.sh:
#   eval "$(scripts/slurm/start.sh /tmp/x)"      or      . /tmp/x/env.sh
# Progress and errors go to stderr; on failure the ends of the logs are shown and the
# cluster is stopped. Run as root (the daemons run as root). Stop the
# cluster with scripts/slurm/stop.sh STATE_DIR.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/slurm/common.sh
. "$here/common.sh"

fresh=0
args=()
for a in "$@"; do
  case "$a" in
    --fresh) fresh=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "slurm/start: unknown option '$a'" >&2; exit 2 ;;
    *) args+=("$a") ;;
  esac
done
((${#args[@]} <= 1)) || { echo "slurm/start: at most one state directory" >&2; exit 2; }
state=${args[0]:-/tmp/yard-slurm}
# Absolute, because it ends up in config files and in the identity check of stop.sh.
state=$(realpath -m -- "$state")
timeout_s=${YARD_SLURM_START_TIMEOUT:-60}
t_start=$(yard_slurm_ms)

log() { echo "slurm/start: $*" >&2; }
die() { log "$*"; exit 1; }

[[ $(id -u) -eq 0 ]] || die "must run as root (the daemons run as root)"
for b in munged mariadbd mariadb-install-db mariadb-admin slurmdbd slurmctld slurmd sinfo sacct sacctmgr; do
  command -v "$b" >/dev/null || die "'$b' not found: run scripts/slurm/install.sh first"
done
[[ $state != / ]] || die "refusing / as state directory"

marker=$state/.yard-slurm
conf=$state/etc/slurm.conf

if ((fresh)) && [[ -e $marker ]]; then
  "$here/stop.sh" "$state" >&2
  # Only our own sub-directories: the directory itself may be a caller's mktemp dir.
  rm -rf -- "${state:?}"/{etc,run,log,munge,mysql,spool,dev,env.sh,.yard-slurm}
fi

# Never adopt (and later wipe or write into) a directory that is not ours.
if [[ -d $state && ! -e $marker ]] && [[ -n $(ls -A -- "$state") ]]; then
  die "$state exists, is not empty and was not made by this script: choose another directory"
fi

# --- Initialisation: only once per state directory ----------------------------------

# Picks a block of 8 consecutive TCP ports below the kernel's ephemeral range that
# nothing on this machine uses, so that several clusters (and a concurrent test run) can
# live side by side.
pick_ports() {
  local used base p ok
  used=" $(ss -Htan | awk '{n=split($4,a,":"); printf "%s ", a[n]}') "
  for _ in $(seq 1 200); do
    base=$((20000 + (RANDOM % 1500) * 8))
    ok=1
    for p in $(seq "$base" $((base + 7))); do
      [[ $used == *" $p "* ]] && { ok=0; break; }
    done
    ((ok)) && { echo "$base"; return 0; }
  done
  return 1
}

init_state() {
  local host base port_db port_dbd port_ctld port_c1 port_c2 port_g1 dbpass
  log "initialising $state"
  mkdir -p "$state"
  : >"$marker"
  mkdir -p "$state"/{etc,run,log,munge,spool/ctld,dev}
  # Traversable by other users and a 0755 munge socket dir: jobs submitted by a non-root
  # user must reach the socket and the config.
  chmod 755 "$state" "$state/munge" "$state/etc" "$state/run"

  host=$(hostname -s)
  base=$(pick_ports) || die "no free block of TCP ports found"
  port_db=$base port_dbd=$((base + 1)) port_ctld=$((base + 2))
  port_c1=$((base + 3)) port_c2=$((base + 4)) port_g1=$((base + 5))

  # munge refuses keys readable by others.
  (umask 077 && head -c 1024 /dev/urandom >"$state/etc/munge.key")

  # Fake GPUs: gres File= must be character devices; these behave like /dev/null.
  mknod -m 666 "$state/dev/gpu0" c 1 3
  mknod -m 666 "$state/dev/gpu1" c 1 3

  dbpass=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
  # install-db runs with the grant tables off; FLUSH PRIVILEGES loads them so that the
  # user slurmdbd connects as can be created in the same bootstrap.
  (umask 077 && cat >"$state/etc/bootstrap.sql" <<EOF
FLUSH PRIVILEGES;
CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$dbpass';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
EOF
)
  cat >"$state/etc/mariadb.args" <<EOF
--datadir=$state/mysql
--socket=$state/run/mariadb.sock
--port=$port_db
--bind-address=127.0.0.1
--pid-file=$state/run/mariadbd.pid
--log-error=$state/log/mariadbd.log
--user=root
--skip-name-resolve
--skip-log-bin
--innodb-buffer-pool-size=128M
--innodb-log-file-size=64M
--innodb-lock-wait-timeout=900
EOF
  local -a dbargs
  mapfile -t dbargs <"$state/etc/mariadb.args"
  # --no-defaults: the system's /etc/mysql must not leak into our server.
  mariadb-install-db --no-defaults "${dbargs[@]}" --auth-root-authentication-method=socket \
    --skip-test-db --extra-file="$state/etc/bootstrap.sql" >"$state/log/mariadb-install-db.log" 2>&1 ||
    { tail -20 "$state/log/mariadb-install-db.log" >&2; die "mariadb-install-db failed"; }
  rm -f "$state/etc/bootstrap.sql"

  # slurmdbd insists on 0600 and its SlurmUser as owner (it holds the DB password).
  (umask 077 && cat >"$state/etc/slurmdbd.conf" <<EOF
# Generated by scripts/slurm/start.sh for a single-host test cluster.
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket.2
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$port_dbd
SlurmUser=root
PidFile=$state/run/slurmdbd.pid
LogFile=$state/log/slurmdbd.log
DebugLevel=info
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$port_db
StorageUser=slurm
StoragePass=$dbpass
StorageLoc=slurm_acct_db
EOF
)

  cat >"$conf" <<EOF
# Generated by scripts/slurm/start.sh for a single-host test cluster: all daemons run as
# root on $host; nodes are told apart by their port (slurmd -N <node>).
ClusterName=yard
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port_ctld
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket.2
CredType=cred/munge
StateSaveLocation=$state/spool/ctld
SlurmdSpoolDir=$state/spool/slurmd-%n
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd-%n.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
MpiDefault=none
ReturnToService=2

# No cgroups: processes tracked through /proc, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# Without it every job would get a whole node's memory (one job per node).
DefMemPerCPU=500
# Reject at submission what no partition can ever run instead of pending forever.
EnforcePartLimits=ALL
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
GresTypes=gpu
# Nodes advertise more CPUs, memory and GPUs than this machine has.
SlurmdParameters=config_overrides

# Accounting through slurmdbd. Its clients (sacct, sacctmgr) take the munge socket from
# AccountingStoragePass, not from AuthInfo.
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$port_dbd
AccountingStoragePass=$state/munge/munge.socket.2
AccountingStorageTRES=gres/gpu
JobCompType=jobcomp/none

# Fast tests: schedule on every event, forget finished jobs soon, kill quickly. Het jobs
# are only started by the backfill scheduler: run it every second, not every 30.
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,bf_interval=1
MinJobAge=60
KillWait=2
MaxArraySize=10001
MaxJobCount=50000
InactiveLimit=0

NodeName=c1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$port_c1 CPUs=16 RealMemory=32000 State=UNKNOWN
NodeName=c2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$port_c2 CPUs=16 RealMemory=32000 State=UNKNOWN
NodeName=g1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$port_g1 CPUs=8 RealMemory=16000 Gres=gpu:2 State=UNKNOWN
PartitionName=cpu Nodes=c1,c2 Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=g1 MaxTime=INFINITE State=UP
PartitionName=short Nodes=c1,c2 MaxTime=1:00:00 MaxNodes=1 MaxMemPerNode=4096 State=UP
EOF
  cat >"$state/etc/gres.conf" <<EOF
AutoDetect=off
NodeName=g1 Name=gpu File=$state/dev/gpu[0-1]
EOF
  chmod 644 "$conf" "$state/etc/gres.conf"
  : >"$state/etc/.initialized"
}

if [[ ! -e $state/etc/.initialized ]]; then
  # A previous initialisation was interrupted: start again from nothing.
  if [[ -e $marker ]]; then
    "$here/stop.sh" "$state" >&2 || true
    rm -rf -- "${state:?}"/{etc,run,log,munge,mysql,spool,dev,env.sh}
  fi
  init_state
fi

export SLURM_CONF=$conf
# The client tools below must not pick up a caller's other cluster.
unset SLURM_CLUSTERS SLURM_JOB_ID

# --- Start whatever is not running ----------------------------------------------------

# Starts a daemon with its stdio on a log file: it must never hold the caller's stdout,
# or `$(start.sh)` would wait for it. setsid: it must not die with the caller's terminal
# or session.
spawn() {
  local name=$1
  shift
  setsid "$@" </dev/null >>"$state/log/$name.out" 2>&1 &
  # Not a process group leader, so setsid execs in place: $! is the daemon itself. The
  # pid file is written now, not when the daemon gets to it, so that stop.sh finds a
  # daemon that is still starting.
  echo "$!" >"$state/run/$name.pid"
  spawned[$name]=$!
}
declare -A spawned=()

# Alive: neither gone nor a zombie. (Right after spawn the pid may still be the subshell
# about to exec the daemon, so the identity check of `running` would be premature.)
alive() {
  local st
  st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $st && $st != Z ]]
}

running() { yard_slurm_pid "$state/run/$1.pid" "${2:-$1}" "$state" >/dev/null; }

deadline=$((t_start + timeout_s * 1000))
# Polls CONDITION (a command) every 50 ms until it succeeds, the deadline passes or a
# daemon has died (no use waiting for it): one started here, or one found running (it
# may have been on its way out, e.g. just sent SIGTERM).
wait_for() {
  local what=$1 d
  shift
  until "$@"; do
    for d in "${!spawned[@]}"; do
      alive "${spawned[$d]}" || { log "$d died while waiting for $what"; return 1; }
    done
    for d in "${found[@]}"; do
      running "$d" "${d%%-*}" || { log "$d, running when start.sh began, has exited (start.sh again will restart it)"; return 1; }
    done
    if (($(yard_slurm_ms) > deadline)); then
      log "timed out after ${timeout_s}s waiting for $what"
      return 1
    fi
    sleep 0.05
  done
}

fail() {
  log "$*"
  local f
  for f in "$state"/log/*.log "$state"/log/*.out; do
    [[ -s $f ]] || continue
    echo "---- last lines of $f" >&2
    tail -8 "$f" >&2
  done
  log "stopping the cluster"
  "$here/stop.sh" "$state" >&2 || true
  exit 1
}

started=()
found=()
for d in munged mariadbd slurmdbd slurmctld "${yard_slurm_nodes[@]/#/slurmd-}"; do
  if running "$d" "${d%%-*}"; then found+=("$d"); fi
done
if ! running munged; then
  # munged forks and returns once its socket is ready.
  munged --socket="$state/munge/munge.socket.2" --key-file="$state/etc/munge.key" \
    --log-file="$state/log/munged.log" --pid-file="$state/run/munged.pid" \
    --seed-file="$state/munge/munged.seed" </dev/null >>"$state/log/munged.out" 2>&1 ||
    fail "munged failed to start"
  started+=(munged)
fi

if ! running mariadbd; then
  mapfile -t dbargs <"$state/etc/mariadb.args"
  rm -f "$state/run/mariadb.sock"
  spawn mariadbd mariadbd --no-defaults "${dbargs[@]}"
  started+=(mariadbd)
fi

db_up() { mariadb-admin --no-defaults --socket="$state/run/mariadb.sock" --connect-timeout=1 ping >/dev/null 2>&1; }
wait_for "MariaDB" db_up || fail "MariaDB did not come up"

if ! running slurmdbd; then
  # slurmdbd finds slurmdbd.conf beside $SLURM_CONF; it creates its schema on first start.
  spawn slurmdbd slurmdbd -D
  started+=(slurmdbd)
fi
# slurmctld without state files exits if slurmdbd does not answer yet.
dbd_up() { sacctmgr -n -P show cluster format=cluster >/dev/null 2>&1; }
wait_for "slurmdbd" dbd_up || fail "slurmdbd did not come up"

if ! running slurmctld; then
  spawn slurmctld slurmctld -D -f "$conf"
  started+=(slurmctld)
fi
# A slurmd that finds no controller retries only ~10 s later: start them once it answers.
ctld_up() { scontrol ping 2>/dev/null | grep -q 'is UP'; }
wait_for "slurmctld" ctld_up || fail "slurmctld did not come up"

for n in "${yard_slurm_nodes[@]}"; do
  if ! running "slurmd-$n" slurmd; then
    spawn "slurmd-$n" slurmd -D -f "$conf" -N "$n"
    started+=("slurmd-$n")
  fi
done

# Ready when every node is idle (registered, nothing running; mix or alloc when a
# re-used cluster still runs jobs), slurmctld is registered with slurmdbd and sacct
# answers.
nodes_up() {
  local out
  out=$(sinfo -h -N -o '%N %t' 2>/dev/null) || return 1
  out=$(sort -u <<<"$out")  # a node in two partitions is listed twice
  [[ $(grep -cE ' (idle|mix|alloc)$' <<<"$out") -eq ${#yard_slurm_nodes[@]} ]] &&
    [[ $(wc -l <<<"$out") -eq ${#yard_slurm_nodes[@]} ]]
}
accounting_up() {
  local port
  port=$(sacctmgr -n -P show cluster yard format=ControlPort 2>/dev/null) || return 1
  [[ -n $port && $port != 0 ]] || return 1
  sacct -n -P -X -S now >/dev/null 2>&1
}
wait_for "the nodes to be idle" nodes_up || fail "nodes did not come up: $(sinfo -h -N -o '%N %t' 2>&1 | tr '\n' ' ')"
wait_for "slurmctld to register with slurmdbd" accounting_up || fail "accounting did not come up"

cat >"$state/env.sh" <<EOF
export SLURM_CONF=$conf
export YARD_SLURM_STATE=$state
EOF
chmod 644 "$state/env.sh"
cat "$state/env.sh"
t_end=$(yard_slurm_ms)
log "cluster up in $(((t_end - t_start) / 1000)).$(printf '%03d' $(((t_end - t_start) % 1000)))s (started: ${started[*]:-nothing, all running}); state in $state"
