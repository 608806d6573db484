#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs a quick suite on the first RDMA device
# (Soft-RoCE in a throwaway VM when this kernel has no RDMA): the device report, then ib_write_bw,
# ib_send_lat and ib_read_lat in loopback, each run by Debian's C perftest and by perftest-java on the same
# device, one after the other, printed side by side, and a summary of Java/C per figure. Needs root for
# apt-get and rxe. One line per set-up step; the package manager's and Maven's output go to
# target/demo/setup.log. Colour only when stdout is a terminal (and NO_COLOR is not set).
#
# usage (as root): scripts/demo.sh
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

mkdir -p "$ROOT/target/demo"
export SETUP_LOG="$ROOT/target/demo/setup.log"
: > "$SETUP_LOG"
echo "demo: set-up output goes to $SETUP_LOG" >&2
find_jdk25
ensure_packages "${BUILD_PACKAGES[@]}" "${RDMA_PACKAGES[@]}"
cd "$ROOT"
setup_step "building (mvn package, a few minutes the first time)" mvn -B -ntp -q package -DskipTests \
	|| die "the build failed (full log: $SETUP_LOG)"
# In the VM, placed as the side-by-side benchmark places them: one emulated CPU per process (server on 0,
# client on 1) under multi-threaded TCG, and the TSC as the clock. With one emulation thread both processes
# share one host CPU and a send_lat round trip costs two scheduler slices (milliseconds), C's as much as ours.
bench_vm_settings
# The suite's stdout is this script's, but in the VM it is written to a file first: decide colour here.
colour=0
colour_ok && colour=1
exec "$SCRIPT_DIR/rdma-env.sh" --timeout 1200 -- env DEMO_COLOUR="$colour" bash "$SCRIPT_DIR/quick-suite.sh"
