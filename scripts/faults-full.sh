#!/usr/bin/env bash
# The fault and fuzz suites at full size (CI runs them in a short form in scripts/test.sh): the exchange fuzzer
# (10,000 sessions) and the doctor fuzzer (1,000 sysfs trees) on the host; on Soft-RoCE (natively or in the
# VM) 10,000 open/close cycles and 10,000 refused connects (LeakRdmaTest), a SIGKILLed peer for all eight tools
# against C and Java (DeadPeerRdmaTest), remote access outside the registered buffer, 1,000 hostile -R
# sessions (CmExchangeFuzzRdmaTest); in two Soft-RoCE guests (scripts/rxe-vms.sh) the network between them broken
# under traffic (CrossHostNetworkFaultsRdmaTest: netem loss, reordering and jitter for all eight tools, 100% loss
# and the link down mid-run, the device deleted mid-run and added again). Prints the record of each case
# (target/faults/*.tsv) at the end; exits non-zero when a suite failed. Two to three hours in the emulated VMs
# (the 10,000 connects are most of it; the two-guest part about half an hour).
#
# usage: scripts/faults-full.sh
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

find_jdk25
ensure_packages "${BUILD_PACKAGES[@]}" "${RDMA_PACKAGES[@]}"
cd "$ROOT"
MVN=(mvn -B -ntp)
FULL=(-Dfaults.full=true -Dsurefire.failIfNoSpecifiedTests=false)
status=0

"${MVN[@]}" -q install -DskipTests || die "the build failed"
"${MVN[@]}" -o surefire:test -pl perftest-java "${FULL[@]}" -Dtest='ExchangeFuzzTest,DoctorFuzzTest' || status=1
"$SCRIPT_DIR/rdma-env.sh" --timeout 10800 -- sh -c "${MVN[*]} -o surefire:test -pl verbs-ffm ${FULL[*]} \
	-Drdma.groups=rdma -Drdma.excludedGroups= -Dtest='LeakRdmaTest,RemoteAccessBoundsRdmaTest' && \
	${MVN[*]} -o surefire:test -pl perftest-java ${FULL[*]} -Drdma.groups=rdma -Drdma.excludedGroups= \
	-Dtest='DeadPeerRdmaTest,RemoteAccessRdmaTest,CmExchangeFuzzRdmaTest'" || status=1
"$SCRIPT_DIR/rxe-vms.sh" --vms 2 --timeout 5400 -- env MAVEN_OPTS=-XX:TieredStopAtLevel=1 "${MVN[@]}" -o surefire:test \
	-pl perftest-java "${FULL[@]}" -Drdma.groups=multihost -Drdma.excludedGroups= \
	-Dtest='CrossHostNetworkFaultsRdmaTest' || status=1

for f in perftest-java/target/faults/*.tsv; do
	[[ -f "$f" ]] || continue
	echo "==== $f"
	column -t -s $'\t' "$f" || cat "$f"
done
grep -h "leak test:" verbs-ffm/target/surefire-reports/*-output.txt 2>/dev/null || true
exit "$status"
