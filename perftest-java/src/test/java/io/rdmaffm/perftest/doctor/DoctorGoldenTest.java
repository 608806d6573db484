package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rdmaffm.perftest.Golden;
import io.rdmaffm.perftest.json.JsonReader;
import io.rdmaffm.perftest.report.BuildInfo;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The human text and the JSON of every fixture host, byte for byte, against the files under
 * {@code src/test/resources/doctor-golden/}: what users and scripts parse must not change by accident.
 * The fixture's temporary root is written as {@code <ROOT>}; see {@link Golden} to accept an intended change.
 */
class DoctorGoldenTest {

    @TempDir
    Path dir;

    static Stream<String> hosts() {
        return Stream.of("h100", "a100", "cx7InGen4Slot", "x8InX16", "dualPort100gGen3", "roceMtu1500", "rxe",
                "oldKernel");
    }

    private static SysfsFixture build(String host, Path root) {
        return switch (host) {
            case "h100" -> Hosts.h100(root);
            case "a100" -> Hosts.a100(root);
            case "cx7InGen4Slot" -> Hosts.cx7InGen4Slot(root);
            case "x8InX16" -> Hosts.x8InX16(root);
            case "dualPort100gGen3" -> Hosts.dualPort100gGen3(root);
            case "roceMtu1500" -> Hosts.roceMtu1500(root);
            case "rxe" -> Hosts.rxe(root);
            case "oldKernel" -> Hosts.oldKernel(root);
            default -> throw new IllegalArgumentException(host);
        };
    }

    /**
     * The text with PFC unknown, on priority 3 and off everywhere; then, with counter deltas attached, the
     * text and the JSON (PFC on priority 3).
     */
    /** A fixed build, so the goldens do not change with every commit. */
    static final BuildInfo BUILD = new BuildInfo("0.1.0-SNAPSHOT", "0123456789abcdef0123456789abcdef01234567", false);

    private static String render(Path root) {
        Topology t = Topology.read(new Sysfs(root));
        List<Function<String, Reading<List<Integer>>>> probes = List.of(nd -> Reading.unknown("not asked in tests"),
                nd -> Reading.of(List.of()), nd -> Reading.of(List.of(3)));
        StringBuilder b = new StringBuilder();
        DoctorReport r = null;
        for (Function<String, Reading<List<Integer>>> probe : probes) {
            r = Doctor.examine(t, null, probe::apply);
            b.append(ReportWriter.human(r)).append("----\n");
        }
        String dev = r.devices().isEmpty() ? "none" : r.devices().getFirst().name();
        r = r.withCounters(new CounterDeltas(2.5, 17, List.of(new CounterDeltas.Delta(dev,
                "1/hw_counters/out_of_sequence", 12), new CounterDeltas.Delta(dev, "1/counters/link_downed", 1)),
                List.of(dev + "/ports/1/hw_counters/x: permission denied")));
        b.append(ReportWriter.human(r)).append("----\n").append(ReportWriter.json(r, BUILD));
        return b.toString().replace(root.toString(), "<ROOT>");
    }

    @Test
    void theJsonNamesTheBuildThatWroteIt() {
        DoctorReport r = Doctor.examine(Topology.read(new Sysfs(build("rxe", dir.resolve("rxe-build")).root())), null,
                nd -> Reading.of(List.of()));
        Map<?, ?> doc = (Map<?, ?>) JsonReader.parse(ReportWriter.json(r));
        assertEquals(BuildInfo.CURRENT.commit(), doc.get("tool_commit"));
        assertEquals(BuildInfo.CURRENT.version(), doc.get("tool_version"));
        assertEquals(BuildInfo.CURRENT.dirty(), doc.get("tool_dirty"));
    }

    @ParameterizedTest
    @MethodSource("hosts")
    void reportIsByteIdenticalToTheGoldenFile(String host) {
        Golden.assertMatches("doctor-golden/" + host + ".txt", render(build(host, dir.resolve(host)).root()));
    }
}
