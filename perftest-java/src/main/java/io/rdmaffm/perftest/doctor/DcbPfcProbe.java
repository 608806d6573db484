package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.Reading;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Reads PFC with iproute2's {@code dcb -j pfc show dev IF} (iproute2 ≥ 5.11; no root needed to read).
 * Only meaningful on the live host, never for a captured tree.
 */
public final class DcbPfcProbe implements PfcProbe {
    private static final List<String> LOCATIONS = List.of("/usr/sbin/dcb", "/sbin/dcb", "/usr/bin/dcb", "/bin/dcb");

    private final Path dcb;

    private DcbPfcProbe(Path dcb) {
        this.dcb = dcb;
    }

    /**
     * The probe for the host whose sysfs is under {@code sysfsRoot}: {@code dcb} answers only about the live host,
     * so a captured tree (tests, {@code --sysfs-root}) gets one that says PFC was not asked.
     *
     * @throws IOException when {@code sysfsRoot} cannot be resolved
     */
    public static PfcProbe forSysfsRoot(Path sysfsRoot) throws IOException {
        return sysfsRoot.toRealPath().equals(Path.of("/").toRealPath()) ? forLiveHost()
                : PfcProbe.unavailable("PFC is not in sysfs and dcb is only asked about the live host");
    }

    /**
     * @return a probe using the installed {@code dcb}, or one that explains it is not installed
     */
    public static PfcProbe forLiveHost() {
        for (String l : LOCATIONS) {
            Path p = Path.of(l);
            if (Files.isExecutable(p)) {
                return new DcbPfcProbe(p);
            }
        }
        return PfcProbe.unavailable("PFC lives in DCB netlink, not sysfs, and iproute2's dcb is not installed");
    }

    @Override
    public Reading<List<Integer>> pfcPriorities(String netdev) {
        if (!netdev.matches("[A-Za-z0-9_.:@-]{1,15}")) {
            return Reading.unknown("unusual netdev name, dcb not asked");
        }
        try {
            Process p = new ProcessBuilder(dcb.toString(), "-j", "pfc", "show", "dev", netdev)
                    .redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readNBytes(64 * 1024);
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Reading.unknown("dcb did not answer within 5 s");
            }
            String text = new String(out, StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                String first = text.isEmpty() ? "exit " + p.exitValue() : text.lines().findFirst().orElse("");
                return Reading.unknown("dcb pfc show dev " + netdev + ": " + first);
            }
            return parse(text);
        } catch (IOException e) {
            return Reading.unknown("dcb failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Reading.unknown("interrupted while asking dcb");
        }
    }

    /**
     * Parses {@code dcb -j pfc show} output: {@code prio_pfc} as an array of 8 booleans or an object
     * keyed by priority.
     *
     * @param json the output
     * @return the enabled priorities, or why the output was not understood
     */
    static Reading<List<Integer>> parse(String json) {
        Object root;
        try {
            root = Json.parse(json);
        } catch (IllegalArgumentException e) {
            return Reading.unknown("dcb output is not JSON: " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> m) || !m.containsKey("prio_pfc")) {
            return Reading.unknown("dcb output has no prio_pfc");
        }
        List<Integer> on = new ArrayList<>();
        Object v = m.get("prio_pfc");
        if (v instanceof List<?> l) {
            for (int i = 0; i < l.size() && i < 8; i++) {
                if (Boolean.TRUE.equals(l.get(i))) {
                    on.add(i);
                }
            }
        } else if (v instanceof Map<?, ?> pm) {
            for (int i = 0; i < 8; i++) {
                if (Boolean.TRUE.equals(pm.get(Integer.toString(i)))) {
                    on.add(i);
                }
            }
        } else {
            return Reading.unknown("dcb prio_pfc has an unexpected shape");
        }
        return Reading.of(List.copyOf(on));
    }
}
