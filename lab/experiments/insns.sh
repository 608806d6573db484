#!/usr/bin/env bash
# lab: guest instructions per operation, counted by a QEMU plugin, C against Java
# Counts (not a test): the guest instructions a latency tool's client executes per operation in its measured
# loop, Debian's C perftest against perftest-java, in the Soft-RoCE VM, where the emulator can count them. A QEMU
# plugin (lab/probes/insncount.c) counts what CPU 1 (the client's) executes between two marker programs run
# 2 s and 6 s after the client's header, split into user and kernel instructions, with the user ones by library
# and, for Java, by compiled method and tier (the JVM's code list). Unlike a time, the count does not depend on
# the emulator's speed: it says how much work each implementation's code does per operation. The counting makes
# the VM several times slower, so the latencies printed beside it are not comparable with the side-by-side experiment's.
# The report also names the threads that used the client's CPU in the window and the exported library functions
# the instructions ran in, and writes target/insns/disas-RUN.txt: every user block that ran at least every other
# operation, disassembled, under its compiled method, stub or library, with how often it ran per operation.
# And, by the host CPU the client's vCPU thread was on, its quarter seconds' operations and instructions per
# second: the same work runs at the speed of whichever host CPU it gets, which on a shared host drifts.
#
# INSNS_IMPLS (default "C Java") may add JavaAlt, a Java client with the JVM options INSNS_JAVA_ALT_OPTS as well.
#
# usage (as root): [INSNS_TOOL=ib_read_lat] [INSNS_ROUNDS=1] [INSNS_IMPLS=...] [INSNS_JAVA_ALT_OPTS=...] lab/run.sh insns
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$LAB/.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
out="$ROOT/target/insns"
# The guest as the side-by-side experiment boots it (bench_vm_settings); always the VM (the plugin is QEMU's).
bench_vm_prepare "$out" "${VM_PACKAGES[@]}" python3
gcc -O2 -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror -o "$out/libinsncount.so" "$LAB/probes/insncount.c"
gcc -O2 -static -Wall -Wextra -Werror -o "$out/insnmark" "$LAB/probes/insnmark.c"
export RXE_VM_PLUGIN="$out/libinsncount.so,out=$out/counts.txt,cpu=1"
export RDMAFFM_RDMA_MODE=vm
exec "$ROOT/scripts/rdma-env.sh" --timeout 3600 -- bash "$LAB/guest/insns-run.sh" \
	"${INSNS_TOOL:-ib_read_lat}" "${INSNS_ROUNDS:-1}" "$out" "$out/insnmark" "${INSNS_IMPLS:-C Java}" "${INSNS_JAVA_ALT_OPTS:-}"
