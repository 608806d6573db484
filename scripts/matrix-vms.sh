#!/usr/bin/env bash
# The full form of the matrix's multihost check, in three Soft-RoCE VMs: MatrixAcrossVmsRdmaTest (every pair
# with every link up, each pair's figure compared with the plain tool run by hand between the same hosts) and
# CrossHostMatrixRdmaTest (one host's link down; CI runs only this one, in scripts/test.sh's multihost stage).
# Needs a build first (mvn -q install -DskipTests, or scripts/test.sh --host-only).
#
# usage: scripts/matrix-vms.sh [--timeout SEC] [-- MAVEN-ARG...]   (default 1500 s in all, boots included)
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

timeout_s=1500
case "${1:-}" in
--timeout) timeout_s="${2:?--timeout needs seconds}"; shift 2 ;;
""|--) ;;
*) die "usage: scripts/matrix-vms.sh [--timeout SEC] [-- MAVEN-ARG...]" ;;
esac
[[ "${1:-}" != -- ]] || shift
MAVEN_EXTRA=("$@")
find_jdk25
cd "$ROOT"
[[ -n "$(ls perftest-java/target/perftest-java-*.jar 2>/dev/null)" ]] || die "not built yet: run mvn -q install -DskipTests"
exec "$SCRIPT_DIR/rxe-vms.sh" --vms 3 --timeout "$timeout_s" -- env MAVEN_OPTS=-XX:TieredStopAtLevel=1 \
	mvn -B -ntp -o surefire:test -pl perftest-java -am -Dtest='MatrixAcrossVms*,CrossHostMatrix*' \
	-Dsurefire.failIfNoSpecifiedTests=false -Drdma.groups=multihost -Drdma.excludedGroups= "${MAVEN_EXTRA[@]}"
