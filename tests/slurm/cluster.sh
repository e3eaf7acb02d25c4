# A throw-away one-node Slurm cluster for tests, sourced by the test scripts
# of this folder. Everything lives in one temporary folder: munge's key,
# socket and log, slurm.conf, the controller's state, slurmd's spool, logs
# and pid files. Ports are picked free at start and the cluster name is
# unique, so several clusters (other test runs on the same machine) do not
# meet. slurm_cluster_stop kills the daemons started here, by pid, and
# whatever else carries this cluster's SLURM_CONF in its environment (job
# steps, jobs); the caller sets `trap slurm_cluster_stop EXIT` before
# starting, and slurm_cluster_watchdog covers a caller killed outright.
#
#   slurm_cluster_start DIR [MAX_ARRAY_SIZE]
#     returns 0 when the node is idle and takes jobs, 77 when the packages
#     are missing or cannot run here (not root, no munge...; the reason is
#     on stderr), 1 otherwise.
#   After it, SLURM_CONF is exported and sbatch/squeue/scontrol reach it.
#
# slurm.conf: the controller and slurmd on this host (127.0.0.1), one
# partition of this one node, processes tracked by /proc (no cgroups), no
# task plugin and no accounting, so that it runs in a container.

SLURM_CLUSTER_PIDS=()
SLURM_CLUSTER_DIR=""

slurm_cluster_log() { echo "slurm-cluster: $*" >&2; }

