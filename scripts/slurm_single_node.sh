#!/usr/bin/env bash
# A real single-node Slurm on this machine, for the cluster tests (Debian 12, as root).
#   scripts/slurm_single_node.sh start    install what is missing, write slurm.conf, start
#                                         munged, slurmctld and slurmd, wait for the node idle
#   scripts/slurm_single_node.sh status   the daemons this script started, and sinfo
#   scripts/slurm_single_node.sh stop     stop exactly the daemons this script started
# Everything (slurm.conf, state, spool, logs, PID files) lives in one state folder,
# $PPSYNTH_SLURM_DIR (default /tmp/ppsynth-slurm). Clients find this Slurm through
#   export SLURM_CONF=$PPSYNTH_SLURM_DIR/slurm.conf
# which `start` prints on its last line (eval "$(scripts/slurm_single_node.sh start)" works).
set -euo pipefail

STATE=${PPSYNTH_SLURM_DIR:-/tmp/ppsynth-slurm}
CONF=$STATE/slurm.conf
TIMEOUT=${PPSYNTH_SLURM_TIMEOUT:-60}
PACKAGES=(slurmctld slurmd slurm-client munge)

say() { echo "slurm_single_node: $*" >&2; }

install_missing() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local cmd="apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    say "needs these Debian packages. Run as root: apt-get update && $cmd"
    exit 1
  fi
  say "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  $cmd -qq >&2
}

# select/cons_tres came with Slurm 19.05; older versions only have cons_res.
select_type() {
  local dir
  for dir in /usr/lib/x86_64-linux-gnu/slurm-wlm /usr/lib/*/slurm-wlm /usr/lib/slurm-wlm /usr/lib64/slurm; do
    if [ -e "$dir/select_cons_tres.so" ]; then
      echo select/cons_tres
      return
    fi
  done
  echo select/cons_res
}

alive() { # PID file -> 0 when that process runs
  [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

write_conf() {
  local host cpus mem_kb
  host=$(hostname -s)
  cpus=$(nproc)
  mem_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
  mkdir -p "$STATE/state" "$STATE/spool" "$STATE/log"
  cat >"$CONF" <<EOF
# Written by scripts/slurm_single_node.sh: one node, for tests.
ClusterName=ppsynth
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=$(select_type)
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerType=sched/backfill
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
StateSaveLocation=$STATE/state
SlurmdSpoolDir=$STATE/spool
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
SlurmctldPort=${PPSYNTH_SLURMCTLD_PORT:-6817}
SlurmdPort=${PPSYNTH_SLURMD_PORT:-6818}
MinJobAge=600
KillWait=5
InactiveLimit=0
NodeName=$host CPUs=$cpus RealMemory=$((mem_kb / 1024)) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munge() {
  if [ ! -s /etc/munge/munge.key ]; then
    say "creating a munge key"
    if command -v mungekey >/dev/null; then
      mungekey --create --force
    else
      dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "munged already runs (not ours; left alone)"
    return
  fi
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/ppsynth-munged.pid
  cp /run/munge/ppsynth-munged.pid "$STATE/munged.pid"
}

log_tails() {
  local f
  for f in "$STATE"/log/*.log; do
    [ -f "$f" ] || continue
    echo "---- last lines of $f" >&2
    tail -n 20 "$f" >&2
  done
}

wait_idle() {
  local host waited=0
  host=$(hostname -s)
  while :; do
    if SLURM_CONF=$CONF sinfo -h -n "$host" -o '%t' 2>/dev/null | grep -qx 'idle'; then
      return 0
    fi
    if [ "$waited" -ge "$TIMEOUT" ]; then
      say "the node '$host' did not become idle in ${TIMEOUT} s; sinfo says:"
      SLURM_CONF=$CONF sinfo >&2 || true
      log_tails
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
}

cmd_start() {
  if [ "$(id -u)" -ne 0 ]; then
    say "start needs root (it installs packages and runs slurmd as root)"
    exit 1
  fi
  if alive "$STATE/slurmctld.pid" || alive "$STATE/slurmd.pid"; then
    say "already started from $STATE (run stop first)"
    echo "export SLURM_CONF=$CONF"
    return 0
  fi
  install_missing
  mkdir -p "$STATE"
  write_conf
  start_munge
  /usr/sbin/slurmctld -f "$CONF" -i
  /usr/sbin/slurmd -f "$CONF"
  if ! wait_idle; then
    cmd_stop
    exit 1
  fi
  say "node $(hostname -s) idle in partition 'debug' ($(nproc) CPUs); state in $STATE"
  echo "export SLURM_CONF=$CONF"
}

stop_pid() { # name, PID file
  local f=$2 pid i
  alive "$f" || {
    rm -f "$f"
    return 0
  }
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null || true
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "$1 ($pid) did not stop in 10 s; killing it"
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
  say "stopped $1 ($pid)"
}

cmd_stop() {
  stop_pid slurmd "$STATE/slurmd.pid"
  stop_pid slurmctld "$STATE/slurmctld.pid"
  stop_pid munged "$STATE/munged.pid"
}

cmd_status() {
  local d rc=0
  for d in munged slurmctld slurmd; do
    if alive "$STATE/$d.pid"; then
      echo "$d: running ($(cat "$STATE/$d.pid"))"
    else
      echo "$d: not running (not started by this script)"
      [ "$d" = munged ] || rc=1
    fi
  done
  [ -f "$CONF" ] && SLURM_CONF=$CONF sinfo || true
  return $rc
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *)
    echo "usage: $0 start|stop|status   (state folder: $STATE)" >&2
    exit 2
    ;;
esac
