package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded generator of what a hostile perftest client sends a server: the messages a real client of the same
 * tool and flags would send, in order (every message type of the protocol: versions, page and cache-line
 * sizes, MTU, keys in the text forms with and without GID or as binary {@code struct pingpong_dest}, barriers,
 * bandwidth reports, the closing handshake and its "done"), then one mutation: bits flipped, a message
 * replaced by random bytes or by a crafted value (versions around 5.70, absurd page sizes, MTU values outside
 * 1..5, NaN and huge report figures), cut short, lengthened, duplicated, dropped, followed by garbage, or
 * stalled half-way. Case {@code i} of seed {@code s} is always the same, so a failure is replayed from its
 * number.
 */
final class HostileClient {
    /** What both sides run. */
    record Setup(Tool tool, boolean allSizes, boolean bidirectional, int sizes, int numQps, boolean withGid,
            boolean binaryKeys, boolean rdmaCmBarriers) {
        HandshakeScript script(Role role) {
            return HandshakeScript.of(tool, role, allSizes, bidirectional, rdmaCmBarriers);
        }

        @Override
        public String toString() {
            return tool.perftestName() + (allSizes ? " -a(" + sizes + " sizes)" : "") + (bidirectional ? " -b" : "")
                    + (numQps > 1 ? " -q " + numQps : "") + (binaryKeys ? (rdmaCmBarriers ? " -R" : " -z") : "")
                    + (withGid ? "" : " (no GID)");
        }
    }

    /** One hostile session: the messages in order; {@code stall}: keep the connection open and say no more. */
    record Session(Setup setup, String version, List<byte[]> messages, String mutation, int target, Step targetStep,
            boolean stall) {
        /** True when nothing hostile happened: no mutation, a compatible version, no silence. */
        boolean harmless() {
            return mutation.equals("nothing changed") && !stall && VersionMessage.numeric(VersionMessage.decode(
                    Arrays.copyOf(version.getBytes(StandardCharsets.ISO_8859_1), VersionMessage.SIZE)))
                    >= VersionMessage.MIN_COMPATIBLE;
        }

        /** All messages as one byte stream (TCP). */
        byte[] stream() {
            int n = 0;
            for (byte[] m : messages) {
                n += m.length;
            }
            byte[] out = new byte[n];
            int at = 0;
            for (byte[] m : messages) {
                System.arraycopy(m, 0, out, at, m.length);
                at += m.length;
            }
            return out;
        }

        @Override
        public String toString() {
            return setup + ", version '" + Untrusted.text(version) + "', " + mutation + " at message " + target
                    + (targetStep == null ? "" : " (" + targetStep + ")") + (stall ? ", then silent" : "");
        }
    }

    static final String[] VERSIONS = {"6.06", "6.06", "6.06", "5.70", "5.7", "6.28", "7.0", "99", "5.69", "5.6999",
        "", "abc", "6.06\0junk", "0123456789abcdef", " 6.1", "+6", "-6", "6.", ".", "+.", "nan", "inf", "1e9",
        "9999999999999999", "6.06\u00ff\u00fd", "\u001b[2J6.06"};
    static final int[] PAGE_SIZES = {4096, 65536, 0, -1, 3, 4095, 1 << 20, 1 << 21, Integer.MAX_VALUE,
        Integer.MIN_VALUE, 1 << 30};
    static final int[] CACHE_LINES = {64, 128, 0, -64, 63, 4096, 8192, Integer.MAX_VALUE};
    static final double[] FIGURES = {0, -0.0, 1.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.MAX_VALUE, Double.MIN_VALUE, -1e300, 1e300};

    private HostileClient() {
    }

    /** A random set-up: any tool, its flags, key form. */
    static Setup setup(SplittableRandom r, boolean binary) {
        Tool tool = Tool.values()[r.nextInt(Tool.values().length)];
        boolean all = r.nextInt(4) == 0;
        boolean bidir = tool.bandwidth() && r.nextInt(4) == 0;
        int qps = tool.bandwidth() && r.nextInt(4) == 0 ? 2 : 1;
        boolean barriers = binary && r.nextBoolean();
        return new Setup(tool, all, bidir, all ? 2 + r.nextInt(3) : 1, qps, binary || r.nextInt(4) != 0, binary,
                barriers);
    }

