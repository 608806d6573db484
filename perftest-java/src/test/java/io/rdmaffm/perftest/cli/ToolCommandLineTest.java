package io.rdmaffm.perftest.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input to the perftest tools: one clear line, exit 2, no stack trace; and perftest's names and help. */
class ToolCommandLineTest {

    record Result(int exit, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute(args);
        return new Result(rc, out.toString(), err.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ib_atomic_bw -d dev0 -s 64|Message size cannot be changed for Atomic tests",
        "ib_write_lat -d dev0 -n 3|iterations (-n) must be 5..100000000",
        "ib_write_bw -d dev0 -c UD|connection type UD is not available for ib_write_bw",
        "ib_read_bw -d dev0 -c UC|connection type UC is not available for ib_read_bw",
        "ib_write_bw -d dev0 -c XRC -R|XRC does not support RDMA_CM (-R)",
        "ib_send_lat -d dev0 -c DC -R|DC does not support RDMA_CM (-R)",
        "ib_write_bw -d dev0 -c SRD|connection type SRD is not available for ib_write_bw",
        "ib_send_bw -d dev0 -c SRD -e|SRD does not support events (-e)",
        "ib_read_bw -d dev0 -c RawEth|-c RawEth is the transport of perftest's raw Ethernet tools (raw packet QPs)",
        "ib_write_bw -d dev0 -c FOO|unknown connection type -c FOO (RC, UC, UD, XRC, DC or SRD)",
        "ib_write_bw -d dev0 --log_dci_streams=2|log_dci_streams supported only on DC (-c DC)",
        "ib_send_bw -d dev0 -c XRC --log_active_dci_streams=2|log_active_dci_streams supported only on DC (-c DC)",
        "ib_write_bw -d dev0 --encrypt_on_tx|--encrypt_on_tx supported only with enc/dec traffic (--aes_xts)",
        "ib_send_bw -d dev0 --kek_path=/k|--kek_path supported only with enc/dec traffic (--aes_xts)",
        "ib_read_bw -d dev0 --aes_xts|Please provide key encryption key file path (--aes_xts needs --kek_path)",
        "ib_send_bw -d dev0 --aes_xts -c UD|aes_xts supported only on RC (--aes_xts with -c UD)",
        "ib_write_lat -d dev0 --aes_xts --kek_path=/k --data_enc_key_app_path=/a --credentials_path=/c|aes_xts isn't supported on write_lat",
        "ib_write_bw -d dev0 -L 3|-L/--hop_limit (the hop limit of the packets' IP header (C's ib_* tools refuse it too",
        "ib_send_lat -d dev0 -B 00:11:22:33:44:55|-B/--source_mac (the packets' source MAC) is a flag of perftest's raw Ethernet tools (raw_ethernet_bw, raw_ethernet_lat, raw_ethernet_burst_lat, raw_ethernet_fs_rate), which send their own packets on raw packet QPs; ib_send_lat does not use it, and perftest-java has no raw Ethernet tools",
        "ib_read_bw -d dev0 -j 10.0.0.1|-j (the packets' source IP (-j/--source_ip there; here --source_ip is the connection set-up's source address))",
        "ib_write_bw -d dev0 -r 4|On RDMA verbs rx depth can be only 1",
        "ib_write_bw -d dev0 -D 4 -f 2|please check that DURATION > 2*MARGIN",
        "ib_write_bw -d dev0 -a -D 10|-D cannot be combined with -a",
        "ib_write_bw -d dev0 -m 1000|MTU (-m) must be 256, 512, 1024, 2048 or 4096",
        "ib_write_bw -d dev0 -s 12Q|invalid size '12Q'",
        "ib_write_bw -d dev0 -R -c UC|UC is not supported in librdmacm",
        "ib_send_lat -d dev0 -R -c UD|-R with -c UD is not supported yet",
        "ib_send_bw -d dev0 -g -c RC|-g/--mcg runs on UD: not with -c RC (leave -c out or give -c UD)",
        "ib_send_lat -d dev0 -M 255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:0|-M/--MGID names the multicast group of -g/--mcg: give -g too",
        "ib_send_bw -d dev0 -g -M 255:1:2|invalid -M/--MGID '255:1:2': 16 colon-separated byte values, not 3",
        "ib_send_bw -d dev0 -g -M 255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:x1|byte 16 'x1' is not a number 0..255",
        "ib_send_bw -d dev0 -g -M 254:1:0:0:0:2:201:133:0:0:0:0:0:0:0:0|a multicast GID begins with 255 (0xff)",
        "ib_send_bw -d dev0 -g -b|Bidirectional mode not supported in multicast",
        "ib_send_bw -d dev0 -g -q 2|Only 1 QP supported in multicast",
        "ib_send_lat -d dev0 -g -R|Perftest still doesn't support Multicast with rdma_cm",
        "ib_write_bw -d dev0 -g|unknown option '-g'",
        "ib_read_bw -d dev0 --force-link=roce|Invalid link layer value should be IB or ETHERNET",
        "ib_write_lat -d dev0 --dlid=-1|invalid --dlid -1",
        "ib_write_bw -d dev0 --run_infinitely -e|run_infinitely does not support events feature yet (-e)",
        "ib_write_lat -d dev0 --run_infinitely|unknown option '--run_infinitely'",
        "ib_read_bw -d dev0 --run_infinitely --rate_limit=1 --rate_limit_type=SW|run_infinitely does not support rate limit",
        "ib_send_bw -d dev0 --run_infinitely -b|run_infinitely mode is not supported in SEND Bidirectional BW test",
        "ib_write_bw -d dev0 --run_infinitely -b -R|--run_infinitely on ib_send_bw or with -b takes the TCP exchange",
        "ib_send_bw -d dev0 --run_infinitely -z|--run_infinitely on ib_send_bw or with -b takes the TCP exchange",
        "ib_atomic_bw -d dev0 --run_infinitely --verify|--verify is incompatible with --run_infinitely",
        "ib_write_bw -d dev0 --rate_limit=0|--rate_limit must be a positive number, not '0'",
        "ib_write_bw -d dev0 --rate_limit=5 --rate_units=k|Invalid rate limit units (--rate_units k). Please use M, g or p",
        "ib_write_bw -d dev0 --rate_limit=5 --rate_limit_type=XX|Invalid rate limit type (--rate_limit_type XX)",
        "ib_write_bw -d dev0 --rate_limit_type=SW|--rate_limit_type SW needs --rate_limit",
        "ib_write_bw -d dev0 --burst_size=8|Can't enable burst mode when rate limiter is off",
        "ib_write_bw -d dev0 --burst_size=-1|--burst_size must be >= 0, not -1",
        "ib_write_bw -d dev0 --rate_limit=1 --rate_limit_type=SW --typical_pkt_size=64|Typical packet size only supports PP",
        "ib_atomic_bw -d dev0 --rate_limit=1 --rate_limit_type=SW|SW rate limiter runs only in the bandwidth tests",
        "ib_send_bw -d dev0 -b --rate_limit=1 --rate_limit_type=SW|not with ib_send_bw -b (ib_send_bw)",
        "ib_write_lat -d dev0 --rate_limit=1 --rate_limit_type=SW|(ib_write_lat)",
        "ib_write_bw -d dev0 --rate_limit=3|Unknown HW rate limit value --rate_limit 3 (a static rate in Gb/s: 2.5, 5,",
        "ib_write_bw -d dev0 --rate_limit=10 --rate_units=p|pps rate limit units is not supported when setting HW",
        "ib_write_bw -d dev0 -R --rate_limit=10|HW rate limit isn't supported yet with rdma_cm scenarios",
        "ib_write_bw -d dev0 -C|unknown option '-C'",
        "ib_write_bw -d dev0 -R --reversed|--reversed with -R/-z is not supported",
        "ib_send_bw -d dev0 -z --reversed|--reversed with -R/-z is not supported",
        "ib_write_lat -d dev0 --reversed|unknown option '--reversed'",
        "ib_write_bw -d dev0 --use_cuda=zero|--use_cuda takes a GPU index (0, 1, ...), not 'zero'",
        "ib_write_lat -d dev0 --use_cuda=0|ib_write_lat polls its buffer from the CPU and cannot use GPU memory",
        "ib_read_bw -d dev0 --use_cuda_dmabuf|--use_cuda_dmabuf needs --use_cuda=<GPU index> or --use_cuda_bus_id",
        "ib_write_bw -d dev0 --use_cuda=0 --use_rocm=0|--use_rocm: ",
        "ib_send_bw -d dev0 -X 1|Events must be enabled to select a completion vector",
        "ib_write_bw -d dev0 -e -X 0|Events feature not available on WRITE verb",
        "ib_send_bw -d dev0 -e -X 4000|EQN should be between 0 and 2048, not 4000",
        "ib_write_bw -d dev0 --report-per-port -O|report per port feature work only with Duration and Dualport",
        "ib_write_lat -d dev0 -O|unknown option '-O'",
        "ib_read_lat -d dev0 --report-per-port|unknown option '--report-per-port'",
        "ib_send_bw -d dev0 --odp --use_cuda=0|--odp pages host memory",
        "ib_write_bw -d dev0 -w -3|Invalid Minimum BW Limit",
        "ib_send_bw -d dev0 --limit_msgrate=x|Invalid Minimum msgRate Limit: 'x' is not a number",
        "ib_write_lat -d dev0 -w 10|unknown option '-w'",
        "ib_send_bw -d dev0 -b -D 4|-b with -D for ib_send_bw is not supported yet",
        "ib_write_lat -d dev0 -e|Events feature not available on WRITE verb",
        "ib_atomic_lat -d dev0 -A XOR|atomic type (-A) must be CMP_AND_SWAP or FETCH_AND_ADD",
        "ib_write_bw -d dev0 -l 3 -n 1000|iterations (-n) must be a multiple of the post list (-l)",
        "ib_send_bw -d dev0 -x 300|invalid -x/--gid-index 300",
        "ib_write_bw -d dev0 --output=latency|Output verbosity level for BW can be: bandwidth, message_rate",
        "ib_send_lat -d dev0 --output bandwidth|Output verbosity level for LAT can be: latency",
        "ib_read_bw -d dev0 --output=foo|Invalid verbosity level output flag",
        "ib_read_bw -d dev0 --cpu_util|CPU Utilization works only with Duration mode (-D)",
        "ib_write_bw -d dev0 -H|unknown option '-H'",
        "ib_write_bw -d dev0 --latency_gap=10|unknown option '--latency_gap=10'",
        "ib_send_bw -d dev0 -R --pkey_index=2|--pkey_index with -R is not supported",
        "ib_write_bw -d dev0 -T 96|TOS only valid for rdma_cm based QP and RawEth QP (-T needs -R)",
        "ib_write_lat -d dev0 -R --tos=300|invalid -T/--tos 300 (0..255)",
        "ib_send_bw -d dev0 -R --tclass=96|--tclass with -R is not supported",
        "ib_read_lat -d dev0 --tclass=256|invalid --tclass 256 (0..255)",
        "ib_write_bw -d dev0 -q 2 --threads 4|--threads 4 exceeds the number of QPs (-q 2)",
        "ib_write_lat -d dev0 --threads 2|unknown option '--threads'",
        "ib_atomic_bw -d dev0 -W hw_counters/../x|invalid -W/--report-counters list",
        "ib_read_bw -d dev0 --wait_destroy=-1|--wait_destroy must be >= 0 seconds",
        "ib_write_bw -d dev0 --use-srq|Using SRQ only avavilible in SEND tests.",
        "ib_send_bw -d dev0 --use-srq -q 8 -r 4|Using SRQ depth should be greater than number of QPs.",
        "ib_write_bw -d dev0 -R --retry_count=9|--retry_count must be 0..7 (rdma_cm's retry_count is 3 bits",
        "ib_send_lat -d dev0 --retry_count=x|--retry_count",
        "ib_read_lat -d dev0 --dont_xchg_versions=1|--dont_xchg_versions",
        "ib_send_lat -d dev0 --latency_gap=-5|Latency gap time (--latency_gap) must be non-negative",
        "ib_write_lat -d dev0 --report-both|unknown option '--report-both'",
        "ib_send_bw -d dev0 --mmap-offset=4096|--mmap-offset needs --mmap FILE",
        "ib_send_bw -d dev0 --mmap=/tmp/f --mmap-offset=-1|invalid --mmap-offset -1",
        "ib_write_bw -d dev0 --mmap=/tmp/f --use_cuda=0|You cannot use CUDA and an mmap'd file at the same time",
        "ib_read_bw -d dev0 --use_hugepages --mmap=/tmp/f|--use_hugepages and --mmap both choose the buffer",
        "ib_write_bw -d dev0 --inline_recv=64|unknown option '--inline_recv=64'",
        "ib_send_lat -d dev0 --inline_recv=x|--inline_recv",
        "ib_send_lat -d dev0 --recv_post_list=4|unknown option '--recv_post_list=4'",
        "ib_write_bw -d dev0 --recv_post_list=4|--recv_post_list posts receives: only ib_send_bw receives",
        "ib_send_bw -d dev0 -n 1001 --recv_post_list=4|Number of iterations must be a multiple of receive post list",
        "ib_send_bw -d dev0 -r 510 --recv_post_list=4|rx depth (-r 510) must be a multiple of the receive post list",
        "ib_send_bw -d dev0 --recv_post_list=0|receive post list (--recv_post_list) must be 1..16384, not 0",
        "ib_send_lat -d dev0 --mr_per_qp|unknown option '--mr_per_qp'",
        "ib_send_lat -d dev0 --ipv6 -x 1|--ipv6 chooses the GID index: not with -x/--gid-index",
        "ib_write_bw -d dev0 --ipv6 -R|--ipv6 with -R is not supported: rdma_cm takes the GID of its route",
        "ib_read_bw -d dev0 --source_ip=10.0.0.256|invalid --source_ip '10.0.0.256' (an IPv4 address, e.g. 10.0.0.1)",
        "ib_send_lat -d dev0 --source_ip fe80::1|invalid --source_ip 'fe80::1'",
    })
    void badInputIsOneClearLineAndExitTwo(String command, String expected) {
        Result r = run(command.split(" "));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace without --debug: " + r.err());
    }

