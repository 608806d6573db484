#!/usr/bin/env bash
# UD multicast (-g/-M) between two Soft-RoCE VMs (scripts/rxe-vms.sh), C and Java both ways, for ib_send_bw and
# ib_send_lat. rxe in Linux 6.1 attaches a QP to a group at the link level only, so each receiving host holds
# an IPv6 join of the group (and of the next one, which ib_send_lat's other side uses) on the rxe netdev for the
# run (docs/multicast.md). Each case prints both sides' tails and the receiver's rxe rcvd_pkts; the exit status
# is 1 when any case failed. Build first (mvn -q package -DskipTests). Emulated and slow: about 10 minutes.
#
# usage: scripts/multicast-vms.sh            (on this machine: boots the VMs and runs the cases in them)
set -uo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
if [[ "${1:-}" != --in-guest ]]; then
	exec "$SCRIPT_DIR/rxe-vms.sh" --timeout 1500 -- "$SCRIPT_DIR/multicast-vms.sh" --in-guest
fi
M=255:14:0:0:0:2:201:133:0:0:0:0:0:0:0:0 # = ff0e:0:2:c985:: (global scope: crosses hosts)
G=ff0e:0:2:c985::
JOIN='import socket,struct,sys,time
s=socket.socket(socket.AF_INET6,socket.SOCK_DGRAM)
for g in sys.argv[2:]:
    s.setsockopt(socket.IPPROTO_IPV6,socket.IPV6_JOIN_GROUP,socket.inet_pton(socket.AF_INET6,g)+struct.pack("@I",socket.if_nametoindex(sys.argv[1])))
time.sleep(3600)'
I2=$(ssh rxe-host2 'echo $RDMA_GID6_INDEX')
for h in 1 2; do
	ssh rxe-host$h "nohup python3 -c '$JOIN' \$RDMA_NETDEV $G ${G}1 >/dev/null 2>&1 & sleep 3; ip -6 maddr show dev \$RDMA_NETDEV | grep -c ff0e"
done
failed=0
# $1 server command on rxe-host2, $2 client command here, $3 port, $4 label
pair() {
	echo "=== $4"
	ssh rxe-host2 "cd $ROOT; timeout 300 $1 -p $3" >/tmp/mc-srv.log 2>&1 &
	local sp=$! rc i t
	for i in $(seq 120); do ssh rxe-host2 "ss -ltn | grep -q :$3" && break; sleep 1; done
	for t in 1 2 3; do # C perftest's clock calibration fails now and then under TCG
		(cd "$ROOT" && timeout 240 $2 -p "$3" rxe-host2) >/tmp/mc-cli.log 2>&1
		rc=$?
		grep -qi calibr /tmp/mc-cli.log || break
	done
	wait "$sp"
	local src=$?
	echo "client rc=$rc, server rc=$src"
	tail -n 4 /tmp/mc-cli.log /tmp/mc-srv.log
	echo "receiver rcvd_pkts: $(ssh rxe-host2 cat /sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts)"
	((rc == 0 && src == 0)) || failed=1
}
C_BW="ib_send_bw -c UD -g -M $M -n 50"
J_BW="bin/ib_send_bw -c UD -g -M $M -n 50" # the default 64 KiB shrinks to the MTU on both, as C's does
C_LAT="ib_send_lat -c UD -g -M $M -n 20"
J_LAT="bin/ib_send_lat -c UD -g -M $M -n 20"
pair "$C_BW -x $I2" "$C_BW -x $RDMA_GID6_INDEX" 18601 "C -> C, ib_send_bw -g"
pair "$J_BW -x $I2" "$C_BW -x $RDMA_GID6_INDEX" 18602 "C client -> Java server, ib_send_bw -g"
pair "$C_BW -x $I2" "$J_BW -x $RDMA_GID6_INDEX" 18603 "Java client -> C server, ib_send_bw -g"
pair "$C_LAT -x $I2" "$C_LAT -x $RDMA_GID6_INDEX" 18604 "C <-> C, ib_send_lat -g"
pair "$J_LAT -x $I2" "$C_LAT -x $RDMA_GID6_INDEX" 18605 "C client, Java server, ib_send_lat -g"
pair "$C_LAT -x $I2" "$J_LAT -x $RDMA_GID6_INDEX" 18606 "Java client, C server, ib_send_lat -g"
exit "$failed"
