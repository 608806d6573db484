package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cli.Main;
import io.rdmaffm.perftest.doctor.Json;
import io.rdmaffm.perftest.report.PerftestOutputParser;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import picocli.CommandLine;

/**
 * {@code rdma-perftest matrix} on the three hosts of scripts/rxe-vms.sh --vms 3, for the multihost matrix tests:
 * the driver runs in this JVM (on rxe-host1), every end is perftest-java started over real ssh. Emulated, lossy
 * RDMA: few small messages, long timeouts (a JVM starts in tens of seconds in these guests), never a speed test.
 */
final class MatrixOnVms {
    /** Small and few: each message crosses an emulated segment with retransmissions. */
    static final List<String> TOOL_ARGS = List.of("-s", "4096", "-n", "100", "--warmup", "0");
    /** perftest's MB/sec (2^20 bytes) per Gb/s. */
    static final double MBPS_PER_GBPS = 1e9 / 8 / (1 << 20);

    final List<String> hosts;
    final String device;
    final Path tool;
    private final Path dir;

    /** Skips unless there are three hosts and an RDMA device. */
    MatrixOnVms(Path dir) throws Exception {
        List<String> all = RemoteHost.clusterHosts();
        Assumptions.assumeTrue(all.size() >= 3, "needs three hosts: scripts/rxe-vms.sh --vms 3");
        this.hosts = all.subList(0, 3);
        this.device = PerftestPeers.device();
        this.dir = dir;
        // The guests share the repository at the same path. The JVMs at both ends run with C1 only, as the other
        // cross-host tests' remote JVMs do: under the emulated CPU, C2's compiles cost more than they win here.
        this.tool = RemoteHost.ROOT.resolve("perftest-java/target/matrix-vm/rdma-perftest");
        Files.createDirectories(tool.getParent());
        Files.writeString(tool, "#!/bin/sh\nJDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 exec "
                + RemoteHost.ROOT.resolve("bin/rdma-perftest") + " \"$@\"\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A finished matrix: exit status, stdout, stderr, its --json document, wall time. */
    record Matrix(int code, String out, String err, Map<?, ?> doc, double seconds) {
        List<Map<?, ?>> pairs() {
            List<Map<?, ?>> l = new ArrayList<>();
            for (Object p : (List<?>) doc.get("pairs")) {
                l.add((Map<?, ?>) p);
            }
            return l;
        }
    }

    /**
     * ib_write_bw between every pair of the three hosts, the relative rules off (on an emulated link one pair is
     * routinely half another's, which is no fault here), no retests, generous listen and test bounds.
     */
    Matrix matrix(String name, String... options) throws Exception {
        Path json = dir.resolve(name + ".json");
        List<String> args = new ArrayList<>(List.of("matrix", "--hosts", String.join(",", hosts), "--device", device,
                "--tools", "ib_write_bw", "--tool-path", tool.toString(), "--json", json.toString(),
                "--bw-percent-of-best", "0", "--lat-factor", "0", "--no-retest", "--listen-timeout", "300",
                "--test-timeout", "300"));
        args.addAll(List.of(options));
        args.add("--");
        args.addAll(TOOL_ARGS);
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        long start = System.nanoTime();
        int code = cl.execute(args.toArray(String[]::new));
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "%s (%.0f s, exit %d):%n%s%s%n", args, seconds, code, out, err);
        Map<?, ?> doc = Files.exists(json) ? (Map<?, ?>) Json.parse(Files.readString(json)) : Map.of();
        return new Matrix(code, out.toString(), err.toString(), doc, seconds);
    }

    /**
     * Each measured cell is what its tool printed in that run: the table's average (MB/sec, two decimals) of the
     * attempt's own output, kept in the JSON. Returns how many attempts had figures.
     */
    static int checkCellsAgainstTheToolsTables(Matrix m) {
        int checked = 0;
        for (Object o : (List<?>) m.doc().get("attempts")) {
            Map<?, ?> a = (Map<?, ?>) o;
            if (a.get("bwGbps") == null) {
                continue;
            }
            Map<?, ?> run = (Map<?, ?>) ((List<?>) a.get("tools")).getFirst();
            PerftestOutputParser.Parsed table = PerftestOutputParser.parse((String) run.get("output"));
            assertEquals("MB/sec", table.bwUnit(), a.toString());
            double printed = table.bwRows().getFirst().bwAvg();
            double cell = ((Number) a.get("bwGbps")).doubleValue() * MBPS_PER_GBPS;
            assertEquals(printed, cell, 0.0051, a.get("server") + " <- " + a.get("client"));
            checked++;
        }
        return checked;
    }

    /**
     * The same ib_write_bw by hand, right after: the server over ssh on {@code server}, the client over ssh on
     * {@code client}, as people run it.
     *
     * @return its average bandwidth in Gb/s
     */
    double plainBandwidth(String server, String client) throws Exception {
        int port = PerftestPeers.freshPort();
        List<String> common = new ArrayList<>(List.of(tool.toString(), "ib_write_bw", "-d", device, "-p",
                String.valueOf(port)));
        common.addAll(TOOL_ARGS);
        RemoteHost.Started s = new RemoteHost(server).startServer(port, false, 300, 200, common);
        List<String> c = new ArrayList<>(common);
        c.add(server);
        String out = new RemoteHost(client).run(300, c);
        assertEquals(0, s.await(60).exitCode());
        PerftestOutputParser.Parsed parsed = PerftestOutputParser.parse(out);
        assertEquals("MB/sec", parsed.bwUnit(), out);
        assertEquals(1, parsed.bwRows().size(), out);
        return parsed.bwRows().getFirst().bwAvg() / MBPS_PER_GBPS;
    }

    /**
     * Compares the matrix's figure of pair {@code p} with the plain tool's, which may differ by
     * {@code tolerance} either way.
     */
    void compareWithThePlainTool(Map<?, ?> p, double tolerance) throws Exception {
        String server = (String) p.get("server");
        String client = (String) p.get("client");
        double matrixBw = ((Number) p.get("bwGbps")).doubleValue();
        double plainBw = plainBandwidth(server, client);
        double ratio = matrixBw / plainBw;
        System.out.printf(Locale.ROOT, "%s <- %s: matrix %.5f Gb/s, plain tool %.5f Gb/s, ratio %.2f%n", server,
                client, matrixBw, plainBw, ratio);
        assertTrue(ratio > 1 / tolerance && ratio < tolerance, server + " <- " + client + ": matrix " + matrixBw
                + " Gb/s, plain tool " + plainBw + " Gb/s");
    }

    /**
     * Takes {@code host}'s eth0 (its rxe0's link and its ssh) down; the guest brings it back by itself once
     * {@link #linkUp} says so through the shared folder (nothing can reach it while it is down), or after 15 min.
     *
     * @return the flag for {@link #linkUp}
     */
    Path linkDown(String host) throws Exception {
        Path up = tool.resolveSibling("link-up-" + System.nanoTime());
        new RemoteHost(host).run(30, List.of("sh", "-c", "nohup sh -c 'ip link set eth0 down; i=0; while [ ! -e "
                + up + " ] && [ $i -lt 900 ]; do sleep 1; i=$((i+1)); done; ip link set eth0 up' >/dev/null 2>&1 &"));
        return up;
    }

    /** Lets {@code host} bring its link back and waits until it answers over ssh, at most 120 s. */
    static void linkUp(String host, Path flag) throws Exception {
        Files.writeString(flag, "");
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            Process p = new ProcessBuilder("ssh", "-o", "ConnectTimeout=5", host, "true").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor() == 0) {
                return;
            }
            Thread.sleep(2000);
        }
        throw new AssertionError(host + " did not come back within 120 s");
    }
}
