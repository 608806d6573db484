#!/usr/bin/env bash
# Runs every test, in four stages: the host tests (no device needed); the rdma-tagged tests on a real RDMA
# device (Soft-RoCE natively, or in a VM when this kernel has no RDMA); the multihost-tagged tests across two
# Soft-RoCE VMs (scripts/rxe-vms.sh); the matrix across three (the short form: scripts/matrix-vms.sh runs the
# full one). Installs what is missing (needs root). Ends with each stage's Surefire summary and exits non-zero
# if any stage failed.
#
# After the rdma stage, the package stage: the node package built (mvn -Pdist) and tested as installed, on
# this host and in the Soft-RoCE VM (packaging/test-installed.sh), and the aarch64 shim's data path over
# Soft-RoCE in an aarch64 VM (scripts/aarch64-rxe.sh, short form).
#
# usage: scripts/test.sh [--host-only | --rdma-only | --multihost-only | --package-only]
#   (--multihost-only: both VM stages)
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

stages=(host rdma package multihost matrix)
case "${1:-}" in
--host-only) stages=(host) ;;
--rdma-only) stages=(rdma) ;;
--multihost-only) stages=(multihost matrix) ;;
--package-only) stages=(package) ;;
"") ;;
*) die "usage: scripts/test.sh [--host-only | --rdma-only | --multihost-only | --package-only]" ;;
esac

find_jdk25
# Chromium: the host stage opens the HTML reports in a real browser (tests tagged browser).
ensure_packages "${BUILD_PACKAGES[@]}" "${RDMA_PACKAGES[@]}" "${BROWSER_PACKAGES[@]}" "${PACKAGING_PACKAGES[@]}" \
	"${PROMETHEUS_PACKAGES[@]}"
# The linux-aarch64 shim (Grace nodes): its cross compiler, arm64 libibverbs and qemu-user, so that the host
# stage builds it and checks its layout table (required there: a missing table fails instead of skipping).
ensure_aarch64_packages
cd "$ROOT"
MVN=(mvn -B -ntp)

logs="$(mktemp -d "${TMPDIR:-/tmp}/rdmaffm-test.XXXXXX")"
trap 'rm -rf "$logs"' EXIT

declare -A title=(
	[host]="host tests (no RDMA device needed)"
	[rdma]="rdma tests (tag 'rdma', on a real RDMA device)"
	[package]="package (mvn -Pdist; packaging/test-installed.sh on this host and on Soft-RoCE; the aarch64 shim on Soft-RoCE in an aarch64 VM)"
	[multihost]="multihost tests (tag 'multihost', across two Soft-RoCE VMs)"
	[matrix]="matrix and fabric tests (tag 'multihost', CrossHostMatrix*, CrossHostFabric*, across three Soft-RoCE VMs)"
)

# Runs one stage, its output shown and kept; the stage's exit status is kept too (a failing stage does not end
# this script: the later stages and the summary still come).
run_stage() {
	local name="$1" start=$SECONDS
	shift
	echo "==== ${title[$name]} ===="
	# The status is taken inside the group: under set -e and pipefail a failing command would otherwise end
	# the script before it could be read.
	{
		local status=0
		"$@" || status=$?
		echo "$status" > "$logs/$name.status"
	} 2>&1 | tee "$logs/$name.log"
	echo "$((SECONDS - start))" > "$logs/$name.seconds"
}

if [[ "${stages[0]}" != host ]]; then
	# A device stage without the host stage: build (tests compiled, not run) first.
	"${MVN[@]}" -q install -DskipTests || die "the build failed"
fi

