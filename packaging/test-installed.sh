#!/usr/bin/env bash
# Tests the built package as a user installs it (build it first: mvn -Pdist package -DskipTests): the tar.gz
# unpacked and the .deb installed by dpkg into a scratch root (dpkg --root), each run with no JDK on PATH and JAVA_HOME
# unset: --version, the AOT cache accepted by the packaged runtime (-XX:AOTMode=on refuses to start without
# it), help, man pages, completion, and doctor. Where an RDMA device is (run it through scripts/rdma-env.sh,
# which sets RDMA_DEVICE, RDMA_IP and RDMA_GID_INDEX; in the Soft-RoCE VM that is rxe0), also doctor on that
# device and a loopback ib_write_bw, server and client both the installed copy's. Exit 0 when every check passed.
#
# usage: packaging/test-installed.sh [PACKAGE_DIR]   (default packaging/target)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=../scripts/common.sh
source "$ROOT/scripts/common.sh"
pkg_dir="${1:-$HERE/target}"
tarball=("$pkg_dir"/rdma-perftest-*-linux-x86_64.tar.gz)
deb=("$pkg_dir"/rdma-perftest_*_amd64.deb)
[[ -f "${tarball[0]}" && -f "${deb[0]}" ]] || die "no package in $pkg_dir: build it first (mvn -Pdist package -DskipTests)"
# Under the package folder, not /tmp: in the Soft-RoCE VM only the working tree is writable.
scratch="$(mktemp -d "$pkg_dir/installed-test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

failed=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failed=1; }

# A PATH with no JDK on it: only bash and readlink, which the launchers use (and which env needs to find bash).
# /usr/bin (and /bin, its link on Debian 12) is left out: Debian's java alternative lives there.
nojdk="$scratch/path"
mkdir -p "$nojdk"
ln -s "$(command -v bash)" "$(command -v readlink)" "$nojdk/"
if PATH="$nojdk" command -v java > /dev/null; then
	die "the scratch PATH finds java: the test could not tell a packaged runtime from a JDK"
fi
# installed CMD...: CMD with that PATH, JAVA_HOME unset and an otherwise empty environment, bounded.
installed() {
	timeout 300 env -i HOME="$scratch" PATH="$nojdk" \
		${RDMA_PERFTEST_JAVA_OPTS:+RDMA_PERFTEST_JAVA_OPTS="$RDMA_PERFTEST_JAVA_OPTS"} "$@"
}
# run CMD...: installed, its output in $scratch/out.
run() {
	installed "$@" > "$scratch/out" 2>&1
}

mkdir -p "$scratch/tar" "$scratch/root"
tar -C "$scratch/tar" -xzf "${tarball[0]}"
# dpkg itself installs the .deb into the scratch root (its own empty package database there, so the libraries
# it depends on are missing from it: --force-depends; they are checked below, and the runs use this system's).
mkdir -p "$scratch/root/var/lib/dpkg/info" "$scratch/root/var/lib/dpkg/updates"
touch "$scratch/root/var/lib/dpkg/status"
dpkg --root="$scratch/root" --log=/dev/null --force-depends -i "${deb[0]}" > "$scratch/dpkg.out" 2>&1 \
	|| die "dpkg could not install ${deb[0]}: $(tail -n 3 "$scratch/dpkg.out")"
version="${tarball[0]##*/rdma-perftest-}"
version="${version%-linux-x86_64.tar.gz}"
tar_home="$scratch/tar/rdma-perftest-$version"

# The .deb's control: the verbs libraries, no JDK; its files only under /opt/rdma-perftest and /usr.
depends="$(dpkg-deb -f "${deb[0]}" Depends)"
if [[ "$depends" == *libibverbs1* && "$depends" == *librdmacm1* && ! "$depends" =~ (jdk|jre|java) ]]; then
	pass ".deb depends on: $depends"
else
	fail ".deb depends on: $depends (wanted libibverbs1 and librdmacm1, no Java)"
fi
stray="$(dpkg-deb -c "${deb[0]}" | awk '{print $6}' | grep -Ev '^\./(opt/(rdma-perftest/.*)?|usr/(bin/(rdma-perftest)?|share/((man/(man1/.*)?)|(bash-completion/(completions/.*)?))?)?)?$' || true)"
[[ -z "$stray" ]] && pass ".deb installs under /opt/rdma-perftest and /usr only" || fail ".deb installs elsewhere: $stray"

