#!/usr/bin/env bash
# Time to listen, for the package (issue 31, part 2): how long after its start a server accepts its peer's TCP
# exchange, for Debian's C ib_write_bw, perftest-java's from the package with and without its AOT cache, and, as
# the floor, how long the package's runtime takes to run and exit a JVM that does nothing (java -version).
# Each is started RUNS times in turn, in one boot; prints every time and the median, in milliseconds.
# Run where the device is (scripts/rdma-env.sh -- packaging/time-to-listen.sh), after mvn -Pdist package.
#
# usage: packaging/time-to-listen.sh [RUNS]   (default 5)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runs="${1:-5}"
dev="${RDMA_DEVICE:?RDMA_DEVICE not set (run through scripts/rdma-env.sh)}"
gid="${RDMA_GID_INDEX:-1}"
pkg=("$HERE"/target/stage/rdma-perftest-*)
[[ -x "${pkg[0]}/bin/rdma-perftest" ]] || { echo "no package staged in $HERE/target/stage: mvn -Pdist package first" >&2; exit 2; }
pkg="${pkg[0]}"

# Listening on $1 (hex, e.g. :4843), read with bash builtins only: a process per poll would cost the emulated
# CPU tens of milliseconds, inside the time measured.
listening() {
	local sl local_addr rem state rest
	while read -r sl local_addr rem state rest; do
		[[ "$local_addr" == *"$1" && "$state" == 0A ]] && return 0
	done < /proc/net/tcp
	while read -r sl local_addr rem state rest; do
		[[ "$local_addr" == *"$1" && "$state" == 0A ]] && return 0
	done < /proc/net/tcp6
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

port=18700
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

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

declare -A times
kinds=(c java-aot java-noaot trivial-jvm)
for ((i = 1; i <= runs; i++)); do
	for kind in "${kinds[@]}"; do
		port=$((port + 1))
		case "$kind" in
		c) t="$(listen_ms /usr/bin/ib_write_bw -d "$dev" -x "$gid" -p "$port")" ;;
		java-aot) t="$(listen_ms "$pkg/bin/rdma-perftest" ib_write_bw -d "$dev" -x "$gid" -p "$port")" ;;
		java-noaot) t="$(RDMAFFM_AOT_MODE=off listen_ms "$pkg/bin/rdma-perftest" ib_write_bw -d "$dev" -x "$gid" -p "$port")" ;;
		trivial-jvm)
			start="${EPOCHREALTIME/./}"
			"$pkg/runtime/bin/java" -version > /dev/null 2>&1
			end="${EPOCHREALTIME/./}"
			t=$(((end - start) / 1000))
			;;
		esac
		times[$kind]+="$t "
	done
done

echo "time to listen on $dev, ms (runs: $runs; trivial-jvm: start to exit of java -version on the package's runtime)"
for kind in "${kinds[@]}"; do
	# shellcheck disable=SC2086
	printf '%-12s median %6s   each: %s\n' "$kind" "$(median ${times[$kind]})" "${times[$kind]}"
done
