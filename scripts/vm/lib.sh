# The VM library, sourced after common.sh by every entry point that boots Soft-RoCE guests (rxe-vm.sh: one,
# rxe-vms.sh: two or three). Each guest is a throwaway qemu TCG machine that boots Debian's kernel and mounts
# this machine's root read-only over virtio-9p, plus writable shares at their own paths (the working directory,
# ~/.m2, --share DIRs). Guest 1 runs the command; its output streams here and its exit status is carried out
# through its results share. The guests of one run are joined by one Ethernet segment that exists only inside
# this run: a hub in guest 1's qemu with one port per other guest, each port a datagram link over unix sockets
# in the run's private directory (no TCP/UDP port, no host address, no multicast, no NIC with a way out).
#
# Use: vm_setup NAME; vm_boot K N MODE MEM_MB SMP [COMMAND...] for K = N..1; vm_await TIMEOUT (returns the
# command's exit status, 124 on timeout, 125 when guest 1 reported none). Everything is torn down on exit.

VM_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VM_NAME=rxe-vm
VM_RUN=""
# $SECONDS when guest 1 was started (vm_boot), for the boot time vm_await reports.
VM_BOOT_START=0
VM_PIDS=()
VM_TAIL_PID=""

vm_cleanup() {
	local pid
	for pid in "${VM_PIDS[@]}" $VM_TAIL_PID; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${VM_PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	VM_PIDS=()
	[[ -n "$VM_RUN" ]] && rm -rf "$VM_RUN"
	return 0
}

# Checks the packages, finds the kernel, builds (or reuses) the initramfs and makes the run's private directory.
# $1: the name messages start with; the rest: packages needed beyond the VM's own.
vm_setup() {
	VM_NAME="$1"
	shift
	require_vm_packages
	[[ $# -gt 0 ]] && ensure_packages "$@"
	VM_KVER="$(newest_kernel_version)" || die "no Debian kernel in /boot: install linux-image-amd64"
	VM_KERNEL="/boot/vmlinuz-$VM_KVER"
	[[ -r "$VM_KERNEL" ]] || die "cannot read $VM_KERNEL (run as root, or make it readable)"
	local cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/rdma-ffm/vm/$VM_KVER"
	VM_INITRD="$cache_dir/initramfs.cpio.gz"
	if [[ ! -s "$VM_INITRD" || "$VM_INITRD" -ot "$VM_LIB_DIR/initramfs-init" ]]; then
		build_initramfs "$VM_KVER" "$cache_dir" "$VM_LIB_DIR/initramfs-init"
	fi
	# mktemp -d makes the directory 0700: the sockets and the guests' public keys stay this user's.
	VM_RUN="$(mktemp -d "${TMPDIR:-/tmp}/$VM_NAME.XXXXXX")"
	mkdir -p "$VM_RUN/net"
	trap vm_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# The writable shares, each mounted at its own path in every guest: the working directory, ~/.m2 (so Maven runs
# offline in the guest) and the given directories. Java takes user.home from the password database, not from
# $HOME, so where the two differ both .m2 folders are shared: Maven in the guest uses the one it uses here.
vm_shares() {
	local home_pw
	VM_SHARES=("$(pwd)")
	[[ -d "$HOME/.m2" ]] && VM_SHARES+=("$HOME/.m2")
	home_pw="$(getent passwd "$(id -u)" | cut -d: -f6)"
	if [[ -n "$home_pw" && -d "$home_pw/.m2" && "$(cd "$home_pw/.m2" && pwd -P)" != "$(cd "$HOME/.m2" 2>/dev/null && pwd -P)" ]]; then
		VM_SHARES+=("$home_pw/.m2")
	fi
	VM_SHARES+=("$@")
}

# Writes the /etc/hosts the guests of an N-guest run bind-mount over their read-only one.
vm_write_hosts() {
	local n="$1" k
	{
		echo "127.0.0.1 localhost"
		echo "::1 localhost ip6-localhost ip6-loopback"
		for ((k = 1; k <= n; k++)); do
			echo "10.77.0.$k rxe-host$k"
			echo "fd77::$k rxe-host${k}6"
		done
	} > "$VM_RUN/net/hosts"
}

# qemu arguments for guest K's place on the segment of an N-guest run (appended to the array vm_qemu_args).
_vm_segment_args() {
	local k="$1" n="$2" j net="$VM_RUN/net"
	local mac
	mac="$(printf '52:54:00:77:00:%02x' "$k")"
	if ((k == 1)); then
		vm_qemu_args+=(-netdev "hubport,id=nic,hubid=0")
		for ((j = 2; j <= n; j++)); do
			vm_qemu_args+=(
				-netdev "dgram,id=link$j,local.type=unix,local.path=$net/hub-$j.sock,remote.type=unix,remote.path=$net/guest-$j.sock"
				-netdev "hubport,id=port$j,hubid=0,netdev=link$j"
			)
		done
	else
		vm_qemu_args+=(-netdev "dgram,id=nic,local.type=unix,local.path=$net/guest-$k.sock,remote.type=unix,remote.path=$net/hub-$k.sock")
	fi
	vm_qemu_args+=(-device "virtio-net-pci,netdev=nic,mac=$mac")
}

# Boots guest K of N. MODE: single (rxe0 on veth0, alone) or multi (rxe0 on the segment, sshd). Guest 1 runs
# the command given after SMP; the others serve (sshd) until the run ends.
vm_boot() {
	local k="$1" n="$2" mode="$3" mem_mb="$4" smp="$5"
	shift 5
	local dir="$VM_RUN/vm$k" out="$VM_RUN/vm$k/out" i s
	mkdir -p "$out"
	if ((k == 1)); then VM_BOOT_START=$SECONDS; fi
	# loglevel=4: the console keeps the kernel's errors (OOM kills, hung tasks, RCU stalls), which say why a guest
	# went silent, and nothing chattier.
	vm_qemu_args=(
		-machine q35 -accel "tcg,thread=${RXE_VM_TCG_THREAD:-single}" -smp "$smp" -m "$mem_mb"
		-display none -monitor none -no-reboot -nic none
		-serial "file:$dir/console.log"
		-kernel "$VM_KERNEL" -initrd "$VM_INITRD"
		-append "console=ttyS0 quiet loglevel=4 panic=-1 ${RXE_VM_KERNEL_ARGS:-}"
		-fsdev "local,id=rootfs,path=/,security_model=none,readonly=on,multidevs=remap"
		-device "virtio-9p-pci,fsdev=rootfs,mount_tag=hostroot"
		-fsdev "local,id=outfs,path=$out,security_model=none,multidevs=remap"
		-device "virtio-9p-pci,fsdev=outfs,mount_tag=rdmaffm_out"
	)
	# A TCG plugin with its arguments (lab/run.sh insns counts instructions with one).
	[[ -n "${RXE_VM_PLUGIN:-}" ]] && vm_qemu_args+=(-plugin "$RXE_VM_PLUGIN")
	# Named threads ("CPU 1/TCG"), so that _vm_pin_vcpus can find each vCPU's.
	[[ -n "${RXE_VM_PIN_VCPUS:-}" ]] && vm_qemu_args+=(-name "rdmaffm-vm$k,debug-threads=on")
	local guest_shares=()
	i=0
	for s in "${VM_SHARES[@]}"; do
		vm_qemu_args+=(-fsdev "local,id=share$i,path=$s,security_model=none,multidevs=remap"
			-device "virtio-9p-pci,fsdev=share$i,mount_tag=share$i")
		guest_shares+=("share$i:$s")
		i=$((i + 1))
	done
	if [[ "$mode" == multi ]]; then
		vm_qemu_args+=(-fsdev "local,id=netfs,path=$VM_RUN/net,security_model=none,multidevs=remap"
			-device "virtio-9p-pci,fsdev=netfs,mount_tag=rdmaffm_net")
		guest_shares+=("rdmaffm_net:/run/rdmaffm-net")
		_vm_segment_args "$k" "$n"
	fi
	{
		echo "GUEST_MODE=$mode GUEST_INDEX=$k GUEST_COUNT=$n"
		echo "GUEST_CWD=$(printf %q "$(pwd)")"
		echo "GUEST_JAVA_HOME=$(printf %q "${JAVA_HOME:-$JDK25}")"
		echo "GUEST_PATH=$(printf %q "$PATH")"
		echo "GUEST_HOME=$(printf %q "$HOME")"
		echo "GUEST_CI=$(printf %q "${CI:-}")"
		echo "GUEST_SHARES=("
		for s in "${guest_shares[@]}"; do
			echo "  $(printf %q "$s")"
		done
		echo ")"
	} > "$out/guest.env"
	if [[ $# -gt 0 ]]; then
		printf '%q ' "$@" > "$out/command"
		echo >> "$out/command"
	fi
	cp "$VM_LIB_DIR/guest-init.sh" "$VM_LIB_DIR/guest-multihost.sh" "$out/"
	: > "$out/output.log"
	# qemu's stdin must not be the (possibly closed) caller's stdin.
	qemu-system-x86_64 "${vm_qemu_args[@]}" < /dev/null > "$dir/qemu.log" 2>&1 &
	VM_PIDS[k]=$!
	[[ -n "${RXE_VM_PIN_VCPUS:-}" ]] && _vm_pin_vcpus "${VM_PIDS[k]}" "$RXE_VM_PIN_VCPUS" &
	return 0
}

# Pins qemu PID's vCPU threads: vCPU i to the i-th host CPU of the list CPUS (RXE_VM_PIN_VCPUS="0 1"). With
# multi-threaded TCG the host scheduler otherwise moves the two busy vCPU threads and qemu's main loop between
# host CPUs as it likes, and a benchmark's client then runs at whichever host CPU's speed it lands on
# (docs/benchmarks.md, "read_bw with the vCPU threads pinned"). Waits up to 30 s for the threads to exist; says what it
# did on stderr.
_vm_pin_vcpus() {
	local pid="$1" cpus i t name pinned=0 tries
	read -r -a cpus <<< "$2"
	for ((tries = 0; tries < 300 && pinned < ${#cpus[@]}; tries++)); do
		sleep 0.1
		pinned=0
		for t in /proc/"$pid"/task/*; do
			name="$(cat "$t/comm" 2> /dev/null)" || continue
			[[ $name =~ ^CPU\ ([0-9]+)/TCG$ ]] || continue
			i="${BASH_REMATCH[1]}"
			((i < ${#cpus[@]})) && taskset -pc "${cpus[i]}" "${t##*/}" > /dev/null 2>&1 && pinned=$((pinned + 1))
		done
	done
	if ((pinned < ${#cpus[@]})); then
		echo "$VM_NAME: pinned $pinned of ${#cpus[@]} vCPU threads (RXE_VM_PIN_VCPUS=$2)" >&2
	else
		echo "$VM_NAME: vCPU threads pinned to host CPUs $2" >&2
	fi
}

# Prints the last LINES lines of every guest's console (and, in a multi-guest run, its setup log).
vm_print_consoles() {
	local lines="$1" d k
	for d in "$VM_RUN"/vm*; do
		k="${d##*/vm}"
		if [[ ${#VM_PIDS[@]} -gt 1 ]]; then
			echo "$VM_NAME: guest $k, last console lines:" >&2
		else
			echo "$VM_NAME: last console lines:" >&2
		fi
		tail -n "$lines" "$d/console.log" >&2 2>/dev/null || true
		if [[ -s "$d/out/monitor.log" ]]; then
			echo "$VM_NAME: guest $k, its last state (every 20 s):" >&2
			tail -n 6 "$d/out/monitor.log" >&2
		fi
		if ((k > 1)); then
			echo "$VM_NAME: guest $k, its setup log:" >&2
			tail -n "$lines" "$d/out/output.log" >&2 2>/dev/null || true
		fi
	done
}

# Streams guest 1's output until it powers off or TIMEOUT seconds pass; returns the command's exit status.
vm_await() {
	local timeout_s="$1" first="${VM_PIDS[1]}" status
	tail -n +1 -f --pid="$first" "$VM_RUN/vm1/out/output.log" &
	VM_TAIL_PID=$!
	local deadline=$((SECONDS + timeout_s)) k booted=0
	while kill -0 "$first" 2>/dev/null; do
		# One line when guest 1 is up and starts the command: a TCG boot takes a minute or more, silently.
		if ((!booted)) && [[ -e "$VM_RUN/vm1/out/booted" ]]; then
			booted=1
			echo "$VM_NAME: guest up, running the command ($((SECONDS - VM_BOOT_START)) s after the boot began)" >&2
		fi
		for k in "${!VM_PIDS[@]}"; do
			if ((k > 1)) && ! kill -0 "${VM_PIDS[k]}" 2>/dev/null; then
				# Another guest's qemu ended while guest 1 still runs: it crashed or could not start.
				kill "$first" 2>/dev/null || true
				wait "$first" 2>/dev/null || true
				wait "$VM_TAIL_PID" 2>/dev/null || true
				echo "$VM_NAME: guest $k ended before guest 1; qemu said:" >&2
				tail -n 10 "$VM_RUN/vm$k/qemu.log" >&2 || true
				vm_print_consoles 30
				return 125
			fi
		done
		if ((SECONDS >= deadline)); then
			kill "$first" 2>/dev/null || true
			wait "$first" 2>/dev/null || true
			wait "$VM_TAIL_PID" 2>/dev/null || true
			echo "$VM_NAME: the guest did not finish within ${timeout_s}s" >&2
			vm_print_consoles 30
			return 124
		fi
		sleep 1
	done
	wait "$first" 2>/dev/null || true
	wait "$VM_TAIL_PID" 2>/dev/null || true
	if [[ ! -s "$VM_RUN/vm1/out/exit-status" ]]; then
		echo "$VM_NAME: the guest ended without reporting an exit status; qemu said:" >&2
		tail -n 10 "$VM_RUN/vm1/qemu.log" >&2 || true
		vm_print_consoles 40
		return 125
	fi
	status="$(cat "$VM_RUN/vm1/out/exit-status")"
	if [[ "$status" != 0 && ${#VM_PIDS[@]} -gt 1 ]]; then
		vm_print_consoles 15
	fi
	return "$status"
}