slurm_cluster_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits up to $2 tenths of a second for command $1 to succeed.
slurm_cluster_wait() {
  local i
  for ((i = 0; i < $2; i++)); do
    eval "$1" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

slurm_cluster_dump_logs() {
  local f
  for f in "$SLURM_CLUSTER_DIR"/log/*.log; do
    [ -f "$f" ] || continue
    echo "---- $f (last 30 lines)" >&2
    tail -n 30 "$f" >&2
  done
}

slurm_cluster_start() {
  local dir="$1" max_array="${2:-1001}"
  local p
  for p in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo python3; do
    command -v "$p" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin" command -v "$p" >/dev/null 2>&1 || {
      slurm_cluster_log "'$p' not found: install slurm-wlm and munge (scripts/deps.sh lists them)"
      return 77
    }
  done
  PATH="$PATH:/usr/sbin"
  # slurmd starts each job as its owner, which takes root.
  if [ "$(id -u)" -ne 0 ]; then
    slurm_cluster_log "slurmd must run as root to start jobs; this test runs as $(id -un)"
    return 77
  fi
  # slurmd 22.05 (Debian 12) loads its cgroup plugin at start whatever
  # ProctrackType says, and stops when no cgroup filesystem is mounted (a
  # chroot or container without /sys/fs/cgroup; every booted Debian has one).
  if ! grep -qE '^[^ ]+ /sys/fs/cgroup[^ ]* cgroup2? ' /proc/self/mounts; then
    slurm_cluster_log "no cgroup filesystem is mounted on /sys/fs/cgroup, and slurmd $(slurmd -V 2>/dev/null | cut -d' ' -f2) will not start without one"
    return 77
  fi
  SLURM_CLUSTER_DIR="$dir"
  mkdir -p "$dir"/{munge,state,spool,log,run}
  chmod 700 "$dir" "$dir"/munge

  local user
  user="$(id -un)"
  # munge: its own key and socket; slurm reaches it through AuthInfo.
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 || {
    slurm_cluster_log "mungekey could not create a key"
    return 77
  }
  chmod 600 "$dir/munge/munge.key"
  # --force: munged refuses to run as root without it.
  munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" </dev/null 2>"$dir/log/munged.err" || {
    slurm_cluster_log "munged does not start here: $(cat "$dir/log/munged.err")"
    return 77
  }
  slurm_cluster_wait "[ -s '$dir/run/munged.pid' ]" 50 || { slurm_cluster_log "munged wrote no pid file"; return 1; }
  SLURM_CLUSTER_PIDS+=("$(cat "$dir/run/munged.pid")")

  local host ctld_port slurmd_port cpus cluster
  host="$(hostname -s)"
  ctld_port="$(slurm_cluster_free_port)"
  slurmd_port="$(slurm_cluster_free_port)"
  while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port="$(slurm_cluster_free_port)"; done
  cpus="$(nproc)"
  # Unique per start: the controller keys its state by cluster name.
  cluster="ss$(printf '%s' "$dir$$$RANDOM" | cksum | cut -c1-8)"
  cat >"$dir/slurm.conf" <<CONF
ClusterName=$cluster
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
MaxArraySize=$max_array
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"

  slurmctld -i -f "$SLURM_CONF" </dev/null 2>"$dir/log/slurmctld.err" || {
    slurm_cluster_log "slurmctld does not start: $(cat "$dir/log/slurmctld.err")"
    slurm_cluster_dump_logs
    return 1
  }
  slurm_cluster_wait "[ -s '$dir/run/slurmctld.pid' ]" 100 || { slurm_cluster_log "slurmctld wrote no pid file"; slurm_cluster_dump_logs; return 1; }
  SLURM_CLUSTER_PIDS+=("$(cat "$dir/run/slurmctld.pid")")
  slurmd -f "$SLURM_CONF" -N "$host" </dev/null 2>"$dir/log/slurmd.err" || {
    slurm_cluster_log "slurmd does not start: $(cat "$dir/log/slurmd.err")"
    slurm_cluster_dump_logs
    return 1
  }
  slurm_cluster_wait "[ -s '$dir/run/slurmd.pid' ]" 100 || { slurm_cluster_log "slurmd wrote no pid file"; slurm_cluster_dump_logs; return 1; }
  SLURM_CLUSTER_PIDS+=("$(cat "$dir/run/slurmd.pid")")
  slurm_cluster_wait "sinfo -h -n '$host' -o %t | grep -qx idle" 300 || {
    slurm_cluster_log "the node did not come up idle: $(sinfo -h -o '%n %t' 2>&1)"
    slurm_cluster_dump_logs
    return 1
  }
  slurm_cluster_log "cluster $cluster up in $dir (slurmctld port $ctld_port, slurmd port $slurmd_port)"
  return 0
}

# Every process whose environment names this cluster's slurm.conf: the
# daemons (started with SLURM_CONF exported), the job steps slurmd forks
# (slurmstepd outlives slurmd by design) and the jobs themselves. The caller
# and its subshells are left out: their environment is the one bash was
# started with.
slurm_cluster_processes() {
  local dir="$1" env pid
  for env in /proc/[0-9]*/environ; do
    pid="${env#/proc/}"; pid="${pid%/environ}"
    [ "$pid" = "$$" ] && continue
    { tr '\0' '\n' <"$env"; } 2>/dev/null | grep -qxF "SLURM_CONF=$dir/slurm.conf" && echo "$pid"
  done
}

slurm_cluster_stop() {
  [ -n "$SLURM_CLUSTER_DIR" ] || return 0
  local pid i left
  # Jobs first, while the controller can still cancel them.
  if [ ${#SLURM_CLUSTER_PIDS[@]} -ge 2 ]; then
    scancel --quiet --full -u "$(id -un)" >/dev/null 2>&1
  fi
  # Newest first: slurmd, slurmctld, munged.
  for ((i = ${#SLURM_CLUSTER_PIDS[@]} - 1; i >= 0; i--)); do
    pid="${SLURM_CLUSTER_PIDS[$i]}"
    kill -TERM "$pid" 2>/dev/null || continue
    slurm_cluster_wait "! kill -0 $pid" 50 || kill -KILL "$pid" 2>/dev/null
  done
  # A daemon that forked but whose pid file we never read, and what is left
  # of jobs and steps.
  for f in "$SLURM_CLUSTER_DIR"/run/*.pid; do
    [ -s "$f" ] || continue
    pid="$(cat "$f")"
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  done
  left="$(slurm_cluster_processes "$SLURM_CLUSTER_DIR")"
  [ -n "$left" ] && kill -KILL $left 2>/dev/null
  SLURM_CLUSTER_PIDS=()
  SLURM_CLUSTER_DIR=""
  return 0
}

# Should the caller be killed outright (a ctest timeout sends SIGKILL, which
# no trap sees), a detached watcher stops the cluster when the caller's pid
# is gone. Call after slurm_cluster_start.
slurm_cluster_watchdog() {
  local owner="$$" dir="$SLURM_CLUSTER_DIR"
  local pids="${SLURM_CLUSTER_PIDS[*]}"
  env -u SLURM_CONF setsid bash -c '
    owner=$1; dir=$2; shift 2
    while kill -0 "$owner" 2>/dev/null && [ -d "$dir" ]; do sleep 1; done
    # Gone with the folder: the caller stopped the cluster itself.
    [ -d "$dir" ] || exit 0
    kill -TERM "$@" 2>/dev/null; sleep 2; kill -KILL "$@" 2>/dev/null
    for env in /proc/[0-9]*/environ; do
      pid=${env#/proc/}; pid=${pid%/environ}
      { tr "\0" "\n" <"$env"; } 2>/dev/null | grep -qxF "SLURM_CONF=$dir/slurm.conf" && kill -KILL "$pid" 2>/dev/null
    done
    rm -rf "$dir"
  ' slurm-cluster-watchdog "$owner" "$dir" $pids </dev/null >/dev/null 2>&1 &
}
