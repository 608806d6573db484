package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** fabric-worker's bad input: one line, exit 2, before anything is opened or connected. */
class FabricWorkerCommandTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--pattern allreduce --rank 0 --ranks 3 --coordinator h:5000 -s 100|-s 100 is not a multiple of 4 x 3 ranks",
        "--pattern ring --rank 0 --ranks 3 --coordinator h:5000|--pattern: no pattern 'ring'",
        "--pattern incast --rank 4 --ranks 3 --coordinator h:5000|--rank 4 is not in 0..2",
        "--pattern incast --rank 0 --ranks 3 --coordinator h|--coordinator wants HOST:PORT, got 'h'",
        "--pattern incast --rank 0 --ranks 3 --coordinator h:5000 --receiver 3|--receiver 3 is not in 0..2",
        "--pattern incast --rank 0 --ranks 3 --coordinator h:5000 -s 2 --threads 3|--threads 3: each thread takes a share of the 2 bytes (-s) every link carries",
        "--pattern allreduce --rank 0 --ranks 3 --coordinator h:5000 -s 24 --threads 3|--threads 3: each thread takes a share of every chunk's float32 elements, and -s 24 over 3 ranks has 2 per chunk",
        "--pattern incast --ranks 3 --coordinator h:5000|--rank",
        "--pattern incast --rank 0 --ranks 3 --coordinator h:5000 -s 4X|-s: invalid size '4X' (bytes, or with a K, M or G suffix)",
        "--pattern incast --rank 0 --ranks 3 --coordinator h:5000 -s 2G|-s: size must be 1 .. 2147483647 bytes, not 2147483648",
        "--pattern incast --rank 0 --ranks 3 --coordinator h:5000 -s 99999999999999999G|-s: invalid size",
        "--pattern incast --rank 0 --ranks 3 --coordinator h:5000 --rate 10|--rate '10': give the unit",
        "--pattern allgather --rank 0 --ranks 3 --coordinator h:5000 -s 24 --rate 1G|--rate paces incast, alltoall and bisection senders, not allgather",
        "--pattern incast --rank 1 --ranks 3 --coordinator h:5000 -s 1M --rate 1K --step-timeout 30|--rate 1 Kb/s: 1 iteration of 1048576 B per sender takes at least 8388.6 s at that rate, not within --step-timeout 30 s",
        "--pattern alltoall --rank 0 --ranks 3 --coordinator h:5000 --sizes 8,4|--sizes must ascend: 4 after 8",
        "--pattern allreduce --rank 0 --ranks 3 --coordinator h:5000 --sizes 12,100|-s 100 is not a multiple of 4 x 3 ranks",
        "--pattern alltoall --rank 0 --ranks 3 --coordinator h:5000 --sizes 2,64 --threads 3|--threads 3: each thread takes a share of the 2 bytes",
        "--pattern alltoall --rank 0 --ranks 3 --coordinator h:5000 --sizes 8,4Q|--sizes: invalid size '4Q'",
    })
    void badInputIsOneLineAndExitTwo(String args, String expected) {
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(out, true));
        String[] argv = ("fabric-worker " + args).split(" ");
        assertEquals(2, cl.execute(argv));
        String e = err.toString().strip();
        assertFalse(e.contains("\n"), "one line: " + e);
        assertTrue(e.startsWith("fabric-worker: error: ") && e.contains(expected), e);
    }

    @org.junit.jupiter.api.Test
    void rateTakesTheDriversArgument() {
        FabricWorkerCommand c = new FabricWorkerCommand();
        new picocli.CommandLine(c).parseArgs("--pattern", "alltoall", "--rank", "0", "--ranks", "2", "--coordinator",
                "h:5000", "--rate", "2.5Gb/s");
        assertEquals(2_500_000_000L, c.options().rate().bitsPerSecond());
        c = new FabricWorkerCommand();
        new picocli.CommandLine(c).parseArgs("--pattern", "alltoall", "--rank", "0", "--ranks", "2", "--coordinator",
                "h:5000");
        assertEquals(null, c.options().rate());
    }

    @org.junit.jupiter.api.Test
    void sizesAreASweepAndRotateMakesEveryRankTheTarget() {
        FabricWorkerCommand c = new FabricWorkerCommand();
        new picocli.CommandLine(c).parseArgs("--pattern", "incast", "--rank", "1", "--ranks", "3", "--coordinator",
                "h:5000", "--sizes", "4K,8K,16K", "--rotate");
        var o = c.options();
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {4096, 8192, 16384}, o.sizes());
        assertEquals(16384, o.bytes(), "the region is laid out for the largest");
        assertTrue(o.rotate());
    }

    @ParameterizedTest
    @CsvSource({"12K,12288", "3M,3145728", "1G,1073741824", "1g,1073741824", "4096,4096"})
    void sizeTakesTheDriversSuffixes(String size, long bytes) {
        FabricWorkerCommand c = new FabricWorkerCommand();
        new picocli.CommandLine(c).parseArgs("--pattern", "allreduce", "--rank", "0", "--ranks", "2", "--coordinator",
                "h:5000", "-s", size);
        assertEquals(bytes, c.options().bytes());
        assertEquals(bytes, io.rdmaffm.perftest.params.ParameterRules.parseCollectiveSize(size), "the driver's -s");
    }
}
