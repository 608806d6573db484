#!/usr/bin/env bash
# Where a perftest-java server's time to listen goes (issue 31, part 2), from the package, in one boot. For each
# of: the package's own AOT cache (trained by the build, where there is no RDMA device), optionally a second
# staged package with another cache (ALT_PKG=DIR, e.g. one trained differently), optionally an AOT cache trained
# here on the device by a whole loopback run (TRAIN_ON_DEVICE=1; minutes under emulation), and no AOT cache: one
# start with the JVM's class-load log (uptime of every class loaded, and where from), which gives a timeline to
# the listen and the classes loaded before it by source. Then RUNS timed starts of each in turn (no logging),
# with C's ib_write_bw and a trivial JVM (java -version) as references. docs/startup.md reads the results.
# Run where the device is (scripts/rdma-env.sh -- packaging/startup-breakdown.sh), after mvn -Pdist package.
#
# usage: [ALT_PKG=DIR] [TRAIN_ON_DEVICE=1] [WITH_EXIT=1] packaging/startup-breakdown.sh [RUNS]   (default 3)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runs="${1:-3}"
dev="${RDMA_DEVICE:?RDMA_DEVICE not set (run through scripts/rdma-env.sh)}"
gid="${RDMA_GID_INDEX:-1}"
ip="${RDMA_IP:-127.0.0.1}"
pkg=("$HERE"/target/stage/rdma-perftest-*)
[[ -x "${pkg[0]}/bin/rdma-perftest" ]] || { echo "no package staged in $HERE/target/stage: mvn -Pdist package first" >&2; exit 2; }
pkg="${pkg[0]}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

listening() {
	local sl local_addr rem state rest
	for f in /proc/net/tcp /proc/net/tcp6; do
		while read -r sl local_addr rem state rest; do
			[[ "$local_addr" == *"$1" && "$state" == 0A ]] && return 0
		done < "$f"
	done
	return 1
}

# nap: 100 ms between two polls, without a process. The guest runs this script and the server it times on the
# same CPU (its init pins the command to CPU 0), and one poll of /proc/net/tcp{,6} costs that CPU ~9 ms (bash's
# read, at host load ~8): polled without a pause (or with 5 ms, or 20 ms), the poll took a third to a half of the
# CPU from the server, while the trivial JVM, timed to its exit, ran alone (java -version beside such a poll took
# 2.2x, 2.3x and 1.45x its time alone; docs/startup.md, fourth pass). At 100 ms the poll takes < 10% of the CPU
# and a time to listen reads up to ~100 ms late (C's most of all). A read that times out sleeps in bash itself.
exec {nap_fd}<> <(:)
nap() { read -r -t 0.1 -u "$nap_fd" _ || :; }

port=18800
# listen_ms CMD...: starts CMD (a server on $port), prints the ms until it listens; then stops it.
listen_ms() {
	local hex start end pid
	hex="$(printf ':%04X' "$port")"
	start="${EPOCHREALTIME/./}"
	"$@" > /dev/null 2>&1 &
	pid=$!
	until listening "$hex"; do
		kill -0 "$pid" 2> /dev/null || { echo "failed"; return 0; }
		nap
	done
	end="${EPOCHREALTIME/./}"
	kill "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null || true
	echo $(((end - start) / 1000))
}

kinds=(c trivial-jvm java-build-aot)
[[ -n "${ALT_PKG:-}" ]] && kinds+=(java-alt-aot)
[[ -n "${TRAIN_ON_DEVICE:-}" ]] && kinds+=(java-device-aot)
kinds+=(java-noaot)
# WITH_EXIT=1: also the path after the listen, for the package with and without its cache (and ALT_PKG's): a
# server on a device that does not exist, from its start to its exit (listen, picocli's model, the device lookup).
[[ -n "${WITH_EXIT:-}" ]] && kinds+=(exit-build-aot exit-noaot) && [[ -n "${ALT_PKG:-}" ]] && kinds+=(exit-alt-aot)

# A copy of the package whose AOT cache is trained here, on the device, by a whole loopback run.
if [[ -n "${TRAIN_ON_DEVICE:-}" ]]; then
cp -a "$pkg" "$work/dev-trained"
trained="$work/dev-trained"
rm -f "$trained/lib/aot/perftest.aot"
t0="${EPOCHREALTIME/./}"
RDMAFFM_AOT_MODE=record "$trained/bin/rdma-perftest" ib_write_bw -d "$dev" -x "$gid" -p 18799 -n 200 > "$work/train-server.out" 2>&1 &
spid=$!
until listening "$(printf ':%04X' 18799)"; do kill -0 "$spid" 2> /dev/null || { cat "$work/train-server.out"; exit 1; }; done
"$pkg/bin/rdma-perftest" ib_write_bw -d "$dev" -x "$gid" -p 18799 -n 200 "$ip" > "$work/train-client.out" 2>&1 \
	|| { echo "training client failed:"; cat "$work/train-client.out"; }
