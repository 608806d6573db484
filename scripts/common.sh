# Shared helpers for the scripts in this folder; sourced, not run.

# shellcheck source=jdk25.sh
source "$(dirname "${BASH_SOURCE[0]}")/jdk25.sh"

die() {
	echo "error: $*" >&2
	exit 2
}

# Packages the project needs on Debian/Ubuntu: rdma-core user space, headers for the shim, Debian's C
# perftest (the interop peer), and what the Soft-RoCE VM needs.
RDMA_PACKAGES=(rdma-core ibverbs-providers ibverbs-utils libibverbs-dev librdmacm-dev perftest iproute2)
VM_PACKAGES=(qemu-system-x86 linux-image-amd64 busybox-static)
# The multi-VM harness (rxe-vms.sh): sshd and ssh in every guest, from this machine's root; and a real Slurm
# (munged, slurmctld, slurmd, salloc/srun) that scripts/vm/guest-slurm.sh starts in the guests, never here.
MULTIHOST_PACKAGES=(openssh-server openssh-client munge slurmctld slurmd slurm-client)
BUILD_PACKAGES=(maven gcc make)
# The linux-aarch64 shim (Grace nodes) from an x86_64 build: Debian's cross compiler, the arm64 libibverbs it
# links against and qemu-user, which runs its layout-table dump. The :arm64 packages need the architecture
# added first: ensure_aarch64_packages does both.
AARCH64_PACKAGES=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libibverbs-dev:arm64 librdmacm-dev:arm64)
# The node package (packaging/build-package.sh): man pages from AsciiDoc (dpkg-deb comes with dpkg).
PACKAGING_PACKAGES=(asciidoctor)
# Headless Chromium for the browser test of the HTML report (scripts/report-browser-test.sh).
BROWSER_PACKAGES=(chromium)
# Prometheus' Python client: PrometheusTextTest reads health's exposition back with a real parser.
PROMETHEUS_PACKAGES=(python3-prometheus-client)

missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
	done
}

# Runs one set-up step (apt-get) with its output on stderr, or, with SETUP_LOG=FILE, appended to FILE and
# one line on stderr: what, then done and how long, or failed with the log's last lines.
# usage: setup_step WHAT COMMAND [ARG...]
setup_step() {
	local what="$1" start=$SECONDS rc=0
	shift
	if [[ -z "${SETUP_LOG:-}" ]]; then
		echo "setup: $what" >&2
		"$@" >&2 || rc=$?
		return "$rc"
	fi
	printf 'setup: %s ... ' "$what" >&2
	"$@" >> "$SETUP_LOG" 2>&1 < /dev/null || rc=$?
	if ((rc == 0)); then
		echo "done ($((SECONDS - start)) s)" >&2
	else
		echo "failed (exit $rc); the end of $SETUP_LOG:" >&2
		# Without the escape codes and other control characters a tool may have written to its log.
		tail -n 15 "$SETUP_LOG" | sed $'s/\e\\[[0-9;?]*[A-Za-z]//g; s/^/setup:   /' | tr -d '\000-\010\013-\037' >&2
	fi
	return "$rc"
}

