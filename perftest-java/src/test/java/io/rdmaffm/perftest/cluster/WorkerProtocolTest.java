package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The worker's line protocol: orders survive any argument, events any bytes a tool prints, on one line each. */
class WorkerProtocolTest {

    @Test
    void anOrderCarriesAnyArgumentsExactly() {
        List<String> argv = List.of("ib_write_bw", "-d", "mlx5_0", "", "a b", "it's \"x\"", "100%", "line\nbreak",
                "tab\there", "ünï©ødé", "--", "$(reboot)");
        String line = WorkerProtocol.run(42, true, argv);
        assertFalse(line.contains("\n"), line);
        assertTrue(line.chars().allMatch(c -> c >= 0x20 && c < 0x7f), line);
        assertTrue(line.startsWith("run 42 json ib_write_bw -d mlx5_0  a%20b "), line);
        WorkerProtocol.Order o = WorkerProtocol.order(line);
        assertEquals(42, o.id());
        assertTrue(o.json());
        assertEquals(argv, o.argv());
        assertEquals(List.of("ib_write_lat"), WorkerProtocol.order(WorkerProtocol.run(1, false, List.of(
                "ib_write_lat"))).argv());
        assertNull(WorkerProtocol.order(WorkerProtocol.quit()));
    }

    @Test
    void aBadOrderIsRefused() {
        for (String bad : List.of("", "run", "run 1 json", "run x json ib_write_bw", "run 1 maybe ib_write_bw",
                "run 1 json ib_write_bw%", "run 1 json a%zz", "exec sh")) {
            assertThrows(IllegalArgumentException.class, () -> WorkerProtocol.order(bad), bad);
        }
    }

    @Test
    void eventsEscapeWhatToolsPrint() {
        String nasty = "\u001b[2K\rrow\u0000 \"q\" \\ \u2028 end";
        String line = WorkerProtocol.line(7, nasty);
        assertFalse(line.contains("\n") || line.contains("\r") || line.contains("\u001b") || line.contains("\u0000"),
                line);
        WorkerProtocol.Event e = WorkerProtocol.event(line);
        assertEquals("line", e.kind());
        assertEquals(7, e.id());
        assertEquals(nasty, e.text());

        WorkerProtocol.Event d = WorkerProtocol.event(WorkerProtocol.done(7, 3, "{\"results\": {}}\n"));
        assertEquals(List.of("done", 7L, 3, "{\"results\": {}}\n"), List.of(d.kind(), d.id(), d.rc(), d.json()));
        assertNull(WorkerProtocol.event(WorkerProtocol.done(8, 0, null)).json());
        WorkerProtocol.Event r = WorkerProtocol.event(WorkerProtocol.ready(1234));
        assertEquals(List.of("ready", 1234L), List.of(r.kind(), r.pid()));
    }

    @Test
    void noiseIsNoEvent() {
        for (String noise : List.of("", "OpenJDK 64-Bit Server VM warning: ...", "{\"event\":", "{\"event\":3}",
                "{\"x\":\"line\"}", "@rdma-matrix pid 5")) {
            assertNull(WorkerProtocol.event(noise), noise);
        }
    }
}