# Each installed copy: the tar.gz's launcher, and the .deb's /usr/bin link (relative, so it resolves here too).
for launcher in "$tar_home/bin/rdma-perftest" "$scratch/root/usr/bin/rdma-perftest"; do
	where="${launcher#"$scratch"/}"
	# "rdma-perftest VERSION (commit ABBREV...)" or "(unknown commit)" for a build outside git, then "commit ...".
	if run "$launcher" --version && grep -Eq "^rdma-perftest $version( \\(|$)" "$scratch/out" \
		&& grep -Eq "^commit ([0-9a-f]{40}|unknown)" "$scratch/out"; then
		pass "$where --version: $(head -n 1 "$scratch/out")"
	else
		fail "$where --version: $(head -n 3 "$scratch/out")"
	fi
	# -XX:AOTMode=on: the JVM refuses to start when it cannot use the cache (made for another JVM build, or a
	# class path that does not match): a start means the packaged runtime accepted the package's cache.
	if RDMA_PERFTEST_JAVA_OPTS="-XX:AOTMode=on -Xlog:aot=info:stdout" run "$launcher" --version \
		&& grep -q "Opened AOT cache" "$scratch/out"; then
		pass "$where: the AOT cache is accepted by the packaged runtime"
	else
		fail "$where: the AOT cache is refused: $(grep -i -m 3 -E "error|unable|mismatch" "$scratch/out")"
	fi
	home="$(dirname "$(dirname "$(readlink -f "$launcher")")")"
	if run "$home/bin/ib_write_bw" --help && grep -q "Usage: rdma-perftest ib_write_bw" "$scratch/out"; then
		pass "$where: ib_write_bw --help"
	else
		fail "$where: ib_write_bw --help: $(head -n 3 "$scratch/out")"
	fi
done

# Start-up, counted in classes (load-independent, unlike a time; docs/startup.md): the installed server with its
# AOT cache, up to its listen (a device that does not exist: it listens, then exits 2, here and on rxe alike).
# Bounds, and why: (1) classes loaded before the listen <= STARTUP_MAX_CLASSES (546 when set, 561 in the VM; a
# trivial JVM loads ~400): each costs start-up time under emulation, and the three regressions measured were +150
# (linking cli.Main, and with it picocli, before the listen), +1,160 (a cache made with AOT class linking, which
# loads every class it holds before main) and +60 (the security properties file read, below); (2) none of them
# from picocli (never archivable: Java 5 class files), and not java.security.Security (the 72 KB java.security
# parsed by the interpreter before the listen, when jdk.includeInExceptions is not a system property); (3) at
# most STARTUP_MAX_UNCACHED not served by the cache (0 when set): one outside it is parsed and verified from
# its jar, or spun at run time (a lambda, a string concatenation), each pulling in more.
STARTUP_MAX_CLASSES=590
STARTUP_MAX_UNCACHED=8
classes="$scratch/classes.log"
RDMA_PERFTEST_JAVA_OPTS="-Xlog:class+load=info:file=$classes" \
	run "$tar_home/bin/rdma-perftest" ib_write_bw --ib-dev rdma-ffm-no-such-device -p 18613 || true
listen_line="$(grep -n -m 1 ' io\.rdmaffm\.perftest\.exchange\.ExchangeListener ' "$classes" 2> /dev/null | cut -d: -f1)"
if [[ -z "$listen_line" ]]; then
	fail "start-up classes: the server never reached its listen: $(head -n 3 "$scratch/out")"
