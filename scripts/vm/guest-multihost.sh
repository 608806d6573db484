# Sourced by guest-init.sh in guest K of an N-guest run (GUEST_INDEX, GUEST_COUNT): name, network, Soft-RoCE,
# sshd. Everything written lives in tmpfs (/run, /root); the run's shared folder NET (one host directory,
# mounted in every guest) carries the hosts file, each guest's public keys and its readiness.
NET=/run/rdmaffm-net
SSH_DIR=/run/rdmaffm-ssh
ME="rxe-host$GUEST_INDEX"

# Says why this guest is unusable where guest 1 looks, so it fails at once instead of at its timeout.
multihost_fail() {
	log "$*"
	echo "$*" > "$NET/$ME.failed"
	return 1
}

# The index of the GID whose value is $1 (sysfs notation), waiting up to 5 s for it to appear.
gid_index_of() {
	local g
	for _ in $(seq 1 50); do
		for g in /sys/class/infiniband/rxe0/ports/1/gids/*; do
			if [[ "$(cat "$g" 2>/dev/null)" == "$1" ]]; then
				echo "${g##*/}"
				return 0
			fi
		done
		sleep 0.1
	done
	return 1
}

# rxe0 on eth0 with 10.77.0.K/24 and fd77::K/64. Even guests add the IPv6 address before rxe0 exists and the
# IPv4 one after, odd guests the reverse, so the IPv4 GID has a different index on neighbouring guests: a test
# that passes one -x to both sides fails, as it would between real hosts whose tables differ.
_multihost_rdma() {
	local k="$GUEST_INDEX" v4="10.77.0.$GUEST_INDEX" v6="fd77::$GUEST_INDEX" first second hex
	modprobe virtio_net || { multihost_fail "modprobe virtio_net failed"; return 1; }
	for _ in $(seq 1 50); do
		[[ -e /sys/class/net/eth0 ]] && break
		sleep 0.1
	done
	ip link set eth0 up || { multihost_fail "no eth0 (the segment's NIC)"; return 1; }
	first=(-4 addr add "$v4/24" dev eth0)
	second=(-6 addr add "$v6/64" dev eth0 nodad)
	if ((k % 2 == 0)); then
		first=(-6 addr add "$v6/64" dev eth0 nodad)
		second=(-4 addr add "$v4/24" dev eth0)
	fi
	ip "${first[@]}" && rdma link add rxe0 type rxe netdev eth0 && ip "${second[@]}" \
		|| { multihost_fail "eth0 addresses or rdma link add rxe0 failed"; return 1; }
	hex="$(printf '%02x%02x:%02x%02x' 10 77 0 "$k")"
	RDMA_GID_INDEX="$(gid_index_of "0000:0000:0000:0000:0000:ffff:$hex")" \
		|| { multihost_fail "rxe0 has no GID for $v4"; return 1; }
	RDMA_GID6_INDEX="$(gid_index_of "fd77:0000:0000:0000:0000:0000:0000:$(printf '%04x' "$k")")" \
		|| { multihost_fail "rxe0 has no GID for $v6"; return 1; }
	local hosts=() j
	for ((j = 1; j <= GUEST_COUNT; j++)); do
		hosts+=("rxe-host$j")
	done
	export RDMA_DEVICE=rxe0 RDMA_GID_INDEX RDMA_GID6_INDEX RDMA_IP="$v4" RDMA_IP6="$v6" RDMA_NETDEV=eth0 \
		RDMA_IN_VM=1 RDMA_HOST_INDEX="$k" RDMA_HOSTS="${hosts[*]}"
	log "$ME: rxe0 on eth0, $v4 at GID index $RDMA_GID_INDEX, $v6 at GID index $RDMA_GID6_INDEX"
}