    /** The client's messages of a run with this set-up, one per wire message, as a real client sends them. */
    static List<Message> valid(Setup s, String version, SplittableRandom r) {
        List<Message> out = new ArrayList<>();
        for (Step step : s.script(Role.CLIENT).wireSteps(s.sizes())) {
            switch (step) {
                case VERSION -> out.add(new Message(step, version(version)));
                case SYS_DATA -> {
                    out.add(new Message(step, SysData.encodeInt(4096)));
                    out.add(new Message(step, SysData.encodeInt(64)));
                }
                case MTU -> out.add(new Message(step, MtuMessage.encode(1 + r.nextInt(5), 2)));
                case KEYS -> {
                    for (int q = 0; q < s.numQps(); q++) {
                        out.add(new Message(step, key(s, dest(r))));
                    }
                }
                case CM_BARRIER -> out.add(new Message(step, BinaryKeyMessage.encode(
                        new PingPongDest(0, 0, 0, 0, 0, 0, new byte[16], 0), 0)));
                case SYNC, SYNC_AFTER_PEER_RUN -> out.add(new Message(step, key(s, dest(r))));
                case BW_REPORT -> {
                    BwReport rep = new BwReport(65536, 1000, 10.5, 9.5, 0.01);
                    for (byte[] f : BwReportMessage.encode(rep, 6.06)) {
                        out.add(new Message(step, f));
                    }
                }
                case CLOSE, CLOSE_AFTER_PEER_RUN -> {
                    out.add(new Message(step, key(s, dest(r))));
                    if (!s.binaryKeys()) {
                        out.add(new Message(step, PerftestExchange.DONE.clone()));
                    }
                }
                default -> throw new IllegalStateException("not a wire step: " + step);
            }
        }
        return out;
    }

    /** One message of the client's run, and the step it belongs to. */
    record Message(Step step, byte[] bytes) {
    }

