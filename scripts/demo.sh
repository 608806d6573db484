#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs a quick suite on the first RDMA device
# (Soft-RoCE in a throwaway VM when this kernel has no RDMA): the device report, then ib_write_bw,
# ib_send_lat and ib_read_lat in loopback, printing perftest's tables. Needs root for apt-get and rxe.
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
exec "$SCRIPT_DIR/rdma-env.sh" --timeout 900 -- bash "$SCRIPT_DIR/quick-suite.sh"
