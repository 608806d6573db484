#!/usr/bin/env bash
# Soft-RoCE on aarch64 (Grace: GH200/GB200), as far as an x86_64 machine allows: boots an aarch64 qemu system
# VM (TCG, machine virt) with Debian's arm64 kernel and an initramfs of its own, puts rxe0 on the VM's own
# virtio NIC (a qemu hub with no other port: no host networking, nothing leaves the VM) and runs, on aarch64:
#   (a) rdma-core's ibv_rc_pingpong, server and client over rxe0 on the VM's own address;
#   (b) native-shim/src/check/c/rdmaffm_rxe_loop.c, cross-built against the cross-built shim: the wrappers the
#       Java data path calls (post_send/post_recv/poll_cq, the CQ_EX poll, the extended send API) on two RC QPs
#       connected to each other over rxe0, every payload and completion checked.
# No JVM runs in the guest: there is no JDK 25 for arm64 in the registries this project reaches.
# The arm64 packages (kernel, busybox-static, rdma-core's libraries and tools, iproute2's rdma) are fetched with
# apt-get download and unpacked into a cache (${XDG_CACHE_HOME:-~/.cache}/rdma-ffm/aarch64-vm), never installed
# here (an arm64 kernel in /boot could become the one scripts/vm/lib.sh boots for the x86_64 VMs). This machine gets
# qemu-system-arm and the cross toolchain (AARCH64_PACKAGES) with apt-get, as root. A second run reuses the cache.
# Each stage says how long it took. Exit 0 all passed, 1 a check failed or the guest timed out, 2 set-up failed.
#
# usage: scripts/aarch64-rxe.sh [--shim FILE] [--timeout SEC] [--iters N] [--rounds N] [--smp N] [--mem MB] [--cpu MODEL]
#   --shim     the shim to test: a librdmaffm_shim.so, or a verbs-ffm jar whose linux-aarch64 one is taken (CI
#              passes the jar it built); default: cross-built here from native-shim's sources
#   --timeout  the whole guest run, boot included (default 600)
#   --iters    ibv_rc_pingpong iterations (default 1000)
#   --rounds   rdmaffm_rxe_loop ping-pong rounds (default 200)
#   --cpu      qemu's CPU model (default cortex-a57: under TCG, max emulates pointer authentication, slowly)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=common.sh
source "$ROOT/scripts/common.sh"

timeout_s=600
iters=1000
rounds=200
smp=2
mem_mb=1024
cpu=cortex-a57
shim=""
positive() {
	[[ "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 wants a positive whole number, got '$2'"
}
while [[ $# -gt 0 ]]; do
	[[ "$1" == -h || "$1" == --help ]] && { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
	[[ $# -ge 2 ]] || die "$1 needs a value (see --help)"
	case "$1" in
	--shim) [[ -f "$2" ]] || die "--shim: no file '$2'"; shim="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")" ;;
	--timeout) positive "$1" "$2"; timeout_s="$2" ;;
	--iters) positive "$1" "$2"; iters="$2" ;;
	--rounds) positive "$1" "$2"; rounds="$2" ;;
	--smp) positive "$1" "$2"; smp="$2" ;;
	--mem) positive "$1" "$2"; mem_mb="$2" ;;
	--cpu) [[ "$2" =~ ^[a-z0-9-]+$ ]] || die "--cpu wants a qemu CPU model name, got '$2'"; cpu="$2" ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift 2
done

T0=$SECONDS
STAGE_START=$SECONDS
stage_done() {
	echo "aarch64-rxe: $1 ($((SECONDS - STAGE_START)) s)" >&2
	STAGE_START=$SECONDS
}

# ---- packages on this machine: qemu-system-aarch64, the cross compiler and the arm64 libibverbs headers.
ensure_packages "${BUILD_PACKAGES[@]}" qemu-system-arm cpio kmod binutils unzip
ensure_aarch64_packages
stage_done "packages ready"

