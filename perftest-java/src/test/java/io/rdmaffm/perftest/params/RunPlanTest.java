package io.rdmaffm.perftest.params;

import static io.rdmaffm.perftest.params.Flag.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;

import java.util.List;
import org.junit.jupiter.api.Test;

/** perftest's device-dependent choices (depths, cq_mod, inline, outstanding reads, sizes), without a device. */
class RunPlanTest {
    /** Soft-RoCE: vendor 0xffffff, 128 outstanding reads, active MTU 1024, 2 GiB messages. */
    private static final DeviceFacts RXE = new DeviceFacts(0xffffff, 128, 3, 1L << 31);
    private static final DeviceFacts CONNECTX = new DeviceFacts(DeviceFacts.MELLANOX_VENDOR, 16, 5, 1L << 30);

    private static RunPlan plan(Tool tool, DeviceFacts d, String... flags) {
        return RunPlan.derive(params(tool, flags), d);
    }

    /** The parameters of {@code flags}: each flag by any of its names, its value typed as the parser would. */
    private static RunParameters params(Tool tool, String... flags) {
        ToolOptions o = new ToolOptions().with(DEVICE, "dev0");
        for (int i = 0; i < flags.length; i++) {
            Flag f = Flag.named(flags[i]);
            o = switch (f.kind()) {
                case BOOLEAN -> o.with(f);
                case INT -> o.with(f, Integer.valueOf(flags[++i]));
                case LONG -> o.with(f, Long.valueOf(flags[++i]));
                default -> o.with(f, flags[++i]);
            };
        }
        return ParameterRules.check(tool, o);
    }

    @Test
    void writeBwDefaults() {
        RunPlan p = plan(Tool.WRITE_BW, RXE);
        assertEquals(List.of(65536L), p.sizes());
        assertEquals(128, p.txDepth());
        // 64 KiB > 8 KiB with RC, one size, no events: perftest signals every send.
        assertEquals(1, p.cqMod());
        assertEquals(0, p.inlineSize());
        assertEquals(1, p.outReads());
        assertEquals(3, p.mtu());
    }

    @Test
    void cqModerationDefaultsAndLimits() {
        assertEquals(100, plan(Tool.WRITE_BW, RXE, "-s", "8192").cqMod());
        assertEquals(4, plan(Tool.WRITE_BW, RXE, "-l", "4").cqMod(), "post list sets cq_mod");
        assertEquals(7, plan(Tool.WRITE_BW, RXE, "-Q", "7", "-s", "65536").cqMod(), "given -Q wins");
        assertEquals(16, plan(Tool.WRITE_BW, RXE, "-t", "16", "-s", "2").cqMod(), "at most tx depth");
        assertEquals(100, plan(Tool.WRITE_BW, RXE, "-a").cqMod(), "-a keeps 100");
        assertEquals(100, plan(Tool.SEND_BW, RXE, "-c", "UD", "-s", "1024").cqMod());
        assertEquals(1, plan(Tool.SEND_LAT, RXE).cqMod(), "latency tools signal everything");
    }

    @Test
    void depthsFollowTheIterations() {
        assertEquals(5, plan(Tool.WRITE_BW, RXE, "-n", "5").txDepth());
        assertEquals(128, plan(Tool.WRITE_BW, RXE, "-n", "5", "-D", "4").txDepth(), "no cap in duration mode");
        assertEquals(300, plan(Tool.SEND_BW, RXE, "-n", "300").rxDepth());
        assertEquals(512, plan(Tool.SEND_BW, RXE, "-n", "300", "-D", "4").rxDepth());
        assertEquals(5000, plan(Tool.SEND_BW, RXE, "-n", "5000", "-c", "UC", "-s", "4096").rxDepth(),
                "non-RC default rx depth becomes the iterations");
        assertEquals(1, plan(Tool.WRITE_BW, RXE).rxDepth());
    }

    @Test
    void inlineAndOutstandingReads() {
        assertEquals(220, plan(Tool.WRITE_LAT, CONNECTX).inlineSize());
        assertEquals(236, plan(Tool.SEND_LAT, CONNECTX).inlineSize());
        assertEquals(188, plan(Tool.SEND_LAT, CONNECTX, "-c", "UD").inlineSize());
        assertEquals(0, plan(Tool.SEND_BW, CONNECTX).inlineSize(), "no inline for bandwidth by default");
        assertEquals(0, plan(Tool.WRITE_LAT, RXE).inlineSize());
        assertEquals(64, plan(Tool.SEND_BW, RXE, "-I", "64").inlineSize());
        assertEquals(16, plan(Tool.READ_BW, CONNECTX).outReads());
        assertEquals(4, plan(Tool.READ_LAT, RXE, "-o", "4").outReads());
        assertEquals(16, plan(Tool.ATOMIC_BW, CONNECTX, "-o", "64").outReads(), "at most the device's");
    }

    @Test
    void sizesHaveOneSource() {
        RunPlan all = plan(Tool.WRITE_BW, RXE, "-a");
        assertEquals(23, all.sizes().size());
        assertEquals(2, all.size(0));
        assertEquals(8L << 20, all.largestSize());
        RunPlan ud = plan(Tool.SEND_BW, RXE, "-c", "UD", "-a");
        assertEquals(1024, ud.largestSize(), "UD keeps the sizes within the MTU");
        assertEquals(List.of(8L), plan(Tool.ATOMIC_LAT, RXE).sizes());
        assertEquals(List.of(2048L), plan(Tool.SEND_LAT, RXE, "-c", "UD", "-s", "2048").sizes(),
                "UD's MTU rule waits for the MTU both sides agree on");
        assertThrows(IllegalArgumentException.class, () -> plan(Tool.WRITE_BW, new DeviceFacts(0, 1, 3, 1024)));
    }