# Installs what is missing, or says exactly what to run when we cannot. Quiet with SETUP_LOG (setup_step).
ensure_packages() {
	local missing
	mapfile -t missing < <(missing_packages "$@")
	[[ ${#missing[@]} -eq 0 ]] && return 0
	if ! command -v apt-get > /dev/null; then
		die "missing packages: ${missing[*]} (this script installs them with apt-get on Debian/Ubuntu; install the equivalents by hand here)"
	fi
	if [[ $(id -u) -ne 0 ]]; then
		die "missing packages: ${missing[*]}; run as root (or with sudo), or first, as root: apt-get update && apt-get install -y ${missing[*]}"
	fi
	# No progress bar or pty for dpkg: in a log or a pipe its cursor movements are raw escape codes.
	local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o Dpkg::Progress-Fancy=false -o Dpkg::Use-Pty=false)
	if [[ ! -f /var/lib/apt/periodic/rdma-ffm-updated ]] || [[ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ]]; then
		setup_step "apt-get update" "${apt[@]}" update -qq || die "apt-get update failed"
		mkdir -p /var/lib/apt/periodic && touch /var/lib/apt/periodic/rdma-ffm-updated
	fi
	# These packages are for the VMs and the tools, never for services on this machine: a policy-rc.d that
	# refuses every start keeps e.g. openssh-server's sshd from being started here by its install scripts.
	local policy=/usr/sbin/policy-rc.d own_policy=0 rc=0
	if [[ ! -e "$policy" ]]; then
		printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 0755 "$policy" && own_policy=1
	fi
	local what="installing ${missing[*]}"
	setup_step "$what" "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" \
		|| { setup_step "apt-get update, then again" "${apt[@]}" update -qq \
			&& setup_step "$what" "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}"; } \
		|| rc=$?
	((own_policy)) && rm -f "$policy"
	((rc == 0)) || die "apt-get install ${missing[*]} failed${SETUP_LOG:+ (full log: $SETUP_LOG)}"
}

# AARCH64_PACKAGES, after adding arm64 to dpkg's architectures (once: a second run changes nothing). Debian only:
# Ubuntu serves arm64 from ports.ubuntu.com, which its amd64 sources do not name, so there the next apt-get
# update would fail for every package, not only these.
ensure_aarch64_packages() {
	if ! dpkg --print-foreign-architectures 2> /dev/null | grep -qx arm64; then
		[[ -r /etc/os-release ]] && grep -qx 'ID=debian' /etc/os-release \
			|| die "the linux-aarch64 shim's packages (${AARCH64_PACKAGES[*]}) need a Debian multiarch set-up here; add arm64 to this system's apt sources by hand"
		[[ $(id -u) -eq 0 ]] \
			|| die "arm64 is not a dpkg architecture here; as root: dpkg --add-architecture arm64 && apt-get update && apt-get install -y ${AARCH64_PACKAGES[*]}"
		setup_step "dpkg --add-architecture arm64" dpkg --add-architecture arm64 || die "dpkg --add-architecture arm64 failed"
		# The package lists on disk have no arm64 index yet: ensure_packages updates them when this mark is gone.
		rm -f /var/lib/apt/periodic/rdma-ffm-updated
	fi
	ensure_packages "${AARCH64_PACKAGES[@]}"
}

# Whether to write colour and other escape codes to stdout: only to a terminal that takes them, never to a
# pipe or a file, and not with NO_COLOR set (no-color.org) or TERM=dumb.
colour_ok() {
	[[ -t 1 && -z "${NO_COLOR:-}" && "${TERM:-dumb}" != dumb ]]
}

require_vm_packages() {
	ensure_packages "${RDMA_PACKAGES[@]}" "${VM_PACKAGES[@]}"
}

# Sets JAVA_HOME to a JDK 25 (JAVA_HOME if it is one, else the Temurin default path).
find_jdk25() {
	local home
	home="$(jdk25_home)" || die "JDK 25 not found: install a JDK 25 (e.g. Temurin 25 at $JDK25_DEFAULT, or Debian/Ubuntu package openjdk-25-jdk) or set JAVA_HOME to one"
	export JAVA_HOME="$home"
	export PATH="$JAVA_HOME/bin:$PATH"
}
JDK25="$JDK25_DEFAULT"

newest_kernel_version() {
	local v
	v="$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|.*/vmlinuz-||' | sort -V | tail -n 1)"
	[[ -n "$v" && -d "/lib/modules/$v" ]] || return 1
	echo "$v"
}

# A busybox initramfs that loads virtio + 9p from the host's module tree and switches to the host's root.
build_initramfs() {
	local kver="$1" dest_dir="$2" init_script="$3"
	local stage m f
	stage="$(mktemp -d "${TMPDIR:-/tmp}/rdmaffm-initramfs.XXXXXX")"
	mkdir -p "$stage"/{bin,dev,proc,sys,newroot,modules}
	cp /bin/busybox "$stage/bin/busybox"
	for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p; do
		f="$(find "/lib/modules/$kver/kernel" -name "$m.ko" -o -name "$m.ko.xz" -o -name "$m.ko.zst" -o -name "$m.ko.gz" | head -n 1)"
		if [[ -z "$f" ]]; then
			# Built into this kernel: nothing to load.
			grep -q "/$m.ko" "/lib/modules/$kver/modules.builtin" 2>/dev/null && continue
			rm -rf "$stage"
			die "kernel module $m not found for $kver"
		fi
		case "$f" in
		*.xz) xz -dc "$f" > "$stage/modules/$m.ko" ;;
		*.zst) zstd -qdc "$f" > "$stage/modules/$m.ko" ;;
		*.gz) gzip -dc "$f" > "$stage/modules/$m.ko" ;;
		*) cp "$f" "$stage/modules/$m.ko" ;;
		esac
		echo "$m" >> "$stage/modules/order"
	done
	cp "$init_script" "$stage/init"
	chmod +x "$stage/init"
	mkdir -p "$dest_dir"
	(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1 > "$dest_dir/initramfs.cpio.gz.tmp")
	mv "$dest_dir/initramfs.cpio.gz.tmp" "$dest_dir/initramfs.cpio.gz"
	rm -rf "$stage"
}

