#!/usr/bin/env bash
# The aarch64 (Grace: GH200/GB200) checks that an x86_64 machine can make: installs the cross compiler, the
# arm64 libibverbs and qemu-user (scripts/common.sh AARCH64_PACKAGES), builds verbs-ffm's jar with both shims,
# holds the Java layouts, computed as on aarch64, to the aarch64 shim's table dumped under qemu-user
# (Aarch64LayoutTableTest) and the x86_64 ones to the host shim (LayoutTableTest), and checks that the jar
# carries a shim for each architecture. Exit 0 all passed, 1 a check failed, 2 set-up failed.
# usage: scripts/aarch64-check.sh [MAVEN_ARG...]   (e.g. -o for an offline build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=common.sh
source "$ROOT/scripts/common.sh"

ensure_packages "${BUILD_PACKAGES[@]}" libibverbs-dev librdmacm-dev
ensure_aarch64_packages
jdk25_find || die "no JDK 25 found (set JAVA_HOME)"
export JAVA_HOME="$JDK25_HOME" PATH="$JDK25_HOME/bin:$PATH"

cd "$ROOT"
# package, not install: the jar is checked where it is built. The two table tests only; -Drdmaffm.aarch64.required
# turns a missing aarch64 table into a failure instead of a skip.
mvn -B -ntp -pl verbs-ffm -am package "$@" -Dtest='LayoutTableTest,Aarch64LayoutTableTest' \
	-Dsurefire.failIfNoSpecifiedTests=false -Drdmaffm.aarch64.required=true || exit 1

jars=()
for jar in verbs-ffm/target/verbs-ffm-*.jar; do
	[[ -f "$jar" && "$jar" != *-tests.jar ]] && jars+=("$jar")
done
((${#jars[@]} == 1)) || { echo "aarch64-check: expected one verbs-ffm jar in verbs-ffm/target, found ${#jars[@]}" >&2; exit 1; }
contents="$(jar tf "${jars[0]}")"
failed=0
for platform in linux-x86_64 linux-aarch64; do
	if grep -qx "META-INF/native/$platform/librdmaffm_shim.so" <<< "$contents"; then
		echo "aarch64-check: ${jars[0]} carries META-INF/native/$platform/librdmaffm_shim.so"
	else
		echo "aarch64-check: ${jars[0]} has no META-INF/native/$platform/librdmaffm_shim.so" >&2
		failed=1
	fi
done
report=verbs-ffm/target/surefire-reports/TEST-io.rdmaffm.verbs.raw.Aarch64LayoutTableTest.xml
grep -o 'tests="[0-9]*" errors="[0-9]*" skipped="[0-9]*" failures="[0-9]*"' "$report" \
	| sed 's/^/aarch64-check: Aarch64LayoutTableTest /'
exit "$failed"
