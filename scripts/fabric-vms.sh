#!/usr/bin/env bash
# The full form of fabric's multihost check, in three Soft-RoCE VMs (scripts/rxe-vms.sh --vms 3): every pattern
# of `rdma-perftest fabric` run by the driver on rxe-host1 over real ssh, one after the other: incast (2:1 into
# each host in turn), alltoall, bisection (rxe-host3 idle), allgather, reducescatter, allreduce, and allreduce as a size sweep
# (-b 4K -e 16K -f 2: three sizes, one launch). Each must end within its
# bounds with its table and a verdict: exit 0, or 1 when the only flags are loss (the emulated segment drops
# packets and RC retransmits; --expect none flags that). Then, in the same three VMs, the fault cases of
# scripts/vm/fabric-faults.sh (issue 28 §4): netem loss on one host's link named by the loss-outlier rule, a host
# that never joins, a worker killed mid-collective, an unreachable host; each ends within its timeouts naming the
# host, with nothing left running and every QP count back. CI runs only CrossHostFabricRdmaTest (scripts/test.sh,
# matrix stage: the all-reduce and the never-joins case). Then, in one VM, the worker's own test in its full form (FabricWorkerRdmaTest -Dfabric.full=true:
# the all-reduce's three ranks as three processes; CI runs them on threads). Function, never speed. Needs a build
# first (mvn -B -o install -DskipTests).
#
# usage: scripts/fabric-vms.sh [--timeout SEC]   (default 2400 s in all, boots included)
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

timeout_s=2400
case "${1:-}" in
--timeout) timeout_s="${2:?--timeout needs seconds}"; shift 2 ;;
"") ;;
*) die "usage: scripts/fabric-vms.sh [--timeout SEC]" ;;
esac
find_jdk25
cd "$ROOT"
[[ -n "$(ls perftest-java/target/perftest-java-*.jar 2>/dev/null)" ]] || die "not built yet: run mvn -B -o package -DskipTests"

# Runs on rxe-host1, in this directory (shared with the guests at the same path).
inner='
set -u
out=perftest-java/target/fabric-vm
mkdir -p "$out"
tool="$PWD/$out/rdma-perftest"
# C1 only in the guests, as the other cross-host tests: C2 costs more than it wins under the emulated CPU.
printf "#!/bin/sh\nJDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 exec %s \"\$@\"\n" "$PWD/bin/rdma-perftest" > "$tool"
chmod +x "$tool"
hosts=rxe-host1,rxe-host2,rxe-host3
failed=0
for case in "incast -s 4096" "alltoall -s 4096" "bisection -s 4096" "allgather -s 12K" "reducescatter -s 12K" \
		"allreduce -s 12K" "allreduce -b 4K -e 16K -f 2"; do
	set -- $case
	name=$1; [ "$2" = -b ] && name=$1-sweep
	start=$(date +%s)
	JDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 bin/rdma-perftest fabric "$@" --hosts "$hosts" --device rxe0 \
		--tool-path "$tool" --iters 3 --listen-timeout 120 --test-timeout 90 --json "$out/$name.json" \
		--csv "$out/$name.csv" > "$out/$name.txt" 2>&1
	rc=$?
	cat "$out/$name.txt"
	flags=$(grep -E "^(flagged|failed): " "$out/$name.txt" | grep -vc "^flagged: loss: ")
	echo "fabric-vms: $name: exit $rc in $(( $(date +%s) - start )) s"
	if [ "$rc" -gt 1 ] || { [ "$rc" -eq 1 ] && [ "$flags" -ne 0 ]; }; then
		echo "fabric-vms: $name FAILED"
		failed=1
	fi
done
bash scripts/vm/fabric-faults.sh || failed=1
[ $failed -eq 0 ] && echo "fabric-vms: passed" || echo "fabric-vms: FAILED"
exit $failed
'
rc=0
"$SCRIPT_DIR/rxe-vms.sh" --vms 3 --timeout "$timeout_s" -- bash -c "$inner" || rc=$?
"$SCRIPT_DIR/rdma-env.sh" --timeout 900 -- mvn -B -ntp -o surefire:test -pl perftest-java -Dtest=FabricWorkerRdmaTest \
	-Dfabric.full=true -Drdma.groups=rdma -Drdma.excludedGroups= || rc=1
exit $rc
