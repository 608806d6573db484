package io.rdmaffm.verbs.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Parsing of every kernel spelling of the attributes the model reads. */
class ParsersTest {

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
            "100 Gb/sec (4X EDR)|100.0|4|EDR",
            "2.5 Gb/sec (1X SDR)|2.5|1|SDR",
            "10 Gb/sec (4X)|10.0|4|''",          // old kernels: no SDR label
            "56 Gb/sec (4X FDR)|56.0|4|FDR",
            "40 Gb/sec (4X FDR10)|40.0|4|FDR10",
            "400 Gb/sec (4X NDR)|400.0|4|NDR",
            "1600 Gb/sec (8X XDR)|1600.0|8|XDR",
            "5 Gb/sec (1X DDR)|5.0|1|DDR",
            "30 Gb/sec (12X)|30.0|12|''",
            "200 Gb/sec (2X NDR)|200.0|2|NDR",
    })
    void portRates(String text, double gbps, int width, String name) {
        PortRate r = PortRate.parse(text + "\n").value();
        assertEquals(gbps, r.gbps());
        assertEquals(width, r.width());
        assertEquals(name, r.speedName());
        assertEquals(name.isEmpty() || name.equals("SDR"), r.isSdr());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "100 Gb/s (4X EDR)", "100 Gb/sec", "0 Gb/sec (4X)", "100 Gb/sec (0X EDR)",
            "99999999999999999999 Gb/sec (4X)", "1.2 Gb/sec (1X)"})
    void badRates(String text) {
        Reading<PortRate> r = PortRate.parse(text);
        assertFalse(r.known());
        assertTrue(r.problem().contains("rate"), r.problem());
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource({
            "16.0 GT/s PCIe, 16.0, 4",
            "16 GT/s, 16.0, 4",
            "2.5 GT/s PCIe, 2.5, 1",
            "2.5 GT/s, 2.5, 1",
            "5 GT/s, 5.0, 2",
            "5.0 GT/s PCIe, 5.0, 2",
            "8 GT/s, 8.0, 3",
            "32.0 GT/s PCIe, 32.0, 5",
            "64.0 GT/s PCIe, 64.0, 6",
    })
    void pcieSpeeds(String text, double gt, int gen) {
        PcieSpeed s = PcieSpeed.parse(text).value();
        assertEquals(gt, s.gigaTransfers());
        assertEquals(gen, s.generation());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Unknown", "Unknown speed", "fast", "GT/s", "-8 GT/s", "0 GT/s"})
    void unknownPcieSpeeds(String text) {
        assertFalse(PcieSpeed.parse(text).known());
    }

    @Test
    void codedStates() {
        assertEquals(new CodedState(4, "ACTIVE"), CodedState.parse("4: ACTIVE\n").value());
        assertEquals(new CodedState(5, "LinkUp"), CodedState.parse("5: LinkUp").value());
        assertEquals(new CodedState(4, "PortConfigurationTraining"),
                CodedState.parse("4: PortConfigurationTraining").value());
        assertEquals(new CodedState(1, "CA"), CodedState.parse("1: CA").value());
        assertFalse(CodedState.parse("ACTIVE").known());
        assertFalse(CodedState.parse("").known());
    }

    @Test
    void gids() {
        Gid v4 = new Gid(3, "0000:0000:0000:0000:0000:ffff:0a4d:0001", Reading.of("RoCE v2"), Reading.of("veth0"));
        assertEquals(Optional.of("10.77.0.1"), v4.ipv4());
        assertTrue(v4.isRoceV2());
        assertFalse(v4.isLinkLocal());
        Gid ll = new Gid(0, "fe80:0000:0000:0000:0e42:a1ff:fe1d:d12a", Reading.of("IB/RoCE v1"), Reading.unknown("-"));
        assertTrue(ll.isLinkLocal());
        assertFalse(ll.isRoceV2());
        assertEquals(Optional.empty(), ll.ipv4());
        assertTrue(Gid.isEmptySlot("0000:0000:0000:0000:0000:0000:0000:0000"));
        assertTrue(Gid.isEmptySlot("fe80:0000:0000:0000:0000:0000:0000:0000"));
        assertFalse(Gid.isEmptySlot("fe80:0000:0000:0000:0000:0000:0000:0001"));
        assertFalse(Gid.isWellFormed("not-a-gid"));
    }

    @Test
    void readingHasExactlyOneSide() {
        assertThrows(IllegalArgumentException.class, () -> new Reading<>(null, null));
        assertThrows(IllegalArgumentException.class, () -> new Reading<>(1, "both"));
        assertEquals("unknown (why)", Reading.unknown("why").describe());
        assertEquals(Reading.of(2), Reading.of(1).map(x -> x + 1));
        assertEquals("why", Reading.<Integer>unknown("why").map(x -> x + 1).problem());
    }

    @Test
    void maxPayloadFromConfigSpace() {
        byte[] cfg = pmThenPcieWithPayload512();
        assertEquals(Reading.of(512), ConfigSpace.maxPayload(cfg));
        assertTrue(ConfigSpace.maxPayload(java.util.Arrays.copyOf(cfg, 64)).problem().contains("needs root"));
        cfg[0x61] = 0x50; // a list that loops back and has no PCIe capability
        cfg[0x60] = 0x05;
        assertEquals("no PCI Express capability in config space", ConfigSpace.maxPayload(cfg).problem());
        assertFalse(ConfigSpace.maxPayload(new byte[10]).known());
    }

    @Test
    void relaxedOrderingFromTheSamePcieCapability() {
        byte[] cfg = pmThenPcieWithPayload512();
        assertEquals(Reading.of(false), ConfigSpace.relaxedOrdering(cfg));
        cfg[0x68] |= 1 << 4;
        assertEquals(Reading.of(true), ConfigSpace.relaxedOrdering(cfg));
        assertEquals(Reading.of(512), ConfigSpace.maxPayload(cfg));
        assertTrue(ConfigSpace.relaxedOrdering(java.util.Arrays.copyOf(cfg, 64)).problem().contains("needs root"));
        cfg[0x06] = 0;
        assertEquals("config space has no capability list", ConfigSpace.relaxedOrdering(cfg).problem());
    }

    /** 256 bytes of config space as root reads it: power management at 0x50, then PCI Express at 0x60. */
    private static byte[] pmThenPcieWithPayload512() {
        byte[] cfg = new byte[256];
        cfg[0x06] = 0x10;
        cfg[0x34] = 0x50;
        cfg[0x50] = 0x01; // power management first
        cfg[0x51] = 0x60;
        cfg[0x60] = 0x10; // then PCI Express
        cfg[0x68] = (byte) (2 << 5); // Device Control: Max_Payload_Size 512
        return cfg;
    }

    @Test
    void acsControlFromTheExtendedCapabilityList() {
        byte[] cfg = new byte[4096];
        cfg[0x100] = 0x01; // AER first, next at 0x140
        cfg[0x102] = 0x01;
        cfg[0x103] = 0x14;
        cfg[0x140] = 0x0d; // then ACS, end of list
        cfg[0x142] = 0x01;
        cfg[0x146] = 0x2c; // RR CR EC
        assertEquals(Reading.of(0x2c), ConfigSpace.acsControl(cfg));
        cfg[0x140] = 0x0b; // no ACS anywhere: nothing redirected
        assertEquals(Reading.of(0), ConfigSpace.acsControl(cfg));
        cfg[0x103] = 0x10; // a list that loops back to itself still ends
        assertEquals(Reading.of(0), ConfigSpace.acsControl(cfg));
        assertTrue(ConfigSpace.acsControl(new byte[256]).problem().contains("needs root"));
    }
}
