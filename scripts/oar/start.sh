#!/usr/bin/env bash
# Starts the single-host OAR 2.5.9 test cluster (scripts/oar/install.sh first):
#
#   scripts/oar/start.sh STATE_DIR
#
# Configures OAR for tests, idempotently (/etc/oar/oar.conf: a private database, the job
# manager without cgroups or cpusets, no pause between two scheduler runs). Then starts,
# unless they run already: a private PostgreSQL on 127.0.0.1:15432 whose data live in
# STATE_DIR/pg (created on first use, with OAR's database); OAR's sshd on 127.0.0.1:6667
# (the oar-node side: the server starts jobs through it); the OAR server, Almighty
# (through /usr/sbin/oar-server, as its init script does). Adds 4 resources (cores) on
# one host `localhost` if there are none and waits until they are Alive (stop.sh leaves
# them Absent); jobs that a crash left Running are deleted first. The pids of the
# daemons it started go into STATE_DIR/*.pid (scripts/oar/stop.sh stops only those;
# daemons of another STATE_DIR are used and left alone); STATE_DIR/env.sh has what a
# client needs. Submit as an unprivileged user (`runuser -u yardtest -- oarsub ...`):
# OAR refuses root. Progress on stderr, nothing on stdout.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/oar/common.sh
. "$here/common.sh"
state=$(realpath -m -- "${1:?usage: start.sh STATE_DIR}")
log() { echo "oar/start: $*" >&2; }
die() {
  log "$*"
  exit 1
}
# shellcheck source=scripts/lib/wait.sh
. "$here/../lib/wait.sh"
t0=$(date +%s%N)

[[ -x /usr/sbin/oar-server && -f $yard_oar_conf ]] || die "OAR is not installed: run scripts/oar/install.sh"
pg_bin=$(yard_oar_pg_bin) || die "no PostgreSQL server: run scripts/oar/install.sh"
id "$yard_oar_user" >/dev/null 2>&1 || die "no user $yard_oar_user: run scripts/oar/install.sh"
user_home=$(getent passwd "$yard_oar_user" | cut -d: -f6)
yard_oar_bashrc_guarded "$user_home/.bashrc" || die "$user_home/.bashrc could recurse in OAR's jobs: run scripts/oar/install.sh"
yard_oar_own_bashrc_safe || die "~oar/.bashrc is not the packaged one (see scripts/oar/install.sh)"

mkdir -p "$state"
touch "$state/.yard-oar"
# PostgreSQL (user postgres) keeps its data in STATE_DIR.
(cd / && runuser -u postgres -- test -x "$state") ||
  die "user postgres cannot reach $state: make it and its parents traversable (chmod o+x)"

