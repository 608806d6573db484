package io.rdmaffm.perftest.cluster;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes the matrix's JSON document and CSV. Each attempt, with its tools' full output, is appended to a spool
 * file ({@code JSON.attempts.jsonl}) and flushed the moment it arrives, so the driver holds only figures in
 * memory and a run that is cut short still leaves every finished attempt on disk. At the end the document is
 * written next to its final name and moved into place; the spool is then deleted.
 */
public final class FileSink implements MatrixSink {
    private final Path json;
    private final Path csv;
    private final Path spool;
    private Writer spoolOut;

    /**
     * @param json the JSON document to write, or null for none
     * @param csv  the CSV to write, or null for none
     */
    public FileSink(Path json, Path csv) {
        this.json = json;
        this.csv = csv;
        this.spool = json == null ? null : json.resolveSibling(json.getFileName() + ".attempts.jsonl");
    }

    /** The spool file (null without a JSON document). */
    public Path spool() {
        return spool;
    }

    @Override
    public void started(MatrixPlan plan) throws IOException {
        if (spool != null) {
            spoolOut = Files.newBufferedWriter(spool, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        }
    }

    @Override
    public void attempt(Attempt attempt) throws IOException {
        if (spoolOut != null) {
            spoolOut.write(MatrixJson.attemptLine(attempt));
            spoolOut.write('\n');
            spoolOut.flush();
        }
    }

    @Override
    public void finished(MatrixOutcome outcome) throws IOException {
        if (csv != null) {
            try (BufferedWriter out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
                MatrixReport.csv(outcome, out);
            }
        }
        if (json == null) {
            return;
        }
        spoolOut.close();
        Path tmp = json.resolveSibling(json.getFileName() + ".part");
        try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8);
                BufferedReader in = Files.newBufferedReader(spool, StandardCharsets.UTF_8)) {
            MatrixJson.write(out, outcome, in);
        }
        Files.move(tmp, json, StandardCopyOption.REPLACE_EXISTING);
        Files.delete(spool);
    }
}
