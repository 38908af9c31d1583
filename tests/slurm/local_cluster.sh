#!/usr/bin/env bash
# A real one-node Slurm cluster for the tests, from Debian's slurmctld, slurmd and munge, run as
# root from a configuration in a folder of its own (../shared/spec/NOTES.md).
#
#   local_cluster.sh start DIR   writes DIR/slurm.conf, starts munged (if needed), slurmctld and
#                                slurmd, waits until the node is idle; prints the SLURM_CONF path
#   local_cluster.sh stop DIR    stops the daemons this script started (by their pid files)
set -euo pipefail
action=${1:?start|stop}
dir=$(realpath -m "${2:?DIR}")
conf=$dir/slurm.conf

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

stop() {
  for name in slurmd slurmctld munged; do
    local pidfile=$dir/$name.pid
    [[ -f $pidfile ]] || continue
    local pid
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
}

start_munge() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    return  # a munged already answers
  fi
  if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge
  munged --force --pid-file="$dir/munged.pid" --log-file="$dir/munged.log"
  for _ in $(seq 50); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "local_cluster.sh: munged did not start (see $dir/munged.log)" >&2
  exit 1
}

start() {
  mkdir -p "$dir/state" "$dir/spool"
  local host
  host=$(hostname -s)
  cat >"$conf" <<CONF
ClusterName=dcsweeptest
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobRequeue=1
SlurmdTimeout=60
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  start_munge
  export SLURM_CONF=$conf
  slurmctld -i -f "$conf"
  slurmd -f "$conf"
  for _ in $(seq 150); do
    if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
      echo "$conf"
      return
    fi
    sleep 0.2
  done
  echo "local_cluster.sh: the node never became idle (see $dir/slurmctld.log, $dir/slurmd.log)" >&2
  sinfo >&2 || true
  exit 1
}

case $action in
  start) start ;;
  stop) stop ;;
  *) echo "usage: local_cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
