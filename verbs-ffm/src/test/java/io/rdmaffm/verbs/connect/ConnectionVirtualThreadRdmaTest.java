package io.rdmaffm.verbs.connect;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34: many virtual-thread clients and a virtual-thread server, blocking and future styles, with the carrier
 * parallelism forced in a child JVM ({@link VirtualThreadStress}); idle waits must hold no carrier and every call
 * must make its deadline. CI runs parallelism 1 with 8 clients x 20 rounds (a JVM start on the emulated CPU is
 * most of its time); -Dstress.parallelism=1,2, -Dstress.clients, -Dstress.rounds, -Dstress.deadlineMillis size it
 * (scripts/connect-stress.sh runs the long form).
 */
@Tag("rdma")
class ConnectionVirtualThreadRdmaTest {

    static List<Integer> parallelisms() {
        List<Integer> out = new ArrayList<>();
        for (String p : System.getProperty("stress.parallelism", "1").split(",")) {
            out.add(Integer.parseInt(p.strip()));
        }
        return out;
    }

    @ParameterizedTest(name = "carrier parallelism {0}")
    @MethodSource("parallelisms")
    void manyVirtualClientsMakeEveryDeadline(int parallelism) throws Exception {
        String ip = ConnectedPair.ipv4().getHostAddress();
        String clients = System.getProperty("stress.clients", "8");
        String rounds = System.getProperty("stress.rounds", "20");
        String deadline = System.getProperty("stress.deadlineMillis", "5000");
        List<String> cmd = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "--enable-native-access=ALL-UNNAMED",
                "-Djdk.virtualThreadScheduler.parallelism=" + parallelism,
                "-Djdk.virtualThreadScheduler.maxPoolSize=" + parallelism,
                "-Drdmaffm.connect.carrierTime=true",
                "-Dstress.dumpDir=" + System.getProperty("stress.dumpDir", ""),
                "-Dstress.stallDumps=" + System.getProperty("stress.stallDumps", "3")));
        for (String a : System.getProperty("stress.jvmArgs", "").split(" ")) {
            if (!a.isBlank()) {
                cmd.add(a.replace("{p}", Integer.toString(parallelism)));
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"),
                VirtualThreadStress.class.getName(), ip, clients, rounds, deadline));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String out;
        try (var stdout = p.getInputStream()) {
            out = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the stress JVM did not end: " + out);
        System.out.print(out);
        assertTrue(out.contains("parallelism " + parallelism + ": load:"), "no summary line: " + out);
        assertEquals(0, p.exitValue(), out);
    }
}