# The build every lab experiment starts with: JDK 25, the build and RDMA packages and any named, then
# `mvn package`. Leaves the shell in the repository's root.
# usage: bench_build [PACKAGE...]
bench_build() {
	find_jdk25
	ensure_packages "${BUILD_PACKAGES[@]}" "${RDMA_PACKAGES[@]}" "$@"
	cd "$(dirname "${BASH_SOURCE[0]}")/.."
	mvn -B -ntp -q package -DskipTests
}

# The start of a lab experiment that boots the Soft-RoCE VM (lab/experiments/stalls.sh, mixed.sh, insns.sh):
# JDK 25, the build and RDMA packages and any named, the build, an empty OUTDIR, and the guest settings of
# bench_vm_settings. Leaves the shell in the repository's root.
# usage: bench_vm_prepare OUTDIR [PACKAGE...]
bench_vm_prepare() {
	local out="$1"
	shift
	bench_build "$@"
	rm -rf "$out"
	mkdir -p "$out"
	bench_vm_settings
}

# How every benchmark (lab/experiments/, and demo.sh) boots the guest; each setting can be overridden from the
# environment (empty turns the last two off).
bench_vm_settings() {
	# Multi-threaded TCG: latency between two processes is about 100x lower than with one emulation thread.
	export RXE_VM_TCG_THREAD="${RXE_VM_TCG_THREAD:-multi}"
	# Under TCG the guest kernel marks the TSC unstable and picks HPET: every clock_gettime (System.nanoTime) is
	# then a system call plus an emulated HPET read, while C perftest reads the TSC itself. tsc=reliable gives
	# both the cheap clock they have on real hosts.
	export RXE_VM_KERNEL_ARGS="${RXE_VM_KERNEL_ARGS-tsc=reliable}"
	# Each vCPU thread on a host CPU of its own, the same for every run of a boot: left to the host scheduler,
	# the client's vCPU ran on either host CPU, at that CPU's speed, and in one boot every Java client landed on
	# the slower one (docs/benchmarks.md, "read_bw with the vCPU threads pinned").
	if (($(nproc) >= 2)); then
		export RXE_VM_PIN_VCPUS="${RXE_VM_PIN_VCPUS-0 1}"
	fi
}

# Waits until something listens on TCP port $1 (IPv4 or IPv6), at most $2 tenths of a second (default 300).
wait_tcp_listening() {
	local port_hex
	port_hex="$(printf ':%04X' "$1")"
	for _ in $(seq 1 "${2:-300}"); do
		if awk -v p="$port_hex" '$2 ~ p"$" && $4 == "0A" {found=1} END {exit !found}' /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	echo "nothing listened on port $1" >&2
	return 1
}

# Waits until an rdma_cm id listens on port $1 (perftest -R opens no TCP socket), as iproute2's
# `rdma res show cm_id` lists it ("... state LISTEN ... src-addr 0.0.0.0:PORT"), at most $2 tenths of a second.
wait_rdma_cm_listening() {
	for _ in $(seq 1 "${2:-300}"); do
		if rdma res show cm_id 2>/dev/null | grep "state LISTEN" | grep -Eq "src-addr [^ ]*:$1( |$)"; then
			return 0
		fi
		sleep 0.1
	done
	echo "no rdma_cm id listened on port $1" >&2
	return 1
}
