package io.rdmaffm.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Byte-for-byte comparison with a file under {@code src/test/resources}. To accept an intended change, run
 * the test with {@code -Dgolden.write=DIR} (DIR: the module's {@code src/test/resources}), which rewrites the
 * file from the actual output, and review the diff before committing it.
 */
public final class Golden {
    private Golden() {
    }

    /**
     * @param resource the resource path, e.g. {@code doctor-golden/h100.txt}
     * @param actual   the output
     */
    public static void assertMatches(String resource, String actual) {
        String write = System.getProperty("golden.write");
        try {
            if (write != null) {
                Path p = Path.of(write).resolve(resource);
                Files.createDirectories(p.getParent());
                Files.writeString(p, actual, StandardCharsets.UTF_8);
            }
            try (InputStream in = Golden.class.getResourceAsStream("/" + resource)) {
                if (in == null) {
                    throw new AssertionError("missing golden resource " + resource);
                }
                assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual, resource);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
