#!/usr/bin/env bash
# lab: perf samples of the client's CPU in the measured loop, C against Java
# Profile (not a test): where the client's CPU goes during the measured loop of a latency tool, Debian's C
# perftest against perftest-java, alternately in one Soft-RoCE boot (or on this host's RDMA device). Each client
# runs -s 2 -n 300000 against a C server, server on CPU 0, client on CPU 1; once the client has printed its
# header, perf samples CPU 1 (cpu-clock, 5 kHz) for 3 s, inside the loop. Prints, per run, the row and the share
# of samples by process and library, the top symbols, and the Java client's compiled code by method (the JVM
# writes a perf map at exit). CPU 1 is busy throughout, so a share times the average latency is the time per
# operation. Under the emulated CPU only the comparison means something.
#
# usage (as root): [PROFILE_TOOL=ib_read_lat] [PROFILE_ROUNDS=2] lab/run.sh profile
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$LAB/.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
bench_build linux-perf
mkdir -p "$ROOT/target/profile"
# As the side-by-side experiment: multi-threaded TCG, the TSC as the guest's clock, pinned vCPUs.
bench_vm_settings
exec "$ROOT/scripts/rdma-env.sh" --timeout 3600 -- bash "$LAB/guest/profile-run.sh" \
	"${PROFILE_TOOL:-ib_read_lat}" "${PROFILE_ROUNDS:-2}" "$ROOT/target/profile"