# ---- the arm64 packages the guest runs, unpacked into the cache (downloaded once per kernel ABI).
kernel_pkg="$(apt-cache depends linux-image-arm64:arm64 2> /dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\)\(:arm64\)\{0,1\}$/\1/p' | head -n 1)"
[[ -n "$kernel_pkg" ]] || die "apt-cache knows no linux-image-arm64:arm64 (is arm64 a dpkg architecture here, and apt-get update done?)"
GUEST_PACKAGES=("$kernel_pkg" busybox-static libc6 libgcc-s1 libibverbs1 ibverbs-providers ibverbs-utils
	libnl-3-200 libnl-route-3-200 iproute2 libmnl0 libbsd0 libmd0 libcap2)
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/rdma-ffm/aarch64-vm/$kernel_pkg"
SYSROOT="$CACHE/root"
wanted="$(printf '%s:arm64\n' "${GUEST_PACKAGES[@]}")"
if [[ ! -f "$CACHE/unpacked" || "$(cat "$CACHE/unpacked")" != "$wanted" ]]; then
	# A new kernel package replaces the cache of the one before (some 300 MB unpacked).
	[[ -d "${CACHE%/*}" ]] && find "${CACHE%/*}" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
	mkdir -p "$CACHE/debs" "$SYSROOT"
	# apt-get download as root warns that _apt cannot write here: harmless, the files are written as root.
	# shellcheck disable=SC2086 # one word per package
	(cd "$CACHE/debs" && setup_step "apt-get download ${#GUEST_PACKAGES[@]} arm64 packages" \
		apt-get download -q $wanted) || die "apt-get download of the arm64 packages failed"
	for deb in "$CACHE"/debs/*.deb; do
		dpkg-deb -x "$deb" "$SYSROOT" || die "cannot unpack $deb"
	done
	rm -rf "$CACHE/debs"
	echo "$wanted" > "$CACHE/unpacked"
fi
KVER="${kernel_pkg#linux-image-}"
KERNEL="$SYSROOT/boot/vmlinuz-$KVER"
MODDIR="$SYSROOT/lib/modules/$KVER"
[[ -r "$KERNEL" && -d "$MODDIR" ]] || die "no kernel $KERNEL or modules $MODDIR in the cache (remove $CACHE and run again)"
stage_done "arm64 packages ready in $CACHE"

# ---- the initramfs's fixed part (busybox, libraries, tools, modules), cached beside the packages.
# Modules in load order: each one's dependencies (modinfo's depends field) before it.
MODULE_ORDER=()
add_module() {
	local m="$1" f dep seen
	for seen in "${MODULE_ORDER[@]}"; do [[ "$seen" == "$m" ]] && return 0; done
	f="$(find "$MODDIR/kernel" -name "$m.ko" -o -name "$m.ko.xz" | head -n 1)"
	if [[ -z "$f" ]]; then
		grep -q "/$m.ko" "$MODDIR/modules.builtin" && return 0
		die "kernel module $m not found in $MODDIR"
	fi
	for dep in $(modinfo -F depends "$f" | tr ',' ' '); do
		add_module "$dep"
	done
	MODULE_ORDER+=("$m")
	case "$f" in
	*.xz) xz -dc "$f" > "$STAGE/modules/$m.ko" ;;
	*) cp "$f" "$STAGE/modules/$m.ko" ;;
	esac
	echo "$m" >> "$STAGE/modules/order"
}
BASE="$CACHE/base.cpio.gz"
if [[ ! -s "$BASE" || "$BASE" -ot "$0" ]]; then
	STAGE="$(mktemp -d "${TMPDIR:-/tmp}/aarch64-initramfs.XXXXXX")"
	trap 'rm -rf "$STAGE"' EXIT
	mkdir -p "$STAGE"/{bin,dev,proc,sys,tmp,modules,etc,lib/aarch64-linux-gnu,usr/bin,usr/lib}
	cp "$SYSROOT/bin/busybox" "$STAGE/bin/busybox"
	cp -a "$SYSROOT/lib/ld-linux-aarch64.so.1" "$STAGE/lib/"
	cp -a "$SYSROOT"/lib/aarch64-linux-gnu/*.so* "$STAGE/lib/aarch64-linux-gnu/"
	# gconv (character set converters) and tc's plug-ins: megabytes nothing here uses.
	cp -a "$SYSROOT/usr/lib/aarch64-linux-gnu" "$STAGE/usr/lib/"
	rm -rf "$STAGE/usr/lib/aarch64-linux-gnu/gconv" "$STAGE/usr/lib/aarch64-linux-gnu/tc"
	cp -a "$SYSROOT/etc/libibverbs.d" "$STAGE/etc/"
	for tool in ibv_devices ibv_devinfo ibv_rc_pingpong rdma; do
		cp "$SYSROOT/usr/bin/$tool" "$STAGE/usr/bin/"
	done
	# Every library a tool or provider needs must be in the image: a missing one is found here, not at boot.
	missing="$(for f in "$STAGE"/usr/bin/* "$STAGE"/usr/lib/aarch64-linux-gnu/libibverbs/*.so; do
		readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
	done | sort -u | while read -r lib; do
		[[ -e "$STAGE/lib/aarch64-linux-gnu/$lib" || -e "$STAGE/usr/lib/aarch64-linux-gnu/$lib" ]] || echo "$lib"
	done)"
	[[ -z "$missing" ]] || die "the guest image lacks $(echo "$missing" | tr '\n' ' ')(add its package to GUEST_PACKAGES)"
	# crc32_generic: rxe asks the crypto API for "crc32" (its ICRC) when the device is added, a request the
	# kernel can only meet by running modprobe, which this image has not; without it "rdma link add" fails.
	for m in virtio_pci virtio_net crc32_generic rdma_rxe; do
		add_module "$m"
	done
	(cd "$STAGE" && find . | cpio -o -H newc --quiet | gzip -1 > "$BASE.tmp")
	mv "$BASE.tmp" "$BASE"
	rm -rf "$STAGE"
	trap - EXIT
	stage_done "initramfs base built ($(du -k "$BASE" | cut -f1) KiB; modules: ${MODULE_ORDER[*]})"
else
	stage_done "initramfs base reused"
fi

# ---- this run: the shim and the loop test cross-built from the working tree, the init, appended to the base
# as a second cpio archive (the kernel unpacks both, in order).
RUN="$(mktemp -d "${TMPDIR:-/tmp}/aarch64-rxe.XXXXXX")"
QEMU_PID=""
TAIL_PID=""
cleanup() {
	[[ -n "$QEMU_PID" ]] && kill "$QEMU_PID" 2> /dev/null && wait "$QEMU_PID" 2> /dev/null
	[[ -n "$TAIL_PID" ]] && kill "$TAIL_PID" 2> /dev/null
	rm -rf "$RUN"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$RUN/overlay/test"
SHIM="$RUN/overlay/test/librdmaffm_shim.so"
case "$shim" in
"")
	make -s -C "$ROOT/native-shim" aarch64-shim AARCH64_OUT="$RUN/overlay/test" > "$RUN/build.log" 2>&1 \
		|| { cat "$RUN/build.log" >&2; die "cross-building the aarch64 shim failed"; }
	shim_from="cross-built from native-shim's sources"
	;;
*.jar)
	unzip -p "$shim" META-INF/native/linux-aarch64/librdmaffm_shim.so > "$SHIM" 2> /dev/null && [[ -s "$SHIM" ]] \
		|| die "$shim carries no META-INF/native/linux-aarch64/librdmaffm_shim.so"
	shim_from="META-INF/native/linux-aarch64 of $shim"
	;;
*)
	cp "$shim" "$SHIM"
	shim_from="$shim"
	;;
esac
readelf -h "$SHIM" 2> /dev/null | grep -q 'Machine:.*AArch64' || die "the shim to test ($shim_from) is not an aarch64 ELF file"
make -s -C "$ROOT/native-shim" aarch64-rxe-loop AARCH64_CHECK="$RUN/overlay/test" LOOP_SHIM_DIR="$RUN/overlay/test" \
	> "$RUN/build.log" 2>&1 || { cat "$RUN/build.log" >&2; die "cross-building rdmaffm_rxe_loop failed"; }
cp "$ROOT/scripts/vm/aarch64-init" "$RUN/overlay/init"
chmod +x "$RUN/overlay/init"
{
	echo "PINGPONG_ITERS=$iters"
	echo "LOOP_ROUNDS=$rounds"
	# Each guest step's own limit, so a hung step still lets the guest report.
	echo "STEP_TIMEOUT=$((timeout_s / 2))"
} > "$RUN/overlay/test/settings"
(cd "$RUN/overlay" && find . | cpio -o -H newc --quiet | gzip -1 > "$RUN/overlay.cpio.gz")
cat "$BASE" "$RUN/overlay.cpio.gz" > "$RUN/initramfs.cpio.gz"
stage_done "rdmaffm_rxe_loop cross-built against the shim $shim_from"

# ---- the guest.
echo "aarch64-rxe: booting $kernel_pkg (qemu-system-aarch64 TCG, virt, $cpu, $smp vCPU, $mem_mb MiB), timeout ${timeout_s}s" >&2
: > "$RUN/console.log"
# The NIC's only peer is a hub with no other port: frames rxe sends to its own MAC it loops back itself, and
# anything else goes nowhere.
qemu-system-aarch64 -machine virt -cpu "$cpu" -accel "tcg,thread=multi" -smp "$smp" -m "$mem_mb" \
	-display none -monitor none -no-reboot -nic none \
	-netdev hubport,id=nic,hubid=0 -device virtio-net-pci,netdev=nic,mac=52:54:00:77:00:01 \
	-serial "file:$RUN/console.log" -kernel "$KERNEL" -initrd "$RUN/initramfs.cpio.gz" \
	-append "console=ttyAMA0 quiet loglevel=4 panic=-1" < /dev/null > "$RUN/qemu.log" 2>&1 &
QEMU_PID=$!
tail -n +1 -f --pid="$QEMU_PID" "$RUN/console.log" &
TAIL_PID=$!
deadline=$((SECONDS + timeout_s))
booted=0
while kill -0 "$QEMU_PID" 2> /dev/null; do
	if ((!booted)) && grep -q '^aarch64-rxe: .* booted' "$RUN/console.log"; then
		booted=1
		stage_done "guest booted to its init"
	fi
	if ((SECONDS >= deadline)); then
		echo "aarch64-rxe: the guest did not finish within ${timeout_s}s" >&2
		exit 1
	fi
	sleep 1
done
wait "$QEMU_PID" 2> /dev/null || true
QEMU_PID=""
wait "$TAIL_PID" 2> /dev/null || true
TAIL_PID=""
status="$(sed -n 's/^aarch64-rxe: exit \([0-9]*\).*/\1/p' "$RUN/console.log" | tail -n 1)"
if [[ -z "$status" ]]; then
	echo "aarch64-rxe: the guest ended without reporting an exit status; qemu said:" >&2
	tail -n 10 "$RUN/qemu.log" >&2
	exit 1
fi
stage_done "guest tests finished"
if [[ "$status" == 0 ]]; then
	echo "aarch64-rxe: passed: ibv_rc_pingpong ($iters iterations) and rdmaffm_rxe_loop ($rounds rounds) on aarch64 over rxe ($((SECONDS - T0)) s in all)"
else
	echo "aarch64-rxe: FAILED (guest exit $status; $((SECONDS - T0)) s in all)" >&2
fi
exit "$status"