    /** The hostile session number {@code index} of {@code seed}. */
    static Session session(long seed, int index, boolean binary) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        Setup s = setup(r, binary);
        String version = r.nextInt(3) == 0 ? VERSIONS[r.nextInt(VERSIONS.length)] : VersionMessage.LOCAL_VERSION;
        List<Message> valid = valid(s, version, r);
        List<byte[]> msgs = new ArrayList<>();
        for (Message m : valid) {
            msgs.add(m.bytes());
        }
        int op = r.nextInt(20);
        if ((op == 9 || op == 15) && r.nextInt(10) != 0) {
            // Silent peers cost a time-out each: one in a hundred sessions, the rest close instead.
            op = op == 9 ? 8 : 16;
        }
        int target = op == 19 ? valid.size() : r.nextInt(valid.size());
        Step step = target < valid.size() ? valid.get(target).step() : null;
        String what;
        boolean stall = false;
        switch (op) {
            case 0, 1, 2 -> {
                flip(msgs.get(target), r);
                what = "bits flipped";
            }
            case 3, 4 -> {
                r.nextBytes(msgs.get(target));
                what = "random bytes";
            }
            case 5, 6, 7 -> {
                msgs.set(target, crafted(s, step, msgs.get(target), r));
                what = "crafted value";
            }
            case 8 -> {
                byte[] m = msgs.get(target);
                msgs.set(target, Arrays.copyOf(m, r.nextInt(Math.max(1, m.length))));
                msgs.subList(target + 1, msgs.size()).clear();
                what = "cut short, then closed";
            }
            case 9 -> {
                byte[] m = msgs.get(target);
                msgs.set(target, Arrays.copyOf(m, r.nextInt(Math.max(1, m.length))));
                msgs.subList(target + 1, msgs.size()).clear();
                stall = true;
                what = "cut short, then silent";
            }
            case 10 -> {
                byte[] m = msgs.get(target);
                byte[] longer = Arrays.copyOf(m, m.length + 1 + r.nextInt(binary ? 40 : 200));
                for (int i = m.length; i < longer.length; i++) {
                    longer[i] = (byte) r.nextInt(256);
                }
                msgs.set(target, longer);
                what = "lengthened";
            }
            case 11 -> {
                msgs.add(target, msgs.get(target).clone());
                what = "duplicated";
            }
            case 12 -> {
                msgs.remove(target);
                what = "dropped";
            }
            case 13, 14 -> {
                msgs.subList(target, msgs.size()).clear();
                int len = r.nextInt(8) == 0 ? 1 << 20 : r.nextInt(binary ? 80 : 4096);
                byte[] junk = new byte[len];
                r.nextBytes(junk);
                msgs.add(junk);
                what = "garbage (" + len + " bytes) instead";
            }
            case 15 -> {
                msgs.subList(target, msgs.size()).clear();
                stall = true;
                what = "silent before it";
            }
            case 16 -> {
                msgs.subList(target, msgs.size()).clear();
                what = "closed before it";
            }
            case 17 -> {
                msgs.set(target, new byte[msgs.get(target).length]);
                what = "zeros";
            }
            case 18 -> what = "nothing changed";
            default -> {
                byte[] junk = new byte[1 + r.nextInt(64)];
                r.nextBytes(junk);
                msgs.add(junk);
                what = "trailing garbage";
            }
        }
        return new Session(s, version, msgs, what, target, step, stall);
    }

    /** A message with a value chosen to hurt: at the edges of what the protocol allows, or far outside. */
    private static byte[] crafted(Setup s, Step step, byte[] original, SplittableRandom r) {
        return switch (step) {
            case VERSION -> version(VERSIONS[r.nextInt(VERSIONS.length)]);
            case SYS_DATA -> SysData.encodeInt(r.nextBoolean() ? PAGE_SIZES[r.nextInt(PAGE_SIZES.length)]
                    : CACHE_LINES[r.nextInt(CACHE_LINES.length)]);
            case MTU -> new byte[][] {"0\0".getBytes(StandardCharsets.US_ASCII), "9\0".getBytes(StandardCharsets.US_ASCII),
                "-1".getBytes(StandardCharsets.US_ASCII), {0, 0}, {(byte) 0xff, 0}, "6\0".getBytes(StandardCharsets.US_ASCII)}
                    [r.nextInt(6)];
            case BW_REPORT -> original.length == 8 && r.nextBoolean()
                    ? BwReportMessage.u64(Double.doubleToRawLongBits(FIGURES[r.nextInt(FIGURES.length)]))
                    : BwReportMessage.u64(r.nextBoolean() ? Long.MAX_VALUE : r.nextLong());
            default -> craftedKey(s, original, r);
        };
    }

    /** Keys with fields at or past their limits; text keys with hex where the format has none, or upper case. */
    private static byte[] craftedKey(Setup s, byte[] original, SplittableRandom r) {
        if (s.binaryKeys()) {
            byte[] b = original.clone();
            int field = r.nextInt(14) * 4;
            int v = new int[] {-1, 0x1000000, Integer.MIN_VALUE, 0x10000, 0xffffff, 0}[r.nextInt(6)];
            b[field] = (byte) (v >>> 24);
            b[field + 1] = (byte) (v >>> 16);
            b[field + 2] = (byte) (v >>> 8);
            b[field + 3] = (byte) v;
            return b;
        }
        byte[] b = original.clone();
        int at = r.nextInt(b.length);
        byte[] choices = {'G', 'F', 'A', ':', ' ', '-', 0, 'x', '\n', (byte) 0x9b, (byte) 0x1b};
        b[at] = choices[r.nextInt(choices.length)];
        return b;
    }

    private static void flip(byte[] m, SplittableRandom r) {
        if (m.length == 0) {
            return;
        }
        int n = 1 + r.nextInt(8);
        for (int i = 0; i < n; i++) {
            int bit = r.nextInt(m.length * 8);
            m[bit / 8] ^= (byte) (1 << (bit % 8));
        }
    }

    /** 16 bytes: the version's bytes (one per char) and NULs; a 16-char version has none. */
    private static byte[] version(String v) {
        byte[] text = v.getBytes(StandardCharsets.ISO_8859_1);
        return Arrays.copyOf(text, VersionMessage.SIZE);
    }

    private static byte[] key(Setup s, PingPongDest d) {
        return s.binaryKeys() ? BinaryKeyMessage.encode(d, 1) : KeyMessage.encode(d, s.withGid());
    }

    private static PingPongDest dest(SplittableRandom r) {
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xff;
        gid[11] = (byte) 0xff;
        gid[12] = 10;
        gid[13] = 77;
        gid[15] = 1;
        return new PingPongDest(0, 1 + r.nextInt(16), 1 + r.nextInt(0xffffff), r.nextInt(0x1000000), r.nextInt(),
                r.nextLong(), gid, 0);
    }
}
