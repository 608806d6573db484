package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cluster.MatrixWorker;
import io.rdmaffm.perftest.cluster.WorkerProtocol;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worker with the real tools, in this JVM (no RDMA device needed): the same tool command line twice gives the
 * same answer (each order gets a fresh picocli command), bad input is the tool's one line and exit 2, and
 * {@code matrix-worker} is a hidden subcommand.
 */
class MatrixWorkerCommandTest {

    @Test
    void realToolsRunInProcessOrderAfterOrder() throws Exception {
        String in = String.join("\n",
                WorkerProtocol.run(1, false, List.of("ib_write_bw", "-p", "many")),
                WorkerProtocol.run(2, false, List.of("ib_write_bw", "-p", "many")),
                WorkerProtocol.run(3, false, List.of("ib_write_lat", "--version")),
                WorkerProtocol.quit(), "");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = new MatrixWorker(MatrixWorkerCommand::runTool, new PrintStream(out, true, StandardCharsets.UTF_8),
                () -> {
                }).serve(new ByteArrayInputStream(in.getBytes(StandardCharsets.US_ASCII)));
        assertEquals(0, rc);
        List<String> lines = new ArrayList<>();
        List<Integer> codes = new ArrayList<>();
        for (String l : out.toString(StandardCharsets.UTF_8).split("\n")) {
            WorkerProtocol.Event e = WorkerProtocol.event(l);
            if (e.kind().equals("line")) {
                lines.add(e.id() + " " + e.text());
            } else if (e.kind().equals("done")) {
                codes.add(e.rc());
            }
        }
        assertEquals(List.of(2, 2, 0), codes, lines.toString());
        List<String> first = lines.stream().filter(l -> l.startsWith("1 ")).map(l -> l.substring(2)).toList();
        List<String> second = lines.stream().filter(l -> l.startsWith("2 ")).map(l -> l.substring(2)).toList();
        assertEquals(1, first.size(), lines.toString());
        assertTrue(first.getFirst().startsWith("ib_write_bw: error: "), first.toString());
        assertEquals(first, second);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("3 rdma-perftest ")), lines.toString());
    }

    @Test
    void theWorkerIsAHiddenSubcommand() {
        picocli.CommandLine cl = Main.commandLine();
        assertTrue(cl.getSubcommands().containsKey(WorkerProtocol.COMMAND));
        assertTrue(cl.getSubcommands().get(WorkerProtocol.COMMAND).getCommandSpec().usageMessage().hidden());
    }
}
