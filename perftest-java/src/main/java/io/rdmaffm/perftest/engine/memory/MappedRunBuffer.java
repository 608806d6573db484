package io.rdmaffm.perftest.engine.memory;

import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.VerbsException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Host memory the run maps itself instead of allocating it: a file ({@code --mmap FILE}, shared and read-write
 * from {@code --mmap-offset}, as perftest maps it) or huge pages ({@code --use_hugepages}). What it maps is a
 * {@link HostRunBuffer} like any host memory (the view is the buffer); closing deregisters, then unmaps.
 */
final class MappedRunBuffer {
    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private MappedRunBuffer() {
    }

    /**
     * {@code bytes} of {@code file} from {@code offset}, mapped shared (what the device writes lands in the file).
     *
     * @throws InvalidParameterException the file cannot be opened, is too short, or the offset is not page-aligned
     */
    static RunBuffer file(ProtectionDomain pd, Path file, long offset, long bytes, int access, int pageSize) {
        // mmap(2) takes only page-aligned offsets (perftest's run ends with "Unable to mmap ...: Invalid argument").
        if (offset % pageSize != 0) {
            throw new InvalidParameterException("--mmap-offset " + offset + " must be a multiple of the page size ("
                    + pageSize + ")");
        }
        long length;
        try {
            length = Files.size(file);
        } catch (IOException e) {
            throw new InvalidParameterException("Unable to open '" + file + "' (--mmap): " + reason(e));
        }
        // A shared mapping past the end of the file faults when touched: refuse it before anything is mapped.
        if (length < offset + bytes) {
            throw new InvalidParameterException("--mmap file '" + file + "' has " + length + " bytes; the buffer needs "
                    + bytes + " from offset " + offset + " (make it at least " + (offset + bytes) + " bytes)");
        }
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_WRITE, offset, bytes, arena);
            return new HostRunBuffer(pd.registerMemory(seg, access), arena);
        } catch (IOException e) {
            arena.close();
            throw new InvalidParameterException("Unable to mmap '" + file + "' (--mmap): " + reason(e));
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * {@code bytes} in huge pages of the size the kernel reports.
     *
     * @throws InvalidParameterException when the pool has too few free pages (perftest: "Failed to allocate
     *                                   hugepages. Please configure hugepages"), with the pool's figures
     */
    static RunBuffer hugePages(ProtectionDomain pd, long bytes, int access) {
        String meminfo = readMeminfo();
        long pageBytes = meminfoField(meminfo, "Hugepagesize") * 1024;
        if (pageBytes <= 0) {
            throw new InvalidParameterException("--use_hugepages: this kernel reports no huge page size (no "
                    + "Hugepagesize in " + MEMINFO + ")");
        }
        try {
            // The region owns the huge pages and unmaps them.
            return new HostRunBuffer(pd.allocateHugePageRegion(bytes, pageBytes, access));
        } catch (VerbsException e) {
            if (!"mmap".equals(e.verb())) {
                throw e;
            }
            long need = (bytes + pageBytes - 1) / pageBytes;
            throw new InvalidParameterException(tooFewPages(need, pageBytes, meminfoField(meminfo, "HugePages_Free"),
                    meminfoField(meminfo, "HugePages_Total")));
        }
    }

    /** The one line a run without enough huge pages ends with. */
    static String tooFewPages(long need, long pageBytes, long free, long total) {
        return "Failed to allocate hugepages (--use_hugepages): the buffer needs " + need + " huge page"
                + (need == 1 ? "" : "s") + " of " + pageBytes / 1024 + " kB, " + free + " of " + total + " are free "
                + "(HugePages_Free, HugePages_Total in /proc/meminfo); reserve more, e.g. as root: echo " + (need + total)
                + " > /proc/sys/vm/nr_hugepages";
    }

    /** A field of /proc/meminfo in its own unit (kB, or pages), -1 when absent. */
    static long meminfoField(String meminfo, String name) {
        for (String line : meminfo.split("\n")) {
            if (line.startsWith(name + ":")) {
                String v = line.substring(name.length() + 1).trim().split("\\s+")[0];
                try {
                    return Long.parseLong(v);
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    private static String readMeminfo() {
        try {
            return Files.readString(MEMINFO);
        } catch (IOException e) {
            return "";
        }
    }

    private static String reason(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "No such file or directory"
                : e instanceof java.nio.file.AccessDeniedException ? "Permission denied"
                : String.valueOf(e.getMessage());
    }
}