wait "$spid" || { echo "training server failed:"; cat "$work/train-server.out"; }
RDMAFFM_AOT_MODE=create "$trained/bin/rdma-perftest" > "$work/create.out" 2>&1 || { cat "$work/create.out"; exit 1; }
echo "device-trained AOT cache made in $((( ${EPOCHREALTIME/./} - t0) / 1000)) ms: $(du -k "$trained/lib/aot/perftest.aot" | cut -f1) KiB (build's: $(du -k "$pkg/lib/aot/perftest.aot" | cut -f1) KiB)"
fi

# One logged start per kind: the timeline to the listen.
timeline() {
	local name="$1" log="$work/$1.classes"
	shift
	port=$((port + 1))
	local ms
	ms="$(RDMA_PERFTEST_JAVA_OPTS="-Xlog:class+load=info:file=$log:uptime" listen_ms "$@" ib_write_bw -d "$dev" -x "$gid" -p "$port")"
	# The log's last class is the last one loaded before the kill (the listen comes before).
	awk -v name="$name" -v ms="$ms" '
		{ t = $1; gsub(/[\[\]s]/, "", t); t *= 1000 }
		NR == 1 { first = t }
		/ source: shared objects file/ { cache++ } / source: jrt:/ { jrt++ } / source: (file|jar):/ { jar++ }
		/ source: __JVM_DefineClass__| source: __Lookup_defineClass__|LambdaForm|Species_|\$\$Lambda/ { gen++ }
		!main && / io\.rdmaffm\.perftest\.cli\.(Main|EarlyListen) / { main = t }
		!pico && / picocli\.CommandLine / { pico = t }
		!verbs && / io\.rdmaffm\.verbs\./ { verbs = t }
		!ffm && / jdk\.internal\.foreign\.abi\./ { ffm = t }
		{ last = t; n++ }
		!xchg && / io\.rdmaffm\.perftest\.exchange\.ExchangeListener / { xchg = t; nx = n; cx = cache }
		END {
			printf "%-11s listen %6s ms (with logging); classes %5d: %4d from the CDS/AOT archive, %4d jrt, %4d jars, %4d generated\n", name, ms, n, cache, jrt, jar, gen
			printf "            before the listen (ExchangeListener loaded): %d classes, %d from the CDS/AOT archive\n", nx, cx
			printf "            JVM uptime (ms) at first class %5.0f, main class %5.0f, picocli %5.0f, verbs-ffm %5.0f, FFM linker %5.0f, ExchangeListener %5.0f, last class %5.0f\n", first, main, pico, verbs, ffm, xchg, last
		}' "$log"
}
echo
echo "timeline (one start each, class-load log on; times are JVM uptime, the launcher's bash start not counted)"
timeline build-aot "$pkg/bin/rdma-perftest"
[[ -n "${ALT_PKG:-}" ]] && timeline alt-aot "$ALT_PKG/bin/rdma-perftest"
[[ -n "${TRAIN_ON_DEVICE:-}" ]] && timeline device-aot "$trained/bin/rdma-perftest"
RDMAFFM_AOT_MODE=off timeline no-aot "$pkg/bin/rdma-perftest"

# exit_ms CMD...: ms from CMD's start to its exit.
exit_ms() {
	local start end
	start="${EPOCHREALTIME/./}"
	"$@" > /dev/null 2>&1 || true
	end="${EPOCHREALTIME/./}"
	echo $(((end - start) / 1000))
}
no_dev=(ib_write_bw --ib-dev rdma-ffm-no-such-device)
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
declare -A times
for ((i = 1; i <= runs; i++)); do
	for kind in "${kinds[@]}"; do
		port=$((port + 1))
		case "$kind" in
		c) t="$(listen_ms /usr/bin/ib_write_bw -d "$dev" -x "$gid" -p "$port")" ;;
		java-build-aot) t="$(listen_ms "$pkg/bin/rdma-perftest" ib_write_bw -d "$dev" -x "$gid" -p "$port")" ;;
		java-alt-aot) t="$(listen_ms "$ALT_PKG/bin/rdma-perftest" ib_write_bw -d "$dev" -x "$gid" -p "$port")" ;;
		java-device-aot) t="$(listen_ms "$trained/bin/rdma-perftest" ib_write_bw -d "$dev" -x "$gid" -p "$port")" ;;
		java-noaot) t="$(RDMAFFM_AOT_MODE=off listen_ms "$pkg/bin/rdma-perftest" ib_write_bw -d "$dev" -x "$gid" -p "$port")" ;;
		trivial-jvm) t="$(exit_ms "$pkg/runtime/bin/java" -version)" ;;
		exit-build-aot) t="$(exit_ms "$pkg/bin/rdma-perftest" "${no_dev[@]}" -p "$port")" ;;
		exit-alt-aot) t="$(exit_ms "$ALT_PKG/bin/rdma-perftest" "${no_dev[@]}" -p "$port")" ;;
		exit-noaot) t="$(RDMAFFM_AOT_MODE=off exit_ms "$pkg/bin/rdma-perftest" "${no_dev[@]}" -p "$port")" ;;
		esac
		times[$kind]+="$t "
	done
done
echo
echo "time to listen on $dev, ms (runs: $runs, in turn; trivial-jvm: start to exit of java -version on the package's runtime); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in "${kinds[@]}"; do
	# shellcheck disable=SC2086
	printf '%-16s median %6s   each: %s\n' "$kind" "$(median ${times[$kind]})" "${times[$kind]}"
done
