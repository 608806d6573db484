#!/bin/bash
# A real Slurm across the guests of scripts/rxe-vms.sh, for CrossHostSlurmRdmaTest: munged on every guest (one
# key for the run), slurmctld on rxe-host1, slurmd on every guest, partition "test" with every guest in it. Runs
# only inside the guests (never on the machine that boots them): the host's root is read-only there, so the key,
# slurm.conf, state, spool, sockets and logs all live in tmpfs under $DIR, and the daemons run as root.
#
# usage (on rxe-host1, as root): guest-slurm.sh up     start everything; returns once sinfo shows every node idle
#                                guest-slurm.sh down   stop the daemons on every guest
# Afterwards: SLURM_CONF=/run/rdmaffm-slurm/slurm.conf for salloc/srun/sinfo (the same path on every guest).
# (guest-slurm.sh node is what `up` runs on each guest over ssh.)
set -euo pipefail
DIR=/run/rdmaffm-slurm
NET=/run/rdmaffm-net
CONF="$DIR/slurm.conf"
export SLURM_CONF="$CONF"
ME="$(cat /proc/sys/kernel/hostname)"
say() { echo "guest-slurm: $ME: $*" >&2; }
fail() {
	say "$*"
	exit 1
}
[[ -n "${RDMA_HOSTS:-}" && -d "$NET" ]] || fail "not in a guest of scripts/rxe-vms.sh (RDMA_HOSTS unset or no $NET)"
read -ra HOSTS <<< "$RDMA_HOSTS"
for b in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd /usr/bin/salloc; do
	[[ -x "$b" ]] || fail "$b not installed (scripts/rxe-vms.sh installs munge, slurmctld, slurmd, slurm-client)"
done

# munged with every path under $DIR (its defaults are under /etc and /var, read-only here); --force: as root.
start_munged() {
	install -m 0400 "$NET/slurm-munge.key" "$DIR/munge.key"
	/usr/sbin/munged --force --key-file="$DIR/munge.key" --socket="$DIR/munge.socket" \
		--pid-file="$DIR/munged.pid" --log-file="$DIR/munged.log" --seed-file="$DIR/munged.seed" \
		|| fail "munged did not start: $(tail -n 3 "$DIR/munged.log" 2>/dev/null)"
}

# This guest's part: munged, then slurmd (which reads the conf guest 1 left in the run's shared folder).
node() {
	mkdir -p -m 0755 "$DIR" "$DIR/spool" "$DIR/cgroup"
	start_munged
	cp "$NET/slurm.conf" "$CONF"
	cp "$NET/cgroup.conf" "$DIR/cgroup.conf"
	/usr/sbin/slurmd -f "$CONF" || fail "slurmd did not start: $(tail -n 5 "$DIR/slurmd.log" 2>/dev/null)"
}

write_conf() {
	local cpus last="${#HOSTS[@]}"
	cpus="$(nproc --all)"
	cat > "$NET/.slurm.conf" <<-EOF
		ClusterName=rdmaffm
		SlurmctldHost=rxe-host1
		SlurmUser=root
		SlurmdUser=root
		AuthType=auth/munge
		CredType=cred/munge
		AuthInfo=socket=$DIR/munge.socket
		StateSaveLocation=$DIR/ctld
		SlurmdSpoolDir=$DIR/spool
		SlurmctldPidFile=$DIR/slurmctld.pid
		SlurmdPidFile=$DIR/slurmd.pid
		SlurmctldLogFile=$DIR/slurmctld.log
		SlurmdLogFile=$DIR/slurmd.log
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		MpiDefault=none
		ReturnToService=2
		SlurmdTimeout=300
		SlurmctldTimeout=300
		MessageTimeout=60
		NodeName=rxe-host[1-$last] CPUs=$cpus State=UNKNOWN
		PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
	EOF
	# slurmd loads a cgroup plugin whatever the task and proctrack plugins (autodetect fails: the guests mount
	# no cgroup file system). cgroup/v1 with its mount point in tmpfs loads, and mounts nothing.
	cat > "$NET/.cgroup.conf" <<-EOF
		CgroupPlugin=cgroup/v1
		CgroupMountpoint=$DIR/cgroup
		CgroupAutomount=no
	EOF
	mv "$NET/.cgroup.conf" "$NET/cgroup.conf"
	mv "$NET/.slurm.conf" "$NET/slurm.conf"
}

up() {
	[[ "$ME" == rxe-host1 ]] || fail "run 'up' on rxe-host1"
	mkdir -p -m 0755 "$DIR" "$DIR/ctld"
	# The run's shared folder: private to this run (mode 0700 on the host) and removed with it.
	(umask 077 && dd if=/dev/urandom of="$NET/slurm-munge.key" bs=1024 count=1 status=none)
	write_conf
	node
	/usr/sbin/slurmctld -c -f "$CONF" || fail "slurmctld did not start: $(tail -n 5 "$DIR/slurmctld.log" 2>/dev/null)"
	local h
	for h in "${HOSTS[@]:1}"; do
		ssh "$h" "bash $(printf %q "$(readlink -f "$0")") node" < /dev/null || fail "slurm on $h did not start"
	done
	rm -f "$NET/slurm-munge.key"
	local deadline=$((SECONDS + 180)) idle
	while :; do
		idle="$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)"
		[[ "$idle" == "${#HOSTS[@]}" ]] && break
		((SECONDS < deadline)) \
			|| fail "after 180 s sinfo shows $idle of ${#HOSTS[@]} nodes idle: $(sinfo -N 2>&1 | tr '\n' ';')"
		sleep 1
	done
	say "${#HOSTS[@]} nodes idle ($(cut -d' ' -f1 /proc/uptime) s after boot)"
}

stop_here() {
	local f
	for f in slurmd slurmctld munged; do
		[[ -s "$DIR/$f.pid" ]] && kill "$(cat "$DIR/$f.pid")" 2>/dev/null || true
	done
}

down() {
	local h
	for h in "${HOSTS[@]:1}"; do
		ssh "$h" "bash $(printf %q "$(readlink -f "$0")") stop" < /dev/null || true
	done
	stop_here
}

case "${1:-}" in
up) up ;;
down) down ;;
node) node ;;
stop) stop_here ;;
*) fail "usage: guest-slurm.sh up|down" ;;
esac
