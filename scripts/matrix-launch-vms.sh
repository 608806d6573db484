#!/usr/bin/env bash
# Side by side in the same three Soft-RoCE VMs (one boot): the all-pairs matrix with a launch per end and tool
# (--launch per-test) and with one worker JVM per host (--launch worker), alternately, REPEAT times each; prints
# each run's wall time (the driver's own JVM start included, the same in both). The run is MatrixAcrossVmsRdmaTest's
# (ib_write_bw -s 4096 -n 100 --warmup 0 over ssh, C1-only JVMs on the hosts). Needs `mvn -q package -DskipTests`.
#
# usage: scripts/matrix-launch-vms.sh [--repeat N] [--timeout SEC]   (defaults: 1, 1500 s in all, boots included)
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

repeat=1
timeout_s=1500
while [[ $# -gt 0 ]]; do
	case "$1" in
	--repeat) repeat="${2:?--repeat needs a count}"; shift 2 ;;
	--timeout) timeout_s="${2:?--timeout needs seconds}"; shift 2 ;;
	*) die "usage: scripts/matrix-launch-vms.sh [--repeat N] [--timeout SEC]" ;;
	esac
done
cd "$ROOT"
[[ -n "$(ls perftest-java/target/perftest-java-*.jar 2>/dev/null)" ]] || die "not built yet: run mvn -q package -DskipTests"
tool="$ROOT/perftest-java/target/matrix-launch-vm/rdma-perftest"
mkdir -p "$(dirname "$tool")"
printf '#!/bin/sh\nJDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 exec %s "$@"\n' "$ROOT/bin/rdma-perftest" >"$tool"
chmod +x "$tool"
# The guests run this; the hosts are rxe-host1..3 (rxe-vms.sh), the driver on rxe-host1.
inner="$(cat <<INNER
set -u
for i in \$(seq $repeat); do
  for launch in per-test worker; do
    start=\$(date +%s.%N)
    "$tool" matrix --hosts rxe-host1,rxe-host2,rxe-host3 --device rxe0 --tools ib_write_bw --tool-path "$tool" \
      --bw-percent-of-best 0 --lat-factor 0 --no-retest --listen-timeout 300 --test-timeout 300 \
      --launch \$launch -- -s 4096 -n 100 --warmup 0 >/tmp/matrix-\$launch-\$i.out 2>&1
    rc=\$?
    end=\$(date +%s.%N)
    tail -1 /tmp/matrix-\$launch-\$i.out
    echo "matrix-launch: run \$i --launch \$launch: exit \$rc, \$(echo "\$end - \$start" | bc) s"
  done
done
INNER
)"
exec "$SCRIPT_DIR/rxe-vms.sh" --vms 3 --timeout "$timeout_s" -- sh -c "$inner"
