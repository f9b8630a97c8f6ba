# Shared by scripts/oar/*.sh and tests/oar: the fixed places and ports of the single-host
# OAR 2.5.9 test cluster, and the checks that a recorded pid is still our daemon.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts that source this

# OAR has one configuration per host (clients read it through the setuid oardodo), so
# only one test cluster runs at a time, whatever the STATE_DIR.
yard_oar_conf=/etc/oar/oar.conf
# The submitting user of the tests: OAR's admission rules refuse root and oar.
yard_oar_user=yardtest
# A private PostgreSQL, never Debian's cluster "main" on 5432: loopback and this port
# for OAR (password, scram), a unix socket in a root/postgres-only directory for the
# administration (trust: whoever can reach the socket is root or postgres).
yard_oar_pg_port=15432
yard_oar_pg_socket_dir=/run/yard-oar-pg
# Set by the packages, left as they are: Almighty's port for its clients (oar.conf
# SERVER_PORT) and OAR's own sshd, through which the server starts jobs on the node
# (/etc/oar/sshd_config, and OPENSSH_CMD in oar.conf).
yard_oar_server_port=6666
yard_oar_ssh_port=6667
yard_oar_log=/var/log/oar.log

# The newest PostgreSQL server installed (15 on Debian 12).
yard_oar_pg_bin() {
  local d
  d=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -1)
  [[ -x $d/postgres ]] || return 1
  echo "$d"
}

# The pid in FILE (its first line) if that process is alive and runs EXE, and, if given,
# has ARG among its arguments (Almighty is a perl script: its exe is /usr/bin/perl).
# Pids get reused: a pid alone proves nothing.
yard_oar_pid() {
  local file=$1 exe=$2 arg=${3:-} pid
  pid=$(head -1 "$file" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ $(readlink "/proc/$pid/exe" 2>/dev/null) == "$exe" ]] || return 1
  if [[ -n $arg ]]; then
    tr '\0' '\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$arg" || return 1
  fi
  echo "$pid"
}

# Where OAR keeps the files of running jobs, among them pid_of_oarexec_for_jobId_ID: the
# pid of the job's oarexec (a perl with the argument OAREXEC, as oar), which detaches
# from the ssh session that started it and holds the job's processes in its session.
yard_oar_runtime_dir() {
  local d
  d=$(sed -n 's/^OAR_RUNTIME_DIRECTORY="\(.*\)"$/\1/p' "$yard_oar_conf" 2>/dev/null | tail -1)
  echo "${d:-/tmp/oar_runtime}"
}
# The pid of the oarexec of job ID, if it runs.
yard_oar_oarexec_pid() {
  yard_oar_pid "$(yard_oar_runtime_dir)/pid_of_oarexec_for_jobId_$1" /usr/bin/perl OAREXEC
}

# The three daemons: NAME (of STATE_DIR/NAME.pid) -> what yard_oar_pid checks.
yard_oar_postgres_pid() { yard_oar_pid "$1/postgres.pid" "$(yard_oar_pg_bin)/postgres"; }
yard_oar_sshd_pid() { yard_oar_pid "$1/sshd.pid" /usr/sbin/sshd; }
yard_oar_almighty_pid() { yard_oar_pid "$1/almighty.pid" /usr/bin/perl /usr/lib/oar/Almighty; }

# Whether something listens on 127.0.0.1:PORT (or on every address).
yard_oar_listening() {
  ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

# Every descendant of the given pids (children, grandchildren, ...), one a line.
yard_oar_descendants() {
  ps -e -o pid=,ppid= | awk -v roots="$*" '
    BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
    { parent[$1] = $2; order[NR] = $1 }
    END {
      do {
        grew = 0
        for (i = 1; i <= NR; i++) {
          p = order[i]
          if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; out[p] = 1; grew = 1 }
        }
      } while (grew)
      for (p in out) print p
    }'
}

# The first line of a ~/.bashrc that OAR's jobs may source: OAR starts jobs with BASH_ENV
# pointing at a bashrc that sources the user's ~/.bashrc, so a ~/.bashrc that runs a bash
# script would start itself again and again (seen here: thousands of processes). With
# this line first, non-interactive shells (every one that reads BASH_ENV) stop at once.
# shellcheck disable=SC2016
yard_oar_bashrc_guard='case $- in *i*) ;; *) return ;; esac # yard: OAR jobs (BASH_ENV) stop here'

# Whether FILE (a user's ~/.bashrc) starts with that guard.
yard_oar_bashrc_guarded() {
  [[ $(head -1 "$1" 2>/dev/null) == "$yard_oar_bashrc_guard" ]]
}

# Whether oar's own ~/.bashrc is still the packaged one, which only sources
# ~oar/.bash_oar (a PATH setting with its own guard), and so cannot recurse. It cannot
# take the guard above: OAR runs its commands through non-interactive shells that need
# that PATH (oardodo).
yard_oar_own_bashrc_safe() {
  local home
  home=$(getent passwd oar | cut -d: -f6) || return 1
  ! grep -vE '^[[:space:]]*(#.*)?$' "$home/.bashrc" 2>/dev/null |
    grep -qvxF "[ -f $home/.bash_oar ] && . $home/.bash_oar"
}
