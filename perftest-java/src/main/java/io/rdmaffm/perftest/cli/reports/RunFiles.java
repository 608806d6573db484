package io.rdmaffm.perftest.cli.reports;

import io.rdmaffm.perftest.report.model.FabricDocument;
import io.rdmaffm.perftest.report.model.MatrixDocument;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.report.model.RunReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The file arguments of {@code report} and {@code compare}: names, or glob patterns ({@code 'runs/ib-*.json'})
 * that the shell left unexpanded, matched in their directory and taken in name order.
 */
final class RunFiles {
    private RunFiles() {
    }

    /**
     * @param args file names or glob patterns
     * @return the runs, in argument order
     * @throws IllegalArgumentException naming the argument when a file is missing, a pattern matches nothing or a
     *         file is not a run document
     */
    static List<RunDocument> read(List<String> args) {
        List<RunDocument> out = new ArrayList<>();
        for (Path p : expand(args)) {
            out.add(RunReader.read(p));
        }
        return out;
    }

    /** The files of {@code report}: run documents and matrix documents, each in argument order. */
    record Inputs(List<RunDocument> runs, List<MatrixDocument> matrices, List<FabricDocument> fabrics) {
    }

    /** As {@link #read}, also taking matrix documents ({@code rdma-ffm.matrix/1}) that {@code report} draws. */
    static Inputs readRunsAndMatrices(List<String> args) {
        List<RunDocument> runs = new ArrayList<>();
        List<MatrixDocument> matrices = new ArrayList<>();
        List<FabricDocument> fabrics = new ArrayList<>();
        for (Path p : expand(args)) {
            Object parsed = Files.isRegularFile(p) ? parseOrNull(p) : null;
            if (MatrixDocument.isMatrix(parsed)) {
                matrices.add(MatrixDocument.of(p.toString(), parsed));
            } else if (FabricDocument.isFabric(parsed)) {
                fabrics.add(FabricDocument.of(p.toString(), parsed));
            } else {
                runs.add(RunReader.read(p)); // says what is wrong with a file that is neither
            }
        }
        return new Inputs(runs, matrices, fabrics);
    }

    private static Object parseOrNull(Path p) {
        try {
            return MatrixDocument.parse(p);
        } catch (IllegalArgumentException e) {
            return null; // RunReader gives the message
        }
    }

    static List<Path> expand(List<String> args) {
        List<Path> out = new ArrayList<>();
        for (String a : args) {
            Path p = Path.of(a);
            if (Files.exists(p) || !isPattern(a)) {
                if (Files.isDirectory(p)) {
                    throw new IllegalArgumentException(a + ": is a directory, not a run document");
                }
                out.add(p);
                continue;
            }
            out.addAll(glob(a));
        }
        return out;
    }

    private static boolean isPattern(String a) {
        return a.indexOf('*') >= 0 || a.indexOf('?') >= 0 || a.indexOf('[') >= 0 || a.indexOf('{') >= 0;
    }

    private static List<Path> glob(String pattern) {
        Path p = Path.of(pattern);
        Path dir = p.getParent() == null ? Path.of(".") : p.getParent();
        if (isPattern(dir.toString())) {
            throw new IllegalArgumentException(pattern + ": patterns are matched in one directory only");
        }
        List<Path> matches = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, p.getFileName().toString())) {
            for (Path m : ds) {
                if (Files.isRegularFile(m)) {
                    matches.add(p.getParent() == null ? m.getFileName() : m);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(pattern + ": cannot list " + dir + ": " + e.getMessage());
        }
        if (matches.isEmpty()) {
            throw new IllegalArgumentException(pattern + ": no file matches");
        }
        matches.sort(null);
        return matches;
    }

    /**
     * Writes a whole file, or nothing: into a temporary file next to it, then moved over it, so a failed write
     * never leaves half a report. {@code -} writes to standard output instead.
     *
     * @return false when {@code target} was {@code -} (the caller prints the text)
     */
    static boolean write(Path target, String text) {
        if (target.toString().equals("-")) {
            return false;
        }
        Path abs = target.toAbsolutePath();
        // Not Files.createTempFile: its mode 0600 would stay on the report; this one gets the umask's.
        Path tmp = abs.resolveSibling("." + abs.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            try {
                Files.writeString(tmp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(target + ": cannot write: " + e.getMessage(), e);
        }
        return true;
    }
}
