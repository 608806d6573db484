#!/usr/bin/env bash
# The fault cases of fabric's full form (issue 28 §4), run on rxe-host1 of scripts/rxe-vms.sh --vms 3 by
# scripts/fabric-vms.sh, in the repository directory (shared with every guest at the same path). Each case runs
# `rdma-perftest fabric allreduce` across rxe-host1..3 over real ssh with one host made faulty, and checks:
#   loss:    netem loss on rxe-host2's eth0 (tc in that guest): the loss-outlier rule names rxe-host2 and no
#            other host; a baseline run first, so the emulated segment's own loss is on record beside it;
#   nojoin:  rxe-host3's worker never starts (the tool there is `sleep`): the run ends within the join timeout
#            plus the driver's grace, exit 2, with a line naming rxe-host3;
#   kill:    rxe-host3's worker is killed (SIGKILL) mid-collective: the others end within their step timeout,
#            exit 2, a line names rxe-host3;
#   unreach: the third host is an address no guest has (10.77.0.9): exit 2, one failed line names it.
# After every case: no fabric worker runs on any guest, and each guest's QP count is what it was before.
# Figures (end times, counter deltas, QP counts) are printed as "fabric-faults: ..." lines. Exit 0 when every
# case passed. Needs root in the guests (tc), which rxe-vms.sh gives.
#
# usage (inside the VMs): scripts/vm/fabric-faults.sh [CASE...]   (default: loss nojoin kill unreach)
set -u
out=perftest-java/target/fabric-faults
mkdir -p "$out"
hosts=(rxe-host1 rxe-host2 rxe-host3)
# C1 only in the guests, as the other cross-host tests.
tool="$PWD/$out/rdma-perftest"
printf '#!/bin/sh\nJDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 exec %s "$@"\n' "$PWD/bin/rdma-perftest" > "$tool"
# The same tool, except on rxe-host3, where it never starts a worker: it only sleeps (a host that never joins).
nojoin="$PWD/$out/rdma-perftest-nojoin"
printf '#!/bin/sh\n[ "$(hostname)" = rxe-host3 ] && exec sleep 900\nexec %s "$@"\n' "$tool" > "$nojoin"
chmod +x "$tool" "$nojoin"
# The worker's JVM (its launcher's entry point and subcommand); brackets keep pgrep off the shell running it.
WORKER='[c]li.(EarlyListen|Main) fabric-worker'
JOIN=40
STEP=90
failed=0

say() { echo "fabric-faults: $*"; }
fail() { say "$case: FAILED: $*"; failed=1; }
on() { local h="$1"; shift; ssh "$h" "$@" < /dev/null; }
qps() { on "$1" rdma resource show qp | grep -c "link rxe0/.*lqpn"; }
workers() { on "$1" "pgrep -c -f '$WORKER'; true"; }
# "host=N ..." of every guest.
qp_line() { local h; for h in "${hosts[@]}"; do printf '%s=%s ' "$h" "$(qps "$h")"; done; }
# Per host, the loss counters' deltas of a run's JSON ("host: name +d, ...").
loss_deltas() {
	jq -r '.ranks[] | "\(.host): " + ([(.result.counters.delta // {}) | to_entries[]
		| select(.key | test("(rcvd_seq_err|completer_retry_err|retry_exceeded_err|out_of_seq_request|duplicate_request|sent_pkts|rcvd_pkts)$"))
		| "\(.key | sub(".*/"; ""))=\(.value)"] | join(" "))' "$1"
}

# Runs the driver; $1: case name, the rest: extra arguments. Sets rc and secs; output in $out/$1.txt.
fabric() {
	local name="$1" start
	shift
	start=$(date +%s.%N)
	JDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 timeout 600 bin/rdma-perftest fabric allreduce --device rxe0 -s 48K \
		--listen-timeout "$JOIN" --test-timeout "$STEP" --connect-timeout 10 --json "$out/$name.json" "$@" \
		> "$out/$name.txt" 2>&1
	rc=$?
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	sed "s/^/  $name| /" "$out/$name.txt"
	say "$name: exit $rc in $(printf %.1f "$secs") s"
}

# After a case: nothing left on any guest, QPs back to the counts before (a few seconds' grace: a worker the
# driver stopped frees its QPs as it exits).
clean_after() {
	local h n q i
	for h in "${hosts[@]}"; do
		for i in $(seq 1 20); do
			n=$(workers "$h")
			q=$(qps "$h")
			[ "$n" = 0 ] && [ "$q" = "${before[$h]}" ] && break
			sleep 1
		done
		[ "$n" = 0 ] || fail "$n fabric workers still run on $h: $(on "$h" "ps -eo pid,etimes,args | grep -E '$WORKER'")"
		[ "$q" = "${before[$h]}" ] || fail "$h has $q QPs, had ${before[$h]} before"
	done
	n=$(on rxe-host3 "pgrep -c -f '^sleep 900\$'; true")
	[ "$n" = 0 ] || fail "the never-joining sleeper still runs on rxe-host3"
	say "$case: after: workers 0 expected; QPs $(qp_line)"
}

