package io.rdmaffm.perftest.interop;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Another host of the test cluster, reached with plain ssh (BatchMode: keys and known hosts set up beforehand,
 * as scripts/rxe-vms.sh does for its guests, or as on a real cluster). Every wait is bounded, and every remote
 * command runs under {@code timeout} so that nothing outlives a test that gave up on it.
 */
final class RemoteHost {
    /** The repository root: the same path on every host (shared), as the VM harness and a cluster's NFS give. */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    static final String LISTENING = "remote-server: listening on ";

    final String name;

    RemoteHost(String name) {
        this.name = name;
    }

    /** The hosts of this run (RDMA_HOSTS, first = this one); skips unless there are at least two. */
    static List<String> clusterHosts() {
        String hosts = System.getenv("RDMA_HOSTS");
        List<String> all = hosts == null ? List.of() : List.of(hosts.trim().split("\\s+"));
        Assumptions.assumeTrue(all.size() >= 2,
                "needs two hosts (RDMA_HOSTS unset): run with scripts/test.sh --multihost-only or under scripts/rxe-vms.sh");
        return all;
    }

    /** Runs {@code command} there and returns its output; fails on a non-zero exit or after {@code seconds}. */
    String run(long seconds, List<String> command) throws Exception {
        Started p = start(seconds, command);
        PerftestPeers.Outcome o = p.await(seconds + 10);
        if (o.exitCode() != 0) {
            throw new AssertionError("ssh " + name + " " + command + ": exit " + o.exitCode() + "\n" + o.output());
        }
        return o.output();
    }

    /** Starts {@code command} there; it is ended there after {@code seconds}. */
    Started start(long seconds, List<String> command) throws IOException {
        return new Started(List.of("ssh", name, "exec timeout -k 5 " + seconds + " " + quote(command)));
    }

    /**
     * Starts a server there with scripts/vm/remote-server.sh (which says when it listens: on TCP, or as an
     * rdma_cm id for perftest -R) and waits until it listens, at most {@code listenSeconds}.
     */
    Started startServer(int port, boolean rdmaCm, long seconds, long listenSeconds, List<String> command)
            throws Exception {
        List<String> line = concat(List.of(ROOT.resolve("scripts/vm/remote-server.sh").toString(), String.valueOf(port),
                rdmaCm ? "rdma_cm" : "tcp", String.valueOf(seconds), "--"), command.toArray(String[]::new));
        Started server = new Started(List.of("ssh", name, quote(line)));
        try {
            server.awaitLine(LISTENING + port, listenSeconds);
        } catch (AssertionError e) {
            server.process.destroyForcibly();
            throw e;
        }
        return server;
    }

    /** The RoCE v2 GIDs of {@code device} port 1 there, by index. */
    GidTable gids(String device) throws Exception {
        return GidTable.parse(run(60, List.of("sh", "-c", GidTable.listing(device))));
    }

    /** A process started over ssh, its output in a file. */
    static final class Started implements PerftestPeers.Peer {
        private final Process process;
        private final Path log;

        Started(List<String> command) throws IOException {
            log = Files.createTempFile("remote", ".out");
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        }

        void awaitLine(String text, long seconds) throws Exception {
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < deadline) {
                if (Files.readString(log).contains(text)) {
                    return;
                }
                if (!process.isAlive()) {
                    throw new AssertionError("ended (exit " + process.exitValue() + ") before '" + text + "'\n"
                            + Files.readString(log));
                }
                Thread.sleep(100);
            }
            throw new AssertionError("no '" + text + "' within " + seconds + " s\n" + Files.readString(log));
        }

        /**
         * For a process that reports several servers (RemoteServers): waits for the end of the server on
         * {@code port} and returns its exit status and output.
         */
        PerftestPeers.Outcome awaitServer(int port, long seconds) throws Exception {
            String begin = "=== begin " + port + " ===\n";
            String end = "=== end " + port + " exit ";
            awaitLine(end, seconds);
            String log = Files.readString(this.log);
            int b = log.indexOf(begin);
            int e = log.indexOf(end);
            int status = Integer.parseInt(log.substring(e + end.length(), log.indexOf(' ', e + end.length())));
            return new PerftestPeers.Outcome(status, log.substring(b + begin.length(), e));
        }

