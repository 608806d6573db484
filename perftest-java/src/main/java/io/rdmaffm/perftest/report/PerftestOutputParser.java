package io.rdmaffm.perftest.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a perftest tool printed (C perftest 4.5's or ours): banner title and fields, address lines, BW
 * rows and latency rows. Lines it does not know (warnings, the waiting box) are skipped, so a script that
 * works on C's output works on ours through the same parser.
 */
public final class PerftestOutputParser {
    private static final Pattern TITLE = Pattern.compile("^ {20}(\\S.* Test)$");
    private static final Pattern FIELD = Pattern.compile("^\\s*([^:\\t]+?)\\s*: (.*)$");
    private static final Pattern ADDRESS = Pattern.compile("^ (local|remote) address: LID (\\S+) QPN (\\S+) PSN (\\S+)"
            + "(?: OUT (\\S+))?(?: RKey (\\S+) VAddr (\\S+))?\\s*$");
    private static final Pattern GID = Pattern.compile("^ M?GID: ((?:\\d+:){15}\\d+)\\s*$");

    private PerftestOutputParser() {
    }

    /** One address line. Hex fields are kept as printed values (LID 0000 and 0x.. both read as numbers). */
    public record Address(String side, int lid, int qpn, int psn, Integer outReads, Long rkey, Long vaddr,
            int[] gid) {
    }

    /** One BW row. */
    public record BwRow(long size, long iters, double bwPeak, double bwAvg, double msgRate) {
    }

    /** One latency row (iteration mode). */
    public record LatRow(long size, long iters, double tMin, double tMax, double typical, double avg, double stdev,
            double p99, double p999) {
    }

    /** One duration-mode latency row. */
    public record LatDurationRow(long size, long iters, double avgUsec, double tps) {
    }

    /**
     * Everything recognised in one output.
     *
     * @param title     banner title without the leading spaces, e.g. "RDMA_Write BW Test"
     * @param fields    banner fields by name, e.g. "Device" → "rxe0", "rdma_cm QPs" → "OFF"
     * @param addresses address lines, in order
     * @param bwUnit    "MB/sec" or "Gb/sec" when a BW header was seen, else null
     * @param bwRows    BW rows
     * @param latRows   latency rows
     * @param latDurationRows duration-mode latency rows
     */
    public record Parsed(String title, Map<String, String> fields, List<Address> addresses, String bwUnit,
            List<BwRow> bwRows, List<LatRow> latRows, List<LatDurationRow> latDurationRows) {
    }

    private enum Table { NONE, BW, LAT, LAT_DURATION }

    /** Parses a whole output. */
    public static Parsed parse(String text) {
        Reader r = new Reader();
        for (String line : text.split("\n", -1)) {
            if (!line.startsWith("-----")) {
                r.line(line);
            }
        }
        return new Parsed(r.title, r.fields, r.addresses, r.unit, r.bw, r.lat, r.latDur);
    }

    /** What has been read so far, and where in the output the reader is. */
    private static final class Reader {
        String title;
        final Map<String, String> fields = new LinkedHashMap<>();
        final List<Address> addresses = new ArrayList<>();
        final List<BwRow> bw = new ArrayList<>();
        final List<LatRow> lat = new ArrayList<>();
        final List<LatDurationRow> latDur = new ArrayList<>();
        String unit;
        Table table = Table.NONE;
        boolean inBanner;

        void line(String line) {
            Matcher m;
            if (title == null && (m = TITLE.matcher(line)).matches()) {
                title = m.group(1);
                inBanner = true;
            } else if ((m = ADDRESS.matcher(line)).matches()) {
                inBanner = false;
                addresses.add(new Address(m.group(1), hex(m.group(2)), hex(m.group(3)), hex(m.group(4)),
                        m.group(5) == null ? null : hex(m.group(5)),
                        m.group(6) == null ? null : hexLong(m.group(6)),
                        m.group(7) == null ? null : hexLong(m.group(7)), null));
            } else if ((m = GID.matcher(line)).matches() && !addresses.isEmpty()) {
                gid(m.group(1));
            } else if (line.startsWith(" #bytes")) {
                header(line);
            } else if (inBanner) {
                for (String part : line.split("\t\t")) {
                    // " rdma_cm QPs\t : OFF" has a single TAB inside the name column.
                    Matcher f = FIELD.matcher(part.replace('\t', ' '));
                    if (f.matches()) {
                        fields.put(f.group(1).strip(), f.group(2).strip());
                    }
                }
            } else {
                row(line.strip().split("\\s+"));
            }
        }

        /** The GID line belongs to the address line before it. */
        private void gid(String text) {
            Address a = addresses.remove(addresses.size() - 1);
            String[] parts = text.split(":");
            int[] gid = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                gid[i] = Integer.parseInt(parts[i]);
            }
            addresses.add(new Address(a.side(), a.lid(), a.qpn(), a.psn(), a.outReads(), a.rkey(), a.vaddr(), gid));
        }

        private void header(String line) {
            inBanner = false;
            if (line.contains("BW peak[")) {
                table = Table.BW;
                int s = line.indexOf("BW peak[") + "BW peak[".length();
                unit = line.substring(s, line.indexOf(']', s));
            } else if (line.contains("t_min[")) {
                table = Table.LAT;
            } else if (line.contains("tps average")) {
                table = Table.LAT_DURATION;
            }
        }

        private void row(String[] tok) {
            if (tok.length == 0 || tok[0].isEmpty() || !Character.isDigit(tok[0].charAt(0))) {
                return;
            }
            try {
                switch (table) {
                    case BW -> {
                        if (tok.length >= 5) {
                            bw.add(new BwRow(Long.parseUnsignedLong(tok[0]), Long.parseUnsignedLong(tok[1]),
                                    num(tok[2]), num(tok[3]), num(tok[4])));
                        }
                    }
                    case LAT -> {
                        if (tok.length >= 9) {
                            lat.add(new LatRow(Long.parseUnsignedLong(tok[0]), Long.parseUnsignedLong(tok[1]),
                                    num(tok[2]), num(tok[3]), num(tok[4]), num(tok[5]), num(tok[6]), num(tok[7]),
                                    num(tok[8])));
                        }
                    }
                    case LAT_DURATION -> {
                        if (tok.length >= 4) {
                            latDur.add(new LatDurationRow(Long.parseUnsignedLong(tok[0]),
                                    Long.parseUnsignedLong(tok[1]), num(tok[2]), num(tok[3])));
                        }
                    }
                    default -> {
                        // a number-led line outside any table: not ours to interpret
                    }
                }
            } catch (NumberFormatException e) {
                // not a row after all (e.g. a stray message starting with a digit)
            }
        }
    }

    /** C's printf spellings of non-finite values ("inf", "-nan") and plain decimals. */
    static double num(String s) {
        return switch (s) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            // glibc prints the sign of a NaN; keep it so re-printing gives the same text.
            case "-nan" -> Double.longBitsToDouble(0xfff8000000000000L);
            default -> Double.parseDouble(s);
        };
    }

    private static int hex(String s) {
        return (int) hexLong(s);
    }

    private static long hexLong(String s) {
        String digits = s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
        return Long.parseUnsignedLong(digits, 16);
    }
}
