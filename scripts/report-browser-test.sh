#!/usr/bin/env bash
# The browser test of `rdma-perftest report` and `compare`: installs Debian's chromium (apt-get, needs root),
# builds, and runs ReportBrowserTest (JUnit tag `browser`): headless Chromium loads the pages made from the
# fixtures, no console message may appear, and every plot must hold the series and point counts of the input
# runs. Leaves the pages, the DOM Chromium built, its logs and two screenshots (report.png at 1280 px,
# report-phone.png at 390 px) in perftest-java/target/report-browser/.
#
# usage: scripts/report-browser-test.sh [--offline]
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

MVN=(mvn -B -ntp)
case "${1:-}" in
--offline) MVN+=(-o) ;;
"") ;;
*) die "usage: scripts/report-browser-test.sh [--offline]" ;;
esac

find_jdk25
ensure_packages "${BUILD_PACKAGES[@]}" "${BROWSER_PACKAGES[@]}"
command -v chromium > /dev/null || die "chromium is installed but not on PATH"
cd "$ROOT"
"${MVN[@]}" -q install -DskipTests -pl perftest-java -am
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
"${MVN[@]}" surefire:test -pl perftest-java -Drdma.groups=browser -Drdma.excludedGroups=rdma | tee "$log"
# A skipped test passes Maven; here it must have run.
grep -Eq "^\[INFO\] Tests run: [1-9][0-9]*, Failures: 0, Errors: 0, Skipped: 0$" "$log" \
	|| die "the browser test did not run and pass (see above)"
echo "report-browser-test: passed; pages, DOM dumps, logs and screenshots in perftest-java/target/report-browser/"
