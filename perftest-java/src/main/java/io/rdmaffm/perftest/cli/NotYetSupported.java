package io.rdmaffm.perftest.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * The perftest flags perftest-java does not support yet: the one table that makes the parser accept them (so
 * they can be refused by name, never silently ignored), refuses them, and lists them in every tool's help.
 */
enum NotYetSupported {
    DUALPORT(false, "-O", "--dualport"),
    MCG(false, "-g", "--mcg"),
    MGID(true, "-M", "--MGID"),
    HISTOGRAM(false, "-H", "--report-histogrm", "--report-histogram"),
    CYCLES(false, "-C", "--report-cycles"),
    VECTOR(true, "-X", "--vector"),
    LIMIT_BW(true, "-w", "--limit_bw"),
    LIMIT_MSGRATE(true, "-y", "--limit_msgrate"),
    COUNTERS(true, "-W", "--report-counters"),
    TOS(true, "-T", "--tos"),
    SRQ(false, "--use-srq"),
    RUN_INFINITELY(false, "--run_infinitely"),
    REPORT_BOTH(false, "--report-both"),
    REPORT_PER_PORT(false, "--report-per-port"),
    CPU_UTIL(false, "--cpu_util"),
    LATENCY_GAP(true, "--latency_gap"),
    OUTPUT(true, "--output"),
    MMAP(true, "--mmap"),
    MMAP_OFFSET(true, "--mmap-offset"),
    ODP(false, "--odp"),
    HUGEPAGES(false, "--use_hugepages"),
    MR_PER_QP(false, "--mr_per_qp"),
    SOURCE_IP(true, "--source_ip"),
    DLID(true, "--dlid"),
    FORCE_LINK(true, "--force-link"),
    IPV6(false, "--ipv6"),
    TCLASS(true, "--tclass"),
    PKEY_INDEX(true, "--pkey_index"),
    RETRY_COUNT(true, "--retry_count"),
    OLD_POST_SEND(false, "--use_old_post_send"),
    REVERSED(false, "--reversed"),
    WAIT_DESTROY(true, "--wait_destroy"),
    INLINE_RECV(true, "--inline_recv"),
    RECV_POST_LIST(true, "--recv_post_list"),
    NO_VERSIONS(false, "--dont_xchg_versions"),
    RATE_LIMIT(true, "--rate_limit"),
    RATE_UNITS(true, "--rate_units"),
    RATE_LIMIT_TYPE(true, "--rate_limit_type"),
    BURST_SIZE(true, "--burst_size"),
    TYPICAL_PKT_SIZE(true, "--typical_pkt_size"),
    NO_PCIE_RELAXED(false, "--disable_pcie_relaxed"),
    CUDA(true, "--use_cuda"),
    ROCM(true, "--use_rocm");

    private final boolean takesValue;
    private final String[] names;

    NotYetSupported(boolean takesValue, String... names) {
        this.takesValue = takesValue;
        this.names = names;
    }

    /** The name a refusal uses: the first long name. */
    String longName() {
        for (String n : names) {
            if (n.startsWith("--")) {
                return n;
            }
        }
        return names[0];
    }

    /** Accepts every flag of the table on a tool's command, hidden, and lists them at the end of its help. */
    static void register(CommandSpec tool) {
        List<String> shown = new ArrayList<>();
        for (NotYetSupported f : values()) {
            tool.addOption(OptionSpec.builder(f.names).hidden(true).type(f.takesValue ? String.class : boolean.class)
                    .build());
            shown.add(String.join("/", f.names));
        }
        tool.usageMessage().footerHeading("%nperftest flags not supported yet (refused if given):%n")
                .footer(String.join(", ", shown));
    }

    /**
     * Refuses the first flag of the table the command line used: perftest-java never ignores a flag.
     *
     * @throws CommandLine.ParameterException "option --use-srq is not supported yet by perftest-java"
     */
    static void refuse(CommandLine.ParseResult parsed) {
        for (NotYetSupported f : values()) {
            // perftest's long flag, whichever spelling was used (e.g. -O or --dualport).
            if (parsed.hasMatchedOption(f.names[0])) {
                throw new CommandLine.ParameterException(parsed.commandSpec().commandLine(),
                        "option " + f.longName() + " is not supported yet by perftest-java");
            }
        }
    }
}
