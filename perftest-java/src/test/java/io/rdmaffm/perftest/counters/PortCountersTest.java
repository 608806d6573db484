package io.rdmaffm.perftest.counters;

import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Sysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Counters read from fixture sysfs trees shaped like mlx5's and rxe's, and their deltas. */
class PortCountersTest {
    @TempDir
    Path root;

    private void write(String rel, String text) throws IOException {
        Path f = root.resolve(rel);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
    }

    private void mlx5(long outOfSeq, long cnp, long xmitWait) throws IOException {
        String p = "sys/class/infiniband/mlx5_0/ports/1/";
        write(p + "hw_counters/out_of_sequence", outOfSeq + "\n");
        write(p + "hw_counters/np_cnp_sent", cnp + "\n");
        write(p + "hw_counters/lifespan", "10\n");
        write(p + "counters/port_xmit_wait", xmitWait + "\n");
        write(p + "counters/port_xmit_data", "N/A (no PMA)\n");
        write("sys/class/infiniband/mlx5_0/hw_counters/num_page_faults", "3\n");
    }

    private static EthtoolStats ethtool(long pause) {
        return n -> Reading.of(Map.of("rx_prio3_pause", pause, "tx_prio3_pause", 0L));
    }

    @Test
    void mlx5PortIsReadByPerftestNamesWithDeviceAndEthtoolGroups() throws IOException {
        mlx5(7, 1, 100);
        PortCounters c = PortCounters.take(new Sysfs(root), "mlx5_0", 1, "eth2", ethtool(5));
        assertEquals(7L, c.value("hw_counters/out_of_sequence").value());
        assertEquals(100L, c.value("counters/port_xmit_wait").value());
        assertEquals(3L, c.value("device/hw_counters/num_page_faults").value());
        assertEquals(5L, c.value("ethtool/rx_prio3_pause").value());
        assertFalse(c.values().containsKey("hw_counters/lifespan"));
        assertEquals("not a number: 'N/A (no PMA)'", c.value("counters/port_xmit_data").problem());
        assertEquals("mlx5_0 port 1 has no hw_counters/rp_cnp_handled", c.value("hw_counters/rp_cnp_handled").problem());
    }

    @Test
    void rxeHasNoPmaCountersNoDeviceGroupAndNoEthtool() throws IOException {
        write("sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts", "12\n");
        PortCounters c = PortCounters.take(new Sysfs(root), "rxe0", 1, "veth0",
                EthtoolStats.unavailable("ethtool is not installed"));
        assertEquals(12L, c.value("hw_counters/rcvd_pkts").value());
        assertEquals("rxe0 port 1 has no counters/ directory", c.value("counters/port_xmit_wait").problem());
        assertEquals("rxe0 has no device/hw_counters/ directory", c.value("device/hw_counters/x").problem());
        assertEquals("ethtool is not installed", c.value("ethtool/rx_prio3_pause").problem());
        assertEquals("rxe0 port 1 has no hw_counters/out_of_sequence", c.value("hw_counters/out_of_sequence").problem());
    }

    @Test
    void deltasAreIncreasesAndAbsentCountersAreNeverZero() throws IOException {
        Sysfs fs = new Sysfs(root);
        mlx5(7, 1, 100);
        PortCounters before = PortCounters.take(fs, "mlx5_0", 1, "eth2", ethtool(5));
        mlx5(9, 1, 160);
        write("sys/class/infiniband/mlx5_0/hw_counters/num_page_faults", "2\n");
        PortCounters after = PortCounters.take(fs, "mlx5_0", 1, "eth2", ethtool(8));
        CounterChange ch = new CounterChange(before, after);
        assertEquals(2L, ch.delta("hw_counters/out_of_sequence").value());
        assertEquals(0L, ch.delta("hw_counters/np_cnp_sent").value());
        assertEquals(60L, ch.delta("counters/port_xmit_wait").value());
        assertEquals(3L, ch.delta("ethtool/rx_prio3_pause").value());
        assertEquals("device/hw_counters/num_page_faults went down from 3 to 2 (reset)",
                ch.delta("device/hw_counters/num_page_faults").problem());
        assertFalse(ch.delta("hw_counters/rp_cnp_handled").known());
        CounterChange.Delta watched = ch.deltas().stream()
                .filter(d -> d.key().equals("hw_counters/rp_cnp_handled")).findFirst().orElseThrow();
        assertEquals("mlx5_0 port 1 has no hw_counters/rp_cnp_handled", watched.delta().problem());
        assertTrue(ch.deltas().stream().anyMatch(d -> d.key().equals("ethtool/tx_prio3_pause")
                && d.delta().known() && d.delta().value() == 0L));
    }

    @Test
    void countersAbove2To63AreUnsigned() throws IOException {
        write("sys/class/infiniband/x/ports/1/hw_counters/big", "18446744073709551615\n");
        write("sys/class/infiniband/x/ports/1/hw_counters/huge", "18446744073709551616\n");
        PortCounters c = PortCounters.take(new Sysfs(root), "x", 1, null, EthtoolStats.unavailable("-"));
        assertEquals("18446744073709551615", Long.toUnsignedString(c.value("hw_counters/big").value()));
        assertFalse(c.value("hw_counters/huge").known());
        assertEquals("x port 1 has no netdev", c.value("ethtool/rx_pause").problem());
    }

    @Test
    void ethtoolOutputParses() {
        Reading<Map<String, Long>> r = EthtoolStats.parse("""
                NIC statistics:
                     rx_packets: 1234
                     rx_prio3_pause: 7
                     rx_prio3_pause_duration: 70
                     tx_pause_storm_warning_events: 0
                     weird line
                """);
        assertEquals(Map.of("rx_packets", 1234L, "rx_prio3_pause", 7L, "rx_prio3_pause_duration", 70L,
                "tx_pause_storm_warning_events", 0L), r.value());
        assertEquals("ethtool -S printed no statistics", EthtoolStats.parse("no stats available").problem());
    }
}
