#!/usr/bin/env bash
# The interoperability suites at full size on Soft-RoCE (natively or in the VM; CI runs their short forms in
# scripts/test.sh): InteropRdmaTest with every case both ways (Java client against a C server and C client
# against a Java server) and every duration case (each BW tool at 2 B, 4 KiB and 64 KiB, default cq_mod and
# -Q 1, -q 2), QuietWindowRdmaTest for every tool at default flags, BufferFlagsRdmaTest (--use_hugepages,
# --mmap against C both ways), RunInfinitelyRdmaTest with every case (against C both ways, C with -F), and
# CudaInteropRdmaTest with every --use_cuda case (stand-in libcuda). About 45 minutes in the emulated VM.
#
# usage: scripts/interop-full.sh
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

find_jdk25
ensure_packages "${BUILD_PACKAGES[@]}" "${RDMA_PACKAGES[@]}"
cd "$ROOT"
MVN=(mvn -B -ntp)
"${MVN[@]}" -q install -DskipTests || die "the build failed"
"$SCRIPT_DIR/rdma-env.sh" --timeout 5400 -- "${MVN[@]}" -o surefire:test -pl perftest-java -Dinterop.full=true \
	-Drdma.groups=rdma -Drdma.excludedGroups= -Dtest='InteropRdmaTest,QuietWindowRdmaTest,CudaInteropRdmaTest,CountersAndClassRdmaTest,BufferFlagsRdmaTest,RunInfinitelyRdmaTest,ConnectionSetupFlagsRdmaTest,ThreadsRdmaTest'
