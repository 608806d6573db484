package io.rdmaffm.verbs.raw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The native shim's table of sizeof/offsetof/constant values, as compiled against the installed rdma-core
 * headers: the ground truth the Java layouts in {@link Structs} and {@link Constants} are held to.
 */
public final class LayoutTable {
    /** struct rdmaffm_layout_entry { int32_t kind; const char *name; int64_t value; }. */
    static final StructLayout ENTRY = MemoryLayout.structLayout(
            JAVA_INT.withName("kind"), MemoryLayout.paddingLayout(4),
            ADDRESS.withName("name"), JAVA_LONG.withName("value"));

    private final Map<String, Long> sizes;
    private final Map<String, Long> offsets;
    private final Map<String, Long> constants;

    LayoutTable(Map<String, Long> sizes, Map<String, Long> offsets, Map<String, Long> constants) {
        this.sizes = Collections.unmodifiableMap(sizes);
        this.offsets = Collections.unmodifiableMap(offsets);
        this.constants = Collections.unmodifiableMap(constants);
    }

    public static LayoutTable load() {
        Map<String, Long> sizes = new LinkedHashMap<>();
        Map<String, Long> offsets = new LinkedHashMap<>();
        Map<String, Long> constants = new LinkedHashMap<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment table = (MemorySegment) Shim.rdmaffm_layout_table.invokeExact(count);
            int n = count.get(JAVA_INT, 0);
            table = table.reinterpret(ENTRY.byteSize() * n);
            for (int i = 0; i < n; i++) {
                long base = i * ENTRY.byteSize();
                int kind = table.get(JAVA_INT, base);
                String name = table.get(ADDRESS, base + 8).reinterpret(Long.MAX_VALUE).getString(0);
                long value = table.get(JAVA_LONG, base + 16);
                switch (kind) {
                    case 0 -> sizes.put(name, value);
                    case 1 -> offsets.put(name, value);
                    case 2 -> constants.put(name, value);
                    default -> throw new IllegalStateException("unknown layout entry kind " + kind + " for " + name);
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return new LayoutTable(sizes, offsets, constants);
    }

    /** sizeof(struct name), keyed by the C struct name. */
    public Map<String, Long> sizes() {
        return sizes;
    }

    /** offsetof(struct, member.path), keyed "struct.member.path". */
    public Map<String, Long> offsets() {
        return offsets;
    }

    /** Enum and macro values, keyed by their C names. */
    public Map<String, Long> constants() {
        return constants;
    }
}
