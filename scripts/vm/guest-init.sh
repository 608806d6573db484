#!/bin/bash
# Second stage in the guest (PID 1, on the host's read-only root): Soft-RoCE up, then the command.
# GUEST_MODE=single: rxe0 on veth0 (10.77.0.1, GID index 1), alone. GUEST_MODE=multi: guest K of N, rxe0 on
# eth0 (10.77.0.K) on the run's segment, sshd, names rxe-host1..N (guest-multihost.sh); guest 1 runs the
# command once every guest is reachable over ssh, the others serve until the run ends.
OUT=/run/rdmaffm-out
status=1
runs_command=1
finish() {
	if ((runs_command)); then
		echo "$status" > "$OUT/exit-status"
	fi
	sync
	echo o > /proc/sysrq-trigger
	sleep 10
}
trap finish EXIT
log() { echo "guest: $*" >> "$OUT/output.log"; }

# shellcheck disable=SC1091
source "$OUT/guest.env"
export PATH="$GUEST_PATH" HOME="$GUEST_HOME" JAVA_HOME="$GUEST_JAVA_HOME" CI="$GUEST_CI"
[[ -z "$CI" ]] && unset CI
[[ "$GUEST_INDEX" == 1 ]] || runs_command=0

for d in /tmp /var/tmp /root /dev/shm; do
	mount -t tmpfs -o mode=1777 tmpfs "$d" 2>/dev/null
done
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts 2>/dev/null
# What udev would create: bash process substitution needs /dev/fd.
[[ -e /dev/fd ]] || ln -s /proc/self/fd /dev/fd
[[ -e /dev/stdin ]] || ln -s /proc/self/fd/0 /dev/stdin
[[ -e /dev/stdout ]] || ln -s /proc/self/fd/1 /dev/stdout
[[ -e /dev/stderr ]] || ln -s /proc/self/fd/2 /dev/stderr
mkdir -p "$HOME"
for s in "${GUEST_SHARES[@]}"; do
	tag="${s%%:*}"
	path="${s#*:}"
	mkdir -p "$path" 2>/dev/null
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=mmap "$tag" "$path" \
		|| { log "cannot mount share $path"; exit 1; }
done

ip link set lo up
modprobe rdma_rxe || { log "modprobe rdma_rxe failed"; exit 1; }
modprobe rdma_ucm || log "modprobe rdma_ucm failed (rdma_cm tests will fail)"
if [[ "$GUEST_MODE" == multi ]]; then
	# shellcheck source=guest-multihost.sh
	source "$OUT/guest-multihost.sh"
	multihost_monitor &
	multihost_up || exit 1
	if ((!runs_command)); then
		# Serve (sshd) until the host ends the run.
		while :; do sleep 3600; done
	fi
	multihost_await_peers || exit 1
else
	modprobe veth || { log "modprobe veth failed"; exit 1; }
	ip link add veth0 type veth peer name veth1
	ip addr add 10.77.0.1/24 dev veth0
	ip link set veth0 up
	ip link set veth1 up
	rdma link add rxe0 type rxe netdev veth0 || { log "rdma link add rxe0 failed"; exit 1; }
	for _ in $(seq 1 50); do
		gid="$(cat /sys/class/infiniband/rxe0/ports/1/gids/1 2>/dev/null)"
		[[ "$gid" == "0000:0000:0000:0000:0000:ffff:0a4d:0001" ]] && break
		sleep 0.1
	done
	export RDMA_DEVICE=rxe0 RDMA_GID_INDEX=1 RDMA_IP=10.77.0.1 RDMA_NETDEV=veth0 RDMA_IN_VM=1
fi

cd "$GUEST_CWD" || { log "cannot cd to $GUEST_CWD"; exit 1; }
# Under multi-threaded TCG (RXE_VM_TCG_THREAD=multi) JVMs crashed now and then in JIT-compiled code, which
# fits code written by the JIT on one emulated CPU while another runs it. The default is single-threaded
# TCG; either way the command runs on CPU 0, and tests may place a C peer on RDMAFFM_PEER_CPU.
pin=()
if [[ $(nproc) -gt 1 ]] && command -v taskset > /dev/null; then
	pin=(taskset -c 0)
	export RDMAFFM_PEER_CPU=1
fi
# The host prints how long the boot took when this appears (vm_await).
: > "$OUT/booted"
"${pin[@]}" bash "$OUT/command" >> "$OUT/output.log" 2>&1 < /dev/null
status=$?
exit "$status"