# --- /etc/oar/oar.conf ---------------------------------------------------------------
# Each key set on its exact line (or its commented-out default, or appended), and the
# file rewritten in place (keeping its owner and mode 600) only if that changes it.
conf_value() { sed -n "s/^$1=\"\(.*\)\"\$/\1/p" "$yard_oar_conf" | tail -1; }
sed_args=()
set_key() {
  local key=$1 value=$2
  if grep -q "^$key=" "$yard_oar_conf"; then
    sed_args+=(-e "s|^$key=.*|$key=\"$value\"|")
  elif grep -q "^#$key=" "$yard_oar_conf"; then
    sed_args+=(-e "0,/^#$key=/s|^#$key=.*|$key=\"$value\"|")
  else
    sed_args+=(-e "\$a $key=\"$value\"")
  fi
}
comment_key() { sed_args+=(-e "s|^$1=|#$1=|"); }
new_password() { head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9'; }

set_key DB_TYPE Pg
set_key DB_HOSTNAME 127.0.0.1
set_key DB_PORT "$yard_oar_pg_port"
# oar-database refuses empty passwords: one of our own, made once for this host.
[[ -n $(conf_value DB_BASE_PASSWD) ]] || set_key DB_BASE_PASSWD "$(new_password)"
[[ -n $(conf_value DB_BASE_PASSWD_RO) ]] || set_key DB_BASE_PASSWD_RO "$(new_password)"
# The scheduler may run right after its last run (default: 5 s later at the earliest).
set_key SCHEDULER_MIN_TIME_BETWEEN_2_CALLS 0
# No cgroups or cpusets on the node: the cgroup job manager needs cgroup mounts of its
# own, and without CPUSET_PATH the default job manager neither mounts /dev/cpuset nor
# makes cpusets; it only sets up the job's ssh keys.
comment_key JOB_RESOURCE_MANAGER_FILE
comment_key CPUSET_PATH
# A job whose oarexec does not answer oardel is given up (Error, "exterminated by Leon")
# 30 s after the request, not 300 s: jobs left Running by a cluster that went down.
set_key JOBDEL_WALLTIME 30
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
sed "${sed_args[@]}" "$yard_oar_conf" > "$tmp"
if ! cmp -s "$tmp" "$yard_oar_conf"; then
  cat "$tmp" > "$yard_oar_conf"
  log "configured $yard_oar_conf"
fi

# --- PostgreSQL -----------------------------------------------------------------------
pgdata=$state/pg
as_postgres() { (cd / && runuser -u postgres -- "$@"); }
# As its administrator, over the private socket (trusted: only root and postgres reach it).
psql_admin() {
  PGOPTIONS="-c client_min_messages=warning" "$pg_bin/psql" -h "$yard_oar_pg_socket_dir" \
    -p "$yard_oar_pg_port" -U postgres -X -q -t -A -v ON_ERROR_STOP=1 "$@"
}
install -d -o postgres -g postgres -m 700 "$yard_oar_pg_socket_dir"
if pid=$(yard_oar_postgres_pid "$state"); then
  log "PostgreSQL runs already ($pid)"
elif yard_oar_listening "$yard_oar_pg_port"; then
  log "port $yard_oar_pg_port is taken by a server not ours: using it (left running at stop)"
else
  if [[ ! -s $pgdata/PG_VERSION ]]; then
    rm -rf "$pgdata"
    install -d -o postgres -g postgres -m 700 "$pgdata"
    # A throw-away test database: no fsync.
    as_postgres "$pg_bin/initdb" -D "$pgdata" -U postgres --auth-local=trust \
      --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync > "$state/initdb.log" 2>&1 ||
      die "initdb failed: $(tail -5 "$state/initdb.log")"
    cat >> "$pgdata/postgresql.conf" <<EOF
# yard's OAR test cluster (scripts/oar/start.sh)
listen_addresses = '127.0.0.1'
port = $yard_oar_pg_port
unix_socket_directories = '$yard_oar_pg_socket_dir'
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
    log "created a PostgreSQL cluster in $pgdata"
  fi
  # A postmaster.pid left by a crash whose pid is no postgres now (or only a zombie not
  # yet reaped, which PostgreSQL takes for a live postmaster) keeps it from starting.
  if [[ -e $pgdata/postmaster.pid ]] && ! yard_oar_pid "$pgdata/postmaster.pid" "$pg_bin/postgres" >/dev/null; then
    rm -f "$pgdata/postmaster.pid"
  fi
  touch "$state/postgres.log"
  chown postgres "$state/postgres.log"
  as_postgres "$pg_bin/pg_ctl" -D "$pgdata" -l "$state/postgres.log" -w -t 60 start >/dev/null ||
    die "PostgreSQL did not start: $(tail -5 "$state/postgres.log")"
  head -1 "$pgdata/postmaster.pid" > "$state/postgres.pid"
  pid=$(yard_oar_postgres_pid "$state") || die "PostgreSQL started but its pid file names no postgres"
  log "started PostgreSQL ($pid, port $yard_oar_pg_port)"
fi
wait_for 30 psql_admin -c 'select 1' || die "PostgreSQL does not answer on $yard_oar_pg_socket_dir"

# OAR's database and its two users, with oar.conf's passwords (set again each time, in
# case oar.conf got new ones: it is the host's, the database is this STATE_DIR's).
oar_pass=$(conf_value DB_BASE_PASSWD)
oar_ro_pass=$(conf_value DB_BASE_PASSWD_RO)
if [[ $(psql_admin -c "select 1 from pg_database where datname = 'oar'") != 1 ]]; then
  # Left by an interrupted creation, if any.
  psql_admin -c 'drop role if exists oar' -c 'drop role if exists oar_ro'
  oar-database --create --db-host="$yard_oar_pg_socket_dir" --db-admin-user=postgres \
    --db-admin-pass= -y < /dev/null > "$state/oar-database.log" 2>&1 ||
    die "oar-database --create failed: $(tail -5 "$state/oar-database.log")"
  log "created OAR's database"
else
  psql_admin <<EOF
alter role oar password '$oar_pass';
alter role oar_ro password '$oar_ro_pass';
EOF
fi

# --- OAR's sshd (the node side) -------------------------------------------------------
# What /etc/init.d/oar-node runs, on loopback only, logging into STATE_DIR.
install -d -m 755 /run/sshd
if pid=$(yard_oar_sshd_pid "$state"); then
  log "OAR's sshd runs already ($pid)"
elif yard_oar_listening "$yard_oar_ssh_port"; then
  log "port $yard_oar_ssh_port is taken by an sshd not ours: using it (left running at stop)"
else
  rm -f "$state/sshd.pid"
  # (Its complaints before it reads -E go to stderr: into the same log.)
  if ! /usr/sbin/sshd -f /etc/oar/sshd_config -o ListenAddress=127.0.0.1 \
    -o PidFile="$state/sshd.pid" -E "$state/sshd.log" 2>> "$state/sshd.err"; then
    die "OAR's sshd did not start: $(tail -5 "$state/sshd.log" "$state/sshd.err")"
  fi
  wait_for 10 yard_oar_sshd_pid "$state" || die "OAR's sshd wrote no pid file"
  log "started OAR's sshd ($(yard_oar_sshd_pid "$state"), port $yard_oar_ssh_port)"
fi

# --- Almighty (the server) ------------------------------------------------------------
server_pidfile=/run/oar-server.pid
stale=()
if pid=$(yard_oar_almighty_pid "$state"); then
  log "Almighty runs already ($pid)"
elif pid=$(yard_oar_pid "$server_pidfile" /usr/bin/perl /usr/lib/oar/Almighty) ||
  yard_oar_listening "$yard_oar_server_port"; then
  log "an OAR server not ours runs already (${pid:-port $yard_oar_server_port}): using it (left running at stop)"
else
  # Jobs the database has as running but that have no oarexec any more: the cluster went
  # down under them (stop.sh ends them, a crash does not). Listed before the server
  # starts, as it launches jobs at once.
  mapfile -t stale < <(psql_admin -d oar -c "select job_id from jobs
    where state in ('Launching', 'Running', 'Suspended', 'Resuming', 'Finishing') order by job_id" |
    while read -r id; do yard_oar_oarexec_pid "$id" >/dev/null || echo "$id"; done)
  # A node change the last stop asked for (the node Absent) that the server had no time to
  # make would be made as soon as it starts, after the node is found Alive below, and no
  # job would start: dropped first (the node is set Alive below anyway).
  psql_admin -d oar -c "update resources set next_state = 'UnChanged' where next_state <> 'UnChanged'" >/dev/null
  # It detaches (setsid, fork) and writes the pid of Almighty into $server_pidfile.
  rm -f "$server_pidfile"
  /usr/sbin/oar-server || die "/usr/sbin/oar-server failed"
  almighty_started() { yard_oar_pid "$server_pidfile" /usr/bin/perl /usr/lib/oar/Almighty; }
  wait_for 10 almighty_started || die "Almighty did not start (see $yard_oar_log)"
  cp "$server_pidfile" "$state/almighty.pid"
  log "started Almighty ($(yard_oar_almighty_pid "$state"), port $yard_oar_server_port)"
fi
wait_for 30 yard_oar_listening "$yard_oar_server_port" ||
  die "Almighty does not listen on port $yard_oar_server_port (see $yard_oar_log)"

# --- Resources ------------------------------------------------------------------------
# 4 cores of one cpu of one host `localhost` (what oar_resources_add generates, with the
# node's name the server reaches through its sshd): `oarsub -l /host=1/core=2` works.
psql_oar() { psql_admin -d oar -c "$1"; }
if [[ $(psql_oar "select count(*) from resources") == 0 ]]; then
  oarproperty -l | grep -qx host || oarproperty -c -a host >/dev/null
  oarproperty -l | grep -qx cpu || oarproperty -a cpu >/dev/null
  oarproperty -l | grep -qx core || oarproperty -a core >/dev/null
  for core in 1 2 3 4; do
    oarnodesetting -a -h localhost -p host=localhost -p cpu=1 -p core=$core -p cpuset=$((core - 1)) >/dev/null
  done
  log "added 4 resources (cores) on host localhost"
fi
# Left Suspected or Absent by an earlier run, for instance.
if [[ $(psql_oar "select count(*) from resources where state <> 'Alive'") != 0 ]]; then
  oarnodesetting -s Alive -h localhost >/dev/null
fi
# The stale jobs: deleted as an administrator would, and waited for (OAR gives up on their
# oarexec after JOBDEL_WALLTIME), so that the cluster starts with its cores free.
if ((${#stale[@]})); then
  log "jobs ${stale[*]} were running when the cluster went down: deleting them (~30 s)"
  oardel "${stale[@]}" >/dev/null 2>&1 || true
  oardel --force-terminate-finishing-job "${stale[@]}" >/dev/null 2>&1 || true
  stale_ended() {
    [[ $(psql_oar "select count(*) from jobs where job_id in ($(IFS=,; echo "${stale[*]}"))
      and state not in ('Terminated', 'Error')") == 0 ]]
  }
  wait_for 90 stale_ended || die "jobs ${stale[*]} did not end (see $yard_oar_log)"
  # Their files in OAR's runtime directory, which only their oarexec would remove.
  for id in "${stale[@]}"; do
    rm -f "$(yard_oar_runtime_dir)"/{"$id","${id}_resources","pid_of_oarexec_for_jobId_$id"}
  done
fi
# Deleting them may have left the node Suspected or Absent again (a forced end turns the
# nodes of the job Suspected): set it Alive once more.
if ((${#stale[@]})) && [[ $(psql_oar "select count(*) from resources where state <> 'Alive'") != 0 ]]; then
  oarnodesetting -s Alive -h localhost >/dev/null
fi
all_alive() { [[ $(timeout 10 oarnodes -s | grep -c ': Alive$') -ge 4 ]]; }
wait_for 30 all_alive || { oarnodes -s >&2; die "the resources of localhost are not Alive"; }

cat > "$state/env.sh" <<EOF
# OAR's clients (oarsub, oarstat, oardel: /usr/bin) and administration tools (/usr/sbin)
# need nothing but /etc/oar/oar.conf; submit as $yard_oar_user, not root.
export PATH=/usr/bin:/usr/sbin:\$PATH
export YARD_OAR_USER=$yard_oar_user YARD_OAR_STATE=$state YARD_OAR_LOG=$yard_oar_log
EOF
log "OAR up: 4 cores on localhost (state $state, $((($(date +%s%N) - t0) / 1000000)) ms)"