declare -A before
for h in "${hosts[@]}"; do
	before[$h]=$(qps "$h")
	[ "$(workers "$h")" = 0 ] || { say "a fabric worker already runs on $h"; exit 1; }
done
say "QPs before: $(qp_line)"

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(loss nojoin kill unreach)
for case in "${cases[@]}"; do
	case "$case" in
	loss)
		fabric loss-baseline --hosts rxe-host1,rxe-host2,rxe-host3 --tool-path "$tool" --iters 8
		loss_deltas "$out/loss-baseline.json" | sed 's/^/fabric-faults: loss: baseline: /'
		on rxe-host2 "modprobe sch_netem && tc qdisc replace dev eth0 root netem loss 10%" \
			|| { fail "no netem on rxe-host2"; continue; }
		fabric loss --hosts rxe-host1,rxe-host2,rxe-host3 --tool-path "$tool" --iters 8
		on rxe-host2 "tc -s qdisc show dev eth0 | head -3; tc qdisc del dev eth0 root"
		loss_deltas "$out/loss.json" | sed 's/^/fabric-faults: loss: netem on rxe-host2: /'
		grep -E "^[a-z ]+: loss-outlier: " "$out/loss-baseline.txt" "$out/loss.txt" | sed 's/^/fabric-faults: loss: /'
		grep -qE "^flagged: loss-outlier: rxe-host2" "$out/loss.txt" || fail "no loss-outlier line names rxe-host2"
		grep -E "^flagged: loss-outlier: " "$out/loss.txt" | grep -qv rxe-host2 && fail "loss-outlier names another host"
		clean_after
		;;
	nojoin)
		fabric nojoin --hosts rxe-host1,rxe-host2,rxe-host3 --tool-path "$nojoin" --iters 3
		[ "$rc" = 2 ] || fail "exit $rc, not 2"
		grep -qE "^failed: .*rxe-host3.*(never joined|did not join)" "$out/nojoin.txt" || fail "no failed line says rxe-host3 never joined"
		jq -r '.ranks[] | "fabric-faults: nojoin: rank \(.rank) on \(.host): exit \(.exit_code), \(.failure.message // "ok")"' "$out/nojoin.json"
		clean_after
		;;
	kill)
		JDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 timeout 600 bin/rdma-perftest fabric allreduce --device rxe0 -s 48K \
			--listen-timeout "$JOIN" --test-timeout "$STEP" --iters 400 --hosts rxe-host1,rxe-host2,rxe-host3 \
			--tool-path "$tool" --json "$out/kill.json" > "$out/kill.txt" 2>&1 &
		driver=$!
		start=$(date +%s.%N)
		# One ssh session on rxe-host3 that waits for its worker's QPs (the collective under way), then SIGKILLs
		# it 2 s later and prints its pid: polling from here costs an ssh per look, seconds each under TCG.
		victim=$(on rxe-host3 "for i in \$(seq 1 600); do
				n=\$(rdma resource show qp | grep -c 'link rxe0/.*lqpn')
				p=\$(pgrep -f '$WORKER')
				if [ \"\$n\" -gt ${before[rxe-host3]} ] && [ -n \"\$p\" ]; then sleep 2; kill -KILL \$p && echo \$p; exit 0; fi
				sleep 0.5
			done")
		killed=$(date +%s.%N)
		if [ -z "$victim" ]; then
			fail "rxe-host3's worker never had its QPs"
			kill "$driver"
		else
			say "kill: SIGKILL to rxe-host3's worker (pid $victim) $(printf %.1f "$(echo "$killed - $start" | bc)") s after the start"
		fi
		wait "$driver"
		rc=$?
		secs=$(echo "$(date +%s.%N) - ${killed:-$start}" | bc)
		sed "s/^/  kill| /" "$out/kill.txt"
		say "kill: exit $rc, $(printf %.1f "$secs") s after the kill (step timeout ${STEP} s)"
		[ "$rc" = 2 ] || fail "exit $rc, not 2"
		grep -qE "^failed: .*rxe-host3" "$out/kill.txt" || fail "no failed line names rxe-host3"
		jq -r '.ranks[] | "fabric-faults: kill: rank \(.rank) on \(.host): exit \(.exit_code), \(.failure.message // "ok")"' "$out/kill.json"
		clean_after
		;;
	unreach)
		fabric unreach --hosts rxe-host1,rxe-host2,10.77.0.9 --tool-path "$tool" --iters 3
		[ "$rc" = 2 ] || fail "exit $rc, not 2"
		grep -E "^failed: " "$out/unreach.txt" | grep -q "10.77.0.9" || fail "no failed line names 10.77.0.9"
		jq -r '.ranks[] | "fabric-faults: unreach: rank \(.rank) on \(.host): exit \(.exit_code), \(.failure.message // "ok")"' "$out/unreach.json"
		clean_after
		;;
	*) say "unknown case $case"; failed=1 ;;
	esac
done
[ $failed -eq 0 ] && say "passed" || say "FAILED"
exit $failed
