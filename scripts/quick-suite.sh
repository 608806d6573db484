#!/usr/bin/env bash
# Runs on a host with an RDMA device (see rdma-env.sh): device report, then three perftest-java tools in
# loopback (server and client on the same device), as perftest prints them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=common.sh
source "$ROOT/scripts/common.sh"
PT="$ROOT/bin/rdma-perftest"
dev="${RDMA_DEVICE:?RDMA_DEVICE not set (run through scripts/rdma-env.sh)}"
ip="${RDMA_IP:?RDMA_IP not set}"
gid="${RDMA_GID_INDEX:-1}"

"$PT" devices -d "$dev"


status=0
port=18515
for run in "ib_write_bw -s 65536 -n 2000" "ib_send_lat -s 2 -n 1000" "ib_read_lat -s 2 -n 1000"; do
	port=$((port + 1))
	read -r tool args <<< "$run"
	echo
	echo "==== $tool $args (loopback on $dev, GID index $gid) ===="
	# shellcheck disable=SC2086
	"$PT" "$tool" -d "$dev" -x "$gid" -p "$port" $args > "/tmp/quick-suite-server.$$" 2>&1 &
	server=$!
	wait_tcp_listening "$port" 1800
	# shellcheck disable=SC2086
	"$PT" "$tool" -d "$dev" -x "$gid" -p "$port" $args "$ip" || status=1
	wait "$server" || status=1
	rm -f "/tmp/quick-suite-server.$$"
done
exit "$status"
