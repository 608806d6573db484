package io.rdmaffm.perftest.vocab;

/** The bandwidth unit of a BW table: perftest's "MB" is 2^20 bytes; {@code --report_gbits} is 10^9 bits. */
public enum BwUnit {
    /** MB/sec with MB = 2^20 bytes (perftest 4.5 labels it MB, later versions MiB). */
    MB_PER_SEC("MB/sec", 0x100000L),
    /** Gb/sec with Gb = 10^9 bits ({@code --report_gbits}). */
    GB_PER_SEC("Gb/sec", 125_000_000L);

    private final String label;
    private final long bytesPerUnit;

    BwUnit(String label, long bytesPerUnit) {
        this.label = label;
        this.bytesPerUnit = bytesPerUnit;
    }

    /** The unit as the table header shows it. */
    public String label() {
        return label;
    }

    /** Bytes per second that make one unit (perftest's {@code format_factor}). */
    public long bytesPerUnit() {
        return bytesPerUnit;
    }
}