    /** perftest's check_mtu on UD, at the MTU both sides agreed on (enum 3 = 1024 B, 2 = 512 B). */
    @Test
    void udSizeWithoutSBecomesTheAgreedMtuWithPerftestsLines() {
        RunParameters p = params(Tool.SEND_BW, "-c", "UD");
        RunPlan.Agreed a = RunPlan.derive(p, RXE).agreed(p, 3);
        assertEquals(List.of(1024L), a.plan().sizes());
        assertEquals(3, a.plan().mtu());
        assertEquals(" Max msg size in UD is MTU 1024\n Changing to this MTU\n", a.notice());
        RunPlan.Agreed smaller = RunPlan.derive(p, RXE).agreed(p, 2);
        assertEquals(List.of(512L), smaller.plan().sizes(), "the peer's smaller MTU decides");
        assertEquals(" Max msg size in UD is MTU 512\n Changing to this MTU\n", smaller.notice());
    }

    @Test
    void udAllSizesStopAtTheAgreedMtuWithPerftestsLines() {
        RunParameters p = params(Tool.SEND_BW, "-c", "UD", "-a");
        RunPlan.Agreed a = RunPlan.derive(p, RXE).agreed(p, 2);
        assertEquals(List.of(2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L), a.plan().sizes());
        assertEquals(" Max msg size in UD is MTU 512\n Changing to this MTU\n", a.notice(),
                "-a compares perftest's 8 MiB");
        RunParameters lat = params(Tool.SEND_LAT, "-c", "UD", "-a");
        assertEquals(1024, RunPlan.derive(lat, RXE).agreed(lat, 3).plan().largestSize());
    }

    @Test
    void udGivenSizeOverTheAgreedMtuIsRefused() {
        RunParameters p = params(Tool.SEND_BW, "-c", "UD", "-s", "4096");
        RunPlan local = RunPlan.derive(p, new DeviceFacts(0xffffff, 128, 5, 1L << 31));
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> local.agreed(p, 3));
        assertEquals("Max message size in UD cannot be greater than MTU (-s 4096, MTU 1024 bytes as agreed with "
                + "the peer)", e.getMessage());
        // -s 65536 given explicitly is refused too, while the same size by default shrinks.
        RunParameters explicitDefault = params(Tool.SEND_BW, "-c", "UD", "-s", "65536");
        assertThrows(InvalidParameterException.class,
                () -> RunPlan.derive(explicitDefault, RXE).agreed(explicitDefault, 3));
    }

    @Test
    void sizesWithinTheMtuAndOtherConnectionsAreKept() {
        RunParameters fits = params(Tool.SEND_BW, "-c", "UD", "-s", "1024");
        RunPlan.Agreed a = RunPlan.derive(fits, RXE).agreed(fits, 3);
        assertEquals(List.of(1024L), a.plan().sizes());
        assertEquals(null, a.notice());
        RunParameters rc = params(Tool.SEND_BW, "-s", "65536");
        RunPlan.Agreed r = RunPlan.derive(rc, RXE).agreed(rc, 2);
        assertEquals(List.of(65536L), r.plan().sizes());
        assertEquals(2, r.plan().mtu());
        assertEquals(null, r.notice());
    }

    @Test
    void mtuIsTheSmallerOfFlagAndPort() {
        assertEquals(2, plan(Tool.WRITE_BW, RXE, "-m", "512").mtu());
        assertEquals(3, plan(Tool.WRITE_BW, RXE, "-m", "4096").mtu());
        assertEquals(4096, RunPlan.mtuBytes(5));
    }

    @Test
    void slotIsAtLeastAPageInWholeCacheLines() {
        RunPlan small = plan(Tool.SEND_LAT, RXE);
        assertEquals(4096, small.slot(false, 4096, 64));
        RunPlan big = plan(Tool.WRITE_BW, RXE, "-s", "5000");
        assertEquals(5120, big.slot(false, 4096, 256));
        RunPlan ud = plan(Tool.SEND_BW, RXE, "-c", "UD", "-s", "1024");
        assertEquals(4096, ud.slot(true, 4096, 64));
        assertEquals(1088, ud.slot(true, 512, 64), "GRH in front of each UD message");
        assertTrue(big.slot(false, 4096, 64) % 64 == 0);
    }

    @Test
    void parametersKeepTheRole() {
        RunParameters server = ParameterRules.check(Tool.WRITE_BW, new ToolOptions());
        assertEquals(Role.SERVER, server.role());
        assertEquals(BwUnit.MB_PER_SEC, server.output().unit());
        RunParameters client = ParameterRules.check(Tool.WRITE_BW, new ToolOptions().server("h").with(REPORT_GBITS));
        assertEquals(Role.CLIENT, client.role());
        assertEquals(BwUnit.GB_PER_SEC, client.output().unit());
        assertEquals("dev1", client.withDevice("dev1").endpoint().device());
    }
}
