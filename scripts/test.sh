#!/usr/bin/env bash
# Runs every test: the host tests (no device needed), then the rdma-tagged tests on a real RDMA device
# (Soft-RoCE natively, or in a VM when this kernel has no RDMA). Installs what is missing (needs root).
#
# usage: scripts/test.sh [--host-only | --rdma-only]
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

run_host=1
run_rdma=1
case "${1:-}" in
--host-only) run_rdma=0 ;;
--rdma-only) run_host=0 ;;
"") ;;
*) die "usage: scripts/test.sh [--host-only | --rdma-only]" ;;
esac

find_jdk25
ensure_packages "${BUILD_PACKAGES[@]}" "${RDMA_PACKAGES[@]}"
cd "$ROOT"
MVN=(mvn -B -ntp)

summary="$(mktemp)"
trap 'rm -f "$summary"' EXIT

if [[ $run_host -eq 1 ]]; then
	echo "==== host tests (no RDMA device needed) ===="
	"${MVN[@]}" install | tee "$summary.host"
	status=${PIPESTATUS[0]}
	[[ $status -eq 0 ]] || exit "$status"
else
	"${MVN[@]}" -q install -DskipTests
fi

if [[ $run_rdma -eq 1 ]]; then
	echo "==== rdma tests (tag 'rdma', on a real RDMA device) ===="
	# Offline in the VM: the host run above has already fetched every plugin and dependency.
	set +e
	"$SCRIPT_DIR/rdma-env.sh" --timeout 1500 -- "${MVN[@]}" -o surefire:test -Drdma.groups=rdma -Drdma.excludedGroups= \
		| tee "$summary.rdma"
	status=${PIPESTATUS[0]}
	set -e
	echo "==== summary ===="
	if [[ -f "$summary.host" ]]; then
		echo "host tests:"
		grep -E "Tests run:.*Fail" "$summary.host" | grep -v " -- in " || true
	fi
	echo "rdma tests:"
	grep -E "Tests run:.*Fail" "$summary.rdma" | grep -v " -- in " || true
	rm -f "$summary.host" "$summary.rdma"
	exit "$status"
fi
