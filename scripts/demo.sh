#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs a quick suite on the first RDMA device
# (Soft-RoCE in a throwaway VM when this kernel has no RDMA): the device report, then ib_write_bw,
# ib_send_lat and ib_read_lat in loopback, each run by Debian's C perftest and by perftest-java on the same
# device, one after the other, and printed side by side. Needs root for apt-get and rxe.
#
# usage: sudo scripts/demo.sh
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

find_jdk25
ensure_packages "${BUILD_PACKAGES[@]}" "${RDMA_PACKAGES[@]}"
cd "$ROOT"
echo "demo: building (mvn package)" >&2
mvn -B -ntp -q package -DskipTests
# In the VM, placed as the side-by-side benchmark places them: one emulated CPU per process (server on 0,
# client on 1) under multi-threaded TCG, and the TSC as the clock. With one emulation thread both processes
# share one host CPU and a send_lat round trip costs two scheduler slices (milliseconds), C's as much as ours.
bench_vm_settings
exec "$SCRIPT_DIR/rdma-env.sh" --timeout 1200 -- bash "$SCRIPT_DIR/quick-suite.sh"