# Host key and root key pair made here, in tmpfs, for this run only; sshd on the segment, key login only; the
# environment above given to every ssh session (SetEnv), as a cluster's login shell would.
_multihost_sshd() {
	mkdir -p -m 0700 "$SSH_DIR" /root/.ssh || { multihost_fail "cannot create $SSH_DIR"; return 1; }
	mkdir -p -m 0755 /run/sshd
	chmod 0700 /root
	ssh-keygen -q -t ed25519 -N '' -C "$ME" -f "$SSH_DIR/ssh_host_ed25519_key" \
		&& ssh-keygen -q -t ed25519 -N '' -C "root@$ME" -f "$SSH_DIR/id_ed25519" \
		|| { multihost_fail "ssh-keygen failed"; return 1; }
	: > "$SSH_DIR/authorized_keys"
	local v env=()
	for v in PATH JAVA_HOME RDMA_DEVICE RDMA_GID_INDEX RDMA_GID6_INDEX RDMA_IP RDMA_IP6 RDMA_NETDEV RDMA_IN_VM \
		RDMA_HOST_INDEX; do
		env+=("$v=${!v}")
	done
	cat > "$SSH_DIR/sshd_config" <<-EOF
		ListenAddress 10.77.0.$GUEST_INDEX
		ListenAddress fd77::$GUEST_INDEX
		HostKey $SSH_DIR/ssh_host_ed25519_key
		PidFile $SSH_DIR/sshd.pid
		AuthorizedKeysFile $SSH_DIR/authorized_keys
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM no
		UseDNS no
		PrintMotd no
		PrintLastLog no
		MaxStartups 64:30:128
		SetEnv ${env[*]} "RDMA_HOSTS=$RDMA_HOSTS"
	EOF
	cat > /root/.ssh/config <<-EOF
		Host *
		  User root
		  BatchMode yes
		  StrictHostKeyChecking yes
		  UserKnownHostsFile $SSH_DIR/known_hosts
		  GlobalKnownHostsFile /dev/null
		  IdentityFile $SSH_DIR/id_ed25519
		  IdentitiesOnly yes
		  ConnectTimeout 30
		  ServerAliveInterval 15
		  ServerAliveCountMax 8
		  LogLevel ERROR
	EOF
	/usr/sbin/sshd -f "$SSH_DIR/sshd_config" -E "$OUT/sshd.log" || { multihost_fail "sshd did not start"; return 1; }
	cp "$SSH_DIR/ssh_host_ed25519_key.pub" "$NET/.$ME.hostkey" && mv "$NET/.$ME.hostkey" "$NET/$ME.hostkey.pub"
	cp "$SSH_DIR/id_ed25519.pub" "$NET/.$ME.rootkey" && mv "$NET/.$ME.rootkey" "$NET/$ME.rootkey.pub"
}

# Waits (bounded) until every guest has published $1 (a file suffix; files appear whole, by rename), failing at
# once if one gave up.
_multihost_await_all() {
	local what="$1" j deadline=$((SECONDS + 300))
	for ((j = 1; j <= GUEST_COUNT; j++)); do
		until [[ -e "$NET/rxe-host$j.$what" ]]; do
			if [[ -s "$NET/rxe-host$j.failed" ]]; then
				log "rxe-host$j failed: $(cat "$NET/rxe-host$j.failed")"
				return 1
			fi
			if ((SECONDS >= deadline)); then
				log "rxe-host$j did not publish its $what within 300 s"
				return 1
			fi
			sleep 0.5
		done
	done
}

# Name, hosts file, Soft-RoCE and sshd; then, once every guest has published its keys, who may log in
# (every guest's root key) and who the hosts are (every guest's host key: no first-use trust).
multihost_up() {
	echo "$ME" > /proc/sys/kernel/hostname
	cp "$NET/hosts" /run/rdmaffm-hosts && mount --bind /run/rdmaffm-hosts /etc/hosts \
		|| { multihost_fail "cannot put the run's hosts file over /etc/hosts"; return 1; }
	_multihost_rdma || return 1
	_multihost_sshd || return 1
	_multihost_await_all rootkey.pub || return 1
	_multihost_await_all hostkey.pub || return 1
	local j
	for ((j = 1; j <= GUEST_COUNT; j++)); do
		cat "$NET/rxe-host$j.rootkey.pub" >> "$SSH_DIR/authorized_keys"
		echo "rxe-host$j,rxe-host${j}6,10.77.0.$j,fd77::$j $(cut -d' ' -f1,2 "$NET/rxe-host$j.hostkey.pub")" \
			>> "$SSH_DIR/known_hosts"
	done
	touch "$NET/$ME.ready"
	log "$ME: up"
}

# Guest 1, before the command: every guest accepts this guest's key, and answers over ssh.
multihost_await_peers() {
	_multihost_await_all ready || return 1
	local j
	for ((j = 2; j <= GUEST_COUNT; j++)); do
		ssh "rxe-host$j" true < /dev/null >> "$OUT/output.log" 2>&1 || { log "ssh rxe-host$j true failed"; return 1; }
	done
	log "all $GUEST_COUNT hosts answer over ssh ($(cut -d' ' -f1 /proc/uptime) s after this guest's boot)"
}

# One line every 20 s in $OUT/monitor.log, which the host prints when a run fails: a guest that stops answering
# (a CI run once saw guest 1's eth0 transmit queue wait 170 s on a silent guest 2) leaves its last memory, load,
# packet counts and largest processes behind.
multihost_monitor() {
	local mem load net top
	while :; do
		mem="$(awk '/^MemAvailable:/ {printf "%d MiB available", $2 / 1024}' /proc/meminfo)"
		read -r load _ < /proc/loadavg
		net="$(awk '$1 == "eth0:" {printf "eth0 rx %d tx %d packets", $3, $11}' /proc/net/dev)"
		net="${net:-no eth0 yet}"
		top="$(ps -eo rss=,comm= --sort=-rss 2>/dev/null | head -3 | awk '{printf "%s%s %d MiB", sep, $2, $1 / 1024; sep = ", "}')"
		echo "$(cut -d' ' -f1 /proc/uptime) s: $mem, load $load, $net; largest: $top" >> "$OUT/monitor.log"
		sleep 20
	done
}
