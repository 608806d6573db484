package io.rdmaffm.perftest.engine.memory;

import io.rdmaffm.perftest.params.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What {@code --mmap} and {@code --use_hugepages} refuse before anything is mapped or registered (so no device
 * is needed): each is one line, exit 2. The mapping and registration themselves run on rxe
 * (BufferFlagsRdmaTest).
 */
class MappedRunBufferTest {

    @TempDir
    Path dir;

    @Test
    void aFileTheBufferDoesNotFitIsRefusedWithTheSizeItNeeds() throws IOException {
        Path f = Files.write(dir.resolve("buf"), new byte[8192]);
        assertEquals("--mmap file '" + f + "' has 8192 bytes; the buffer needs 8192 from offset 4096 (make it at least"
                + " 12288 bytes)", refused(f, 4096, 8192));
    }

    @Test
    void anOffsetOffThePageGridIsRefused() throws IOException {
        Path f = Files.write(dir.resolve("buf"), new byte[16384]);
        assertEquals("--mmap-offset 100 must be a multiple of the page size (4096)", refused(f, 100, 4096));
    }

    @Test
    void aMissingFileIsRefusedAsPerftestSaysIt() {
        Path f = dir.resolve("absent");
        assertEquals("Unable to open '" + f + "' (--mmap): No such file or directory", refused(f, 0, 4096));
    }

    @Test
    void tooFewHugePagesNamesThePoolAndTheFix() {
        assertEquals("Failed to allocate hugepages (--use_hugepages): the buffer needs 1 huge page of 2048 kB, 0 of 0"
                + " are free (HugePages_Free, HugePages_Total in /proc/meminfo); reserve more, e.g. as root: echo 1 >"
                + " /proc/sys/vm/nr_hugepages", MappedRunBuffer.tooFewPages(1, 2 << 20, 0, 0));
        assertEquals(3, Long.parseLong(MappedRunBuffer.tooFewPages(3, 2 << 20, 1, 4).replaceAll(".*needs (\\d+).*", "$1")));
    }

    @Test
    void meminfoFieldsAreReadInTheirOwnUnit() {
        String m = "MemTotal:        1000 kB\nHugePages_Total:       8\nHugePages_Free:        6\nHugepagesize:       2048 kB\n";
        assertEquals(8, MappedRunBuffer.meminfoField(m, "HugePages_Total"));
        assertEquals(6, MappedRunBuffer.meminfoField(m, "HugePages_Free"));
        assertEquals(2048, MappedRunBuffer.meminfoField(m, "Hugepagesize"));
        assertEquals(-1, MappedRunBuffer.meminfoField(m, "Hugetlb"));
    }

    private static String refused(Path f, long offset, long bytes) {
        return assertThrows(InvalidParameterException.class,
                () -> MappedRunBuffer.file(null, f, offset, bytes, 0, 4096)).getMessage();
    }
}
