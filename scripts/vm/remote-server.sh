#!/usr/bin/env bash
# Starts a server on this host for a peer on another host (the cross-host tests run it over ssh): runs
# COMMAND, prints "remote-server: listening on PORT" once it listens (TCP, or an rdma_cm id for perftest -R),
# then waits for it and exits with its status. COMMAND is ended after TIMEOUT seconds in all.
#
# usage: scripts/vm/remote-server.sh PORT tcp|rdma_cm TIMEOUT -- COMMAND [ARG...]
set -uo pipefail
# shellcheck source=../common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/common.sh"

[[ $# -ge 5 && "$4" == -- ]] || die "usage: remote-server.sh PORT tcp|rdma_cm TIMEOUT -- COMMAND [ARG...]"
port="$1" kind="$2" timeout_s="$3"
shift 4
timeout -k 5 "$timeout_s" "$@" &
server=$!
case "$kind" in
tcp) wait_tcp_listening "$port" 1200 ;;
rdma_cm) wait_rdma_cm_listening "$port" 1200 ;;
*) false ;;
esac || { kill "$server" 2>/dev/null; wait "$server"; echo "remote-server: nothing listened on port $port" >&2; exit 1; }
echo "remote-server: listening on $port"
wait "$server"