    /** Each raw Ethernet flag, on each tool in turn (and one on all eight): named, one line, exit 2. */
    @Test
    void rawEthernetFlagsAreRefusedByNameOnEveryTool() {
        io.rdmaffm.perftest.vocab.Tool[] tools = io.rdmaffm.perftest.vocab.Tool.values();
        int i = 0;
        for (io.rdmaffm.perftest.params.Flag f : io.rdmaffm.perftest.params.Flag.values()) {
            if (!f.rawEthernet()) {
                continue;
            }
            List<io.rdmaffm.perftest.vocab.Tool> on = f == io.rdmaffm.perftest.params.Flag.SOURCE_MAC
                    ? List.of(tools) : List.of(tools[i++ % tools.length]);
            for (io.rdmaffm.perftest.vocab.Tool t : on) {
                List<String> args = new java.util.ArrayList<>(List.of(t.perftestName(), "-d", "dev0",
                        f.names().getLast()));
                if (f.kind() != io.rdmaffm.perftest.params.Flag.Kind.BOOLEAN) {
                    args.add("1");
                }
                Result r = run(args.toArray(String[]::new));
                assertEquals(2, r.exit(), f + " on " + t + ": " + r.err());
                assertTrue(r.err().contains(String.join("/", f.names()) + " (" + f.help() + ") is a flag of "
                        + "perftest's raw Ethernet tools") && r.err().contains("; " + t.perftestName()
                        + " does not use it"), r.err());
                assertEquals(1, r.err().strip().lines().filter(l -> l.contains("raw Ethernet")).count(), r.err());
            }
        }
        assertTrue(i > 20, "raw Ethernet flags seen: " + i);
    }

    @Test
    void optionsOfOtherToolsAreRejected() {
        Result r = run("ib_write_lat", "-d", "dev0", "-q", "2");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("-q"), r.err());
    }

    @Test
    void unknownDeviceIsOneLine() {
        Result r = run("ib_write_bw", "-d", "no_such_device0", "127.0.0.1");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("no_such_device0"), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    }

    @Test
    void everyPerftestToolHasHelp() {
        for (String tool : new String[] {"ib_write_bw", "ib_write_lat", "ib_read_bw", "ib_read_lat", "ib_send_bw",
            "ib_send_lat", "ib_atomic_bw", "ib_atomic_lat"}) {
            Result r = run(tool, "--help");
            assertEquals(0, r.exit(), tool);
            assertTrue(r.out().contains("Usage: rdma-perftest " + tool), r.out());
            assertTrue(r.out().contains("--ib-dev"), r.out());
        }
    }

    @Test
    void sizesTakePerftestSuffixes() {
        assertEquals(65536, ToolCommand.parseSize("64K"));
        assertEquals(8L << 20, ToolCommand.parseSize("8M"));
        assertEquals(2, ToolCommand.parseSize("2"));
    }
}