host_ok=1
for stage in "${stages[@]}"; do
	if [[ $host_ok -eq 0 ]]; then
		# Nothing was installed: the device stages would test stale jars.
		echo "==== ${title[$stage]}: not run, the host stage failed ===="
		continue
	fi
	case "$stage" in
	host)
		run_stage host "${MVN[@]}" install -Drdmaffm.aarch64.required=true
		[[ "$(cat "$logs/host.status")" == 0 ]] || host_ok=0
		;;
	rdma)
		# Offline in the VM: the host run (or the build above) has already fetched every plugin and dependency.
		run_stage rdma "$SCRIPT_DIR/rdma-env.sh" --timeout 3600 -- "${MVN[@]}" -o surefire:test \
			-Drdma.groups=rdma -Drdma.excludedGroups=
		;;
	package)
		# ---- the node package (packaging/): built from the jars the host stage installed, then tested as
		# installed, here (no device) and in the Soft-RoCE VM (doctor and a loopback ib_write_bw). Then the
		# linux-aarch64 shim in verbs-ffm's jar: its data path over Soft-RoCE in an aarch64 VM, short form (about
		# 33-40 s with its cache; the first time on a machine about 3 min: qemu-system-arm installed, the arm64
		# packages fetched and unpacked, 390 MB under ~/.cache/rdma-ffm/aarch64-vm). ----
		run_stage package bash -c '"$@" -q -Pdist -pl packaging package -DskipTests && packaging/test-installed.sh \
			&& scripts/rdma-env.sh --timeout 900 -- packaging/test-installed.sh \
			&& scripts/aarch64-rxe.sh --iters 100 --rounds 50 --timeout 300 --shim "$(find verbs-ffm/target -maxdepth 1 \
				-name "verbs-ffm-*.jar" ! -name "*-tests.jar" ! -name "*-sources.jar" ! -name "*-javadoc.jar")"' _ "${MVN[@]}"
		;;
	multihost)
		# -am: the tests load verbs-ffm from this build, not from ~/.m2; -Dtest (multihost classes are named
		# CrossHost*) keeps Surefire from starting a JVM (~40 s here) in the modules that have none. Maven itself
		# with C1 only: under the emulated CPU, C2's compiles cost more than they win in a run this short. The
		# stage took 520 s before the network-fault cases (about 270 s more; CrossHostSlurmRdmaTest 53 s):
		# 1200 s leaves room on a loaded machine.
		# A JVM per test class (reuseForks=false): librdmacm keeps every device open until its process exits, so
		# after a class that used rdma_cm the test JVM would hold rxe0 and the network-fault test's
		# 'rdma link delete' would wait for ever.
		run_stage multihost "$SCRIPT_DIR/rxe-vms.sh" --vms 2 --timeout 1200 -- env MAVEN_OPTS=-XX:TieredStopAtLevel=1 \
			"${MVN[@]}" -o surefire:test -pl perftest-java -am -Dtest='CrossHost*,!CrossHostMatrix*,!CrossHostFabric*' -DreuseForks=false \
			-Dsurefire.failIfNoSpecifiedTests=false -Drdma.groups=multihost -Drdma.excludedGroups=
		;;
	matrix)
		# Its own three guests, so that the two-host tests above run exactly as before. Short: one all-pairs
		# matrix with a guest's link down, one fabric all-reduce of 12 KiB across the three (its bound: 240 s), and
		# one fabric run with a host that never joins (join timeout 20 s; about 60 s on an idle host).
		run_stage matrix "$SCRIPT_DIR/rxe-vms.sh" --vms 3 --timeout 900 -- env MAVEN_OPTS=-XX:TieredStopAtLevel=1 \
			"${MVN[@]}" -o surefire:test -pl perftest-java -am -Dtest='CrossHostMatrix*,CrossHostFabric*' \
			-Dsurefire.failIfNoSpecifiedTests=false -Drdma.groups=multihost -Drdma.excludedGroups=
		;;
	esac
done

echo "==== summary ===="
result=0
for stage in "${stages[@]}"; do
	if [[ ! -f "$logs/$stage.status" ]]; then
		echo "${title[$stage]}: not run"
		((result != 0)) || result=1
		continue
	fi
	status="$(cat "$logs/$stage.status")"
	echo "${title[$stage]}: exit status $status, $(cat "$logs/$stage.seconds") s"
	if [[ -f "$logs/$stage.log" ]]; then
		grep -E "Tests run:.*Fail|^installed package:|^aarch64-rxe: (passed|FAILED)" "$logs/$stage.log" | grep -v " -- in " || echo "  (no Surefire summary: the stage ended before its tests reported)"
	fi
	if [[ "$status" != 0 && $result -eq 0 ]]; then
		result="$status"
	fi
done
exit "$result"