        @Override
        public PerftestPeers.Outcome await(long seconds) throws Exception {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                return new PerftestPeers.Outcome(-1, "did not finish within " + seconds + " s\n" + Files.readString(log));
            }
            String out = Files.readString(log).replaceAll("(?m)^" + LISTENING + "\\d+\n", "");
            Files.deleteIfExists(log);
            return new PerftestPeers.Outcome(process.exitValue(), out);
        }
    }

    /** One host's GID table (values as sysfs prints them), and the choice perftest makes from it. */
    record GidTable(TreeMap<Integer, String> values, TreeMap<Integer, String> types) {
        private static final String IPV4_MAPPED = "0000:0000:0000:0000:0000:ffff:";

        /** A shell script listing "gids/N:VALUE" and "gid_attrs/types/N:TYPE" lines (unused entries: no type). */
        static String listing(String device) {
            return "cd /sys/class/infiniband/" + device + "/ports/1 && grep -H . gids/* gid_attrs/types/* 2>/dev/null; true";
        }

        /** This host's table, read from sysfs here. */
        static GidTable local(String device) throws Exception {
            Process p = new ProcessBuilder("sh", "-c", listing(device)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor(30, TimeUnit.SECONDS);
            return parse(out);
        }

        static GidTable parse(String listing) {
            TreeMap<Integer, String> values = new TreeMap<>();
            TreeMap<Integer, String> types = new TreeMap<>();
            for (String line : listing.split("\n")) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String file = line.substring(0, colon);
                int index = Integer.parseInt(file.substring(file.lastIndexOf('/') + 1));
                String value = line.substring(colon + 1).trim();
                if (file.startsWith("gids/") && !value.equals("0000:0000:0000:0000:0000:0000:0000:0000")) {
                    values.put(index, value);
                } else if (file.startsWith("gid_attrs/types/")) {
                    types.put(index, value);
                }
            }
            return new GidTable(values, types);
        }

        /** The RoCE v2 IPv4-mapped GID (perftest's choice for RoCE); fails when there is none. */
        int ipv4Index() {
            return first(IPV4_MAPPED);
        }

        /** The first RoCE v2 GID of an IPv6 unique local address (fc00::/7), or -1. */
        int ulaIndex() {
            for (var e : values.entrySet()) {
                if (e.getValue().matches("f[cd]..:.*") && "RoCE v2".equals(types.get(e.getKey()))) {
                    return e.getKey();
                }
            }
            return -1;
        }

        /** The first RoCE v2 GID of an IPv6 address (link-local included; not IPv4-mapped), or -1. */
        int ipv6Index() {
            for (var e : values.entrySet()) {
                if (!e.getValue().startsWith(IPV4_MAPPED) && "RoCE v2".equals(types.get(e.getKey()))) {
                    return e.getKey();
                }
            }
            return -1;
        }

        private int first(String prefix) {
            for (var e : values.entrySet()) {
                if (e.getValue().startsWith(prefix) && "RoCE v2".equals(types.get(e.getKey()))) {
                    return e.getKey();
                }
            }
            throw new AssertionError("no RoCE v2 GID starting " + prefix + " in " + values + " " + types);
        }

        /** The GID at {@code index} as perftest prints it: 16 decimal bytes. */
        int[] bytes(int index) {
            String hex = values.get(index).replace(":", "");
            int[] b = new int[16];
            for (int i = 0; i < 16; i++) {
                b[i] = Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
            }
            return b;
        }

        /** The IP address in the GID at {@code index} (IPv4 for an IPv4-mapped GID). */
        InetAddress address(int index) throws UnknownHostException {
            int[] b = bytes(index);
            byte[] raw = new byte[16];
            for (int i = 0; i < 16; i++) {
                raw[i] = (byte) b[i];
            }
            return InetAddress.getByAddress(raw);
        }
    }

    /** The words as one command line for the remote shell, each single-quoted. */
    static String quote(List<String> words) {
        StringBuilder sb = new StringBuilder();
        for (String w : words) {
            sb.append(sb.isEmpty() ? "'" : " '").append(w.replace("'", "'\\''")).append('\'');
        }
        return sb.toString();
    }

    static List<String> concat(List<String> a, String... b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(List.of(b));
        return out;
    }
}
