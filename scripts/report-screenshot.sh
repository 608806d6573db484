#!/usr/bin/env bash
# Regenerates the README's report screenshot and examples from real runs on Soft-RoCE: in the Soft-RoCE VM (or
# natively where the kernel has rxe) perftest-java runs, Java against Java on one port, ib_write_bw -a (once with
# -q 1 and once with -q 2) and ib_send_lat -a, each client with --out_json_file, and `rdma-perftest validate`;
# then, on this host, `rdma-perftest report` of the write_bw -q 1 and send_lat sweeps, a PNG of it taken by
# headless Chromium (Debian's chromium, as in scripts/report-browser-test.sh), and `compare` of the two write_bw
# sweeps. Writes docs/img/report-rxe-sweep.png and leaves the runs, the report, the compare and validate output
# in perftest-java/target/screenshot/.
#
# usage: scripts/report-screenshot.sh [--offline]
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
OUT=perftest-java/target/screenshot
PNG=docs/img/report-rxe-sweep.png
# Few iterations: Soft-RoCE in an emulated CPU moves tens of MB/s, and the sweep goes up to 8 MiB.
BW_ITERS=40
LAT_ITERS=200
WARMUP=500

# ---- inside the RDMA environment: the runs (RDMA_DEVICE, RDMA_GID_INDEX, RDMA_IP from rdma-env.sh)
wait_listening() { # port: until something listens on it (a probing connection would be taken as the client)
	local hex i
	hex="$(printf ':%04X ' "$1")"
	for ((i = 0; i < 600; i++)); do
		if grep -q "${hex}[0-9A-F:]* *0A " /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	echo "report-screenshot: nothing listens on port $1" >&2
	return 1
}

pair() { # name tool args...: a Java server and a Java client on one port; the client's run document is kept
	local name="$1" tool="$2" spid
	shift 2
	# Generous --timeout: the emulated CPU on a busy host can take seconds for one set-up step.
	local common=(-d "$RDMA_DEVICE" -x "$RDMA_GID_INDEX" --warmup "$WARMUP" --timeout 120 "$@")
	bin/"$tool" "${common[@]}" > "$OUT/$name.server.txt" 2>&1 &
	spid=$!
	wait_listening 18515
	bin/"$tool" "${common[@]}" --out_json_file "$OUT/$name.json" "$RDMA_IP" > "$OUT/$name.txt" 2>&1 \
		|| { cat "$OUT/$name.txt" >&2; kill "$spid" 2> /dev/null; return 1; }
	wait "$spid" || { cat "$OUT/$name.server.txt" >&2; return 1; }
	echo "report-screenshot: $name done"
}

if [[ "${1:-}" == --in-rdma-env ]]; then
	cd "$ROOT"
	pair write_bw-q1 ib_write_bw -a -n "$BW_ITERS" -q 1
	pair write_bw-q2 ib_write_bw -a -n "$BW_ITERS" -q 2
	pair send_lat ib_send_lat -a -n "$LAT_ITERS"
	# A short warm-up: at 64 KiB one round of the default takes a minute on the emulated CPU.
	bin/rdma-perftest validate -d "$RDMA_DEVICE" -D 6 --warmup 200 > "$OUT/validate.txt" || true
	cat "$OUT/validate.txt"
	exit 0
fi

# ---- on the host
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"
MVN=(mvn -B -ntp)
case "${1:-}" in
--offline) MVN+=(-o) ;;
"") ;;
*) die "usage: scripts/report-screenshot.sh [--offline]" ;;
esac
find_jdk25
ensure_packages "${BUILD_PACKAGES[@]}" "${BROWSER_PACKAGES[@]}"
command -v chromium > /dev/null || die "chromium is installed but not on PATH"
cd "$ROOT"
"${MVN[@]}" -q install -DskipTests
rm -rf "$OUT"
mkdir -p "$OUT" docs/img
"$SCRIPT_DIR/rdma-env.sh" --timeout 2400 -- bash "$SCRIPT_DIR/report-screenshot.sh" --in-rdma-env
grep -q "verdict" "$OUT/validate.txt" || die "validate printed no verdict (see $OUT/validate.txt)"

bin/rdma-perftest report "$OUT/write_bw-q1.json" "$OUT/send_lat.json" --title "Soft-RoCE (rxe) sweeps" \
	-o "$OUT/report.html"
bin/rdma-perftest compare "$OUT/write_bw-q1.json" "$OUT/write_bw-q2.json" --metric BW_average > "$OUT/compare.txt"
# A private profile, no GPU, no network: the page is self-contained.
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
	--window-size=1280,1400 --screenshot="$ROOT/$PNG" "file://$ROOT/$OUT/report.html" 2> "$OUT/chromium.log"
size=$(stat -c %s "$PNG")
((size < 200 * 1024)) || die "$PNG is $size bytes, over the 200 KB the README allows: lower --window-size"
echo "report-screenshot: wrote $PNG ($size bytes); runs, report.html, compare.txt and validate.txt in $OUT"
