package io.rdmaffm.perftest.jvm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * This JVM's own JIT counters, read live from its performance-data file ({@code /tmp/hsperfdata_USER/PID},
 * the memory that jstat reads; format 2.0). The warm-up asks "did anything compile since I last looked?"
 * many times; the file answers exactly and at once, where the compilation MXBean only has a total time in
 * milliseconds and JFR delivers its events a second late. Absent ({@link #open()} returns null) where the
 * JVM keeps no such file ({@code -XX:-UsePerfData}, {@code -XX:+PerfDisableSharedMem}).
 */
public final class JitCounters implements AutoCloseable {
    private static final int MAGIC = 0xcafec0c0;
    private static final int PROLOGUE_ENTRY_OFFSET = 24;
    private static final int PROLOGUE_NUM_ENTRIES = 28;
    private static final int ENTRY_NAME_OFFSET = 4;
    private static final int ENTRY_VECTOR_LENGTH = 8;
    private static final int ENTRY_DATA_TYPE = 12;
    private static final int ENTRY_DATA_OFFSET = 16;

    private final Arena arena;
    private final MemorySegment data;
    private final VarHandle counter;
    private final long totalCompiles;

    private JitCounters(Arena arena, MemorySegment data, ValueLayout.OfLong longLayout, long totalCompiles) {
        this.arena = arena;
        this.data = data;
        this.counter = longLayout.varHandle();
        this.totalCompiles = totalCompiles;
    }

    /** The counters of this JVM, or null where it keeps no performance-data file. */
    public static JitCounters open() {
        Path file = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"),
                Long.toString(ProcessHandle.current().pid()));
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            JitCounters c = parse(arena, seg);
            if (c == null) {
                arena.close();
            }
            return c;
        } catch (IOException | RuntimeException e) {
            arena.close();
            return null;
        }
    }

    private static JitCounters parse(Arena arena, MemorySegment seg) {
        if (seg.byteSize() < 32 || seg.get(ValueLayout.JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN), 0) != MAGIC) {
            return null;
        }
        ByteOrder order = seg.get(ValueLayout.JAVA_BYTE, 4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        ValueLayout.OfInt i32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(order);
        ValueLayout.OfLong i64 = ValueLayout.JAVA_LONG.withOrder(order);
        long entry = seg.get(i32, PROLOGUE_ENTRY_OFFSET);
        int entries = seg.get(i32, PROLOGUE_NUM_ENTRIES);
        for (int n = 0; n < entries && entry + 20 <= seg.byteSize(); n++) {
            int length = seg.get(i32, entry);
            if (length <= 0) {
                return null;
            }
            String name = cString(seg, entry + seg.get(i32, entry + ENTRY_NAME_OFFSET));
            if (name.equals("sun.ci.totalCompiles") && seg.get(i32, entry + ENTRY_VECTOR_LENGTH) == 0
                    && seg.get(ValueLayout.JAVA_BYTE, entry + ENTRY_DATA_TYPE) == 'J') {
                return new JitCounters(arena, seg, i64, entry + seg.get(i32, entry + ENTRY_DATA_OFFSET));
            }
            entry += length;
        }
        return null;
    }

    private static String cString(MemorySegment seg, long at) {
        long end = at;
        while (end < seg.byteSize() && seg.get(ValueLayout.JAVA_BYTE, end) != 0) {
            end++;
        }
        return new String(seg.asSlice(at, end - at).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII);
    }

    /** Methods compiled so far by this JVM (standard and OSR, every tier): {@code sun.ci.totalCompiles}. */
    public long compilations() {
        return (long) counter.getVolatile(data, totalCompiles);
    }

    @Override
    public void close() {
        arena.close();
    }
}
