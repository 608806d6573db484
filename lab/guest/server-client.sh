# Sourced by profile-run.sh and insns-run.sh (after common.sh, where the RDMA device is): one round of a latency
# tool, a C server on CPU 0 and, once it listens, a client on CPU 1, C perftest or perftest-java (whose JVM writes
# a perf map of its compiled code at exit), both -s 2 -n ITERS. Returns once the client has printed its header,
# i.e. is in its measured loop; sets SERVER_PID and CLIENT_PID. JAVA_OPTS: more JVM options for a Java client.
# usage: start_server_and_client TOOL C|Java PORT ITERS CLIENT_OUT SERVER_OUT [JAVA_OPTS]
start_server_and_client() {
	local tool="$1" impl="$2" port="$3" iters="$4" client_out="$5" server_out="$6" java_opts="${7:-}" client
	local dev="${RDMA_DEVICE:?}" ip="${RDMA_IP:?}" gid="${RDMA_GID_INDEX:-1}"
	timeout 900 taskset -c 0 "/usr/bin/$tool" -d "$dev" -x "$gid" -p "$port" -s 2 -n "$iters" > "$server_out" 2>&1 &
	SERVER_PID=$!
	wait_tcp_listening "$port" 1800 || die "the C server did not listen"
	if [[ $impl == C ]]; then
		# Line-buffered, so that the header shows when the loop starts.
		client=(stdbuf -oL "/usr/bin/$tool")
	else
		client=(env "RDMA_PERFTEST_JAVA_OPTS=-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit $java_opts"
			"$ROOT/bin/rdma-perftest" "$tool")
	fi
	timeout 900 taskset -c 1 "${client[@]}" -d "$dev" -x "$gid" -p "$port" -s 2 -n "$iters" "$ip" > "$client_out" 2>&1 &
	CLIENT_PID=$!
	for _ in $(seq 1 12000); do grep -q "#bytes" "$client_out" && break; sleep 0.05; done
}
