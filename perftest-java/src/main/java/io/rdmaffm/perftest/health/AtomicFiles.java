package io.rdmaffm.perftest.health;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Whole-file writes that a reader never sees half done: node_exporter's textfile collector reads {@code *.prom}
 * whenever it is scraped, so the text goes to a temporary file in the same directory (same file system) and is
 * renamed over the target.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** Writes {@code text} to {@code file} through a temporary file in its directory, renamed over it. */
    public static void write(Path file, String text) throws IOException {
        Path abs = file.toAbsolutePath();
        Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text);
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Checked before anything is measured, so a bad path is bad input (exit 2) and not a lost result.
     *
     * @throws IllegalArgumentException with one line when {@code file} could not be written
     */
    public static void requireWritable(String option, Path file) {
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        if (Files.isDirectory(abs)) {
            throw new IllegalArgumentException(option + " " + file + " is a directory");
        }
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " " + file + ": no such directory " + dir);
        }
        try {
            Files.deleteIfExists(Files.createTempFile(dir, "." + abs.getFileName(), ".probe"));
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException(option + " " + file + ": cannot write in " + dir + " (permission denied)");
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + ": cannot write in " + dir + ": " + e.getMessage());
        }
        if (Files.exists(abs) && !Files.isWritable(abs)) {
            throw new IllegalArgumentException(option + " " + file + " is not writable");
        }
    }
}