else
	before="$(head -n "$listen_line" "$classes")"
	n_before="$(wc -l <<< "$before")"
	uncached="$(grep -v 'source: shared objects file' <<< "$before" || true)"
	n_uncached="$(grep -c . <<< "$uncached" || true)"
	picocli="$(grep -c ' picocli\.' <<< "$before" || true)"
	security="$(grep -c ' java\.security\.Security ' <<< "$before" || true)"
	if ((n_before <= STARTUP_MAX_CLASSES && n_uncached <= STARTUP_MAX_UNCACHED && picocli == 0 && security == 0)); then
		pass "start-up: $n_before classes before the listen (bound $STARTUP_MAX_CLASSES), $n_uncached not from the AOT cache (bound $STARTUP_MAX_UNCACHED), no picocli, no security properties file"
	else
		fail "start-up: $n_before classes before the listen (bound $STARTUP_MAX_CLASSES), $n_uncached not from the AOT cache (bound $STARTUP_MAX_UNCACHED), $picocli picocli, $security java.security.Security: $(head -n 5 <<< "$uncached" | awk '{print $2}' | tr '\n' ' ')"
	fi
fi

# Man pages (roff, one per command) and bash completion, in each package's place.
for page in "$tar_home/share/man/man1/rdma-perftest-ib_write_bw.1" "$scratch/root/usr/share/man/man1/rdma-perftest-doctor.1.gz"; do
	if zcat -f "$page" | grep -q '^\.TH "RDMA\\-PERFTEST'; then pass "man page ${page#"$scratch"/}"; else fail "man page ${page#"$scratch"/}"; fi
done
for completion in "$tar_home/share/bash-completion/completions/rdma-perftest" \
	"$scratch/root/usr/share/bash-completion/completions/rdma-perftest"; do
	if bash -c 'source "$1" && complete -p rdma-perftest' _ "$completion" > /dev/null 2>&1; then
		pass "completion ${completion#"$scratch"/}"
	else
		fail "completion ${completion#"$scratch"/}"
	fi
done

# doctor: it runs everywhere; exit 0/1/2 is its verdict (OK/WARN/FAIL), anything else a broken install.
pt="$scratch/root/usr/bin/rdma-perftest"
doctor=(doctor)
[[ -n "${RDMA_DEVICE:-}" ]] && doctor+=(--device "$RDMA_DEVICE")
status=0
run "$pt" "${doctor[@]}" || status=$?
if ((status <= 2)) && grep -q "^summary: " "$scratch/out" && { [[ -z "${RDMA_DEVICE:-}" ]] || grep -q "$RDMA_DEVICE" "$scratch/out"; }; then
	pass "doctor ${doctor[*]:1}: $(grep "^summary: " "$scratch/out")"
else
	fail "doctor ${doctor[*]:1} (exit $status): $(tail -n 5 "$scratch/out")"
fi

# Loopback on the device: the .deb's ib_write_bw server, the tar.gz's rdma-perftest ib_write_bw client.
if [[ -n "${RDMA_DEVICE:-}" ]]; then
	port=18611
	args=(-d "$RDMA_DEVICE" -x "${RDMA_GID_INDEX:-1}" -p "$port" -s 65536 -n 500)
	installed "$scratch/root/opt/rdma-perftest/bin/ib_write_bw" "${args[@]}" > "$scratch/server" 2>&1 &
	server=$!
	status=0
	# Until it listens, or has ended (a server that failed at once is not waited for).
	for ((tenths = 0; tenths < 1800; tenths++)); do
		wait_tcp_listening "$port" 1 2> /dev/null && break
		kill -0 "$server" 2> /dev/null || break
	done
	if wait_tcp_listening "$port" 1 2> /dev/null; then
		run "$tar_home/bin/rdma-perftest" ib_write_bw "${args[@]}" "${RDMA_IP:?RDMA_IP not set}" || status=$?
	else
		status=124
	fi
	wait "$server" || status=$?
	# The row: #bytes, #iterations, BW peak, BW average, MsgRate; the average must be a positive number.
	row="$(awk '/#bytes/ {getline; print; exit}' "$scratch/out")"
	if ((status == 0)) && awk '$1 == 65536 && $4 + 0 > 0 {ok=1} END {exit !ok}' <<< "$row"; then
		pass "loopback ib_write_bw on $RDMA_DEVICE: $row"
	else
		fail "loopback ib_write_bw on $RDMA_DEVICE (exit $status): $(tail -n 5 "$scratch/out") / server: $(tail -n 3 "$scratch/server")"
	fi
else
	echo "skip loopback ib_write_bw: no RDMA device here (run through scripts/rdma-env.sh)"
fi

((failed == 0)) && echo "installed package: every check passed" || echo "installed package: some checks FAILED"
exit "$failed"
