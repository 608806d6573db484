package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;

import java.nio.file.Path;
import java.util.List;

/**
 * Every perftest flag, each declared once: its names, value type, which tools take it, its default per tool,
 * its single-flag rule, its key in the JSON {@code parameters} block and its help. The CLI builds each tool's
 * options from this table, {@link ParameterRules} reads defaults and rules from it, {@link RunParameters#describe}
 * takes the JSON keys from it, and the early listen scans argv with it. A flag of perftest's raw Ethernet tools is
 * declared {@link #rawEthernet()}: accepted by the parser, refused by name on every tool. Declaration order is the
 * order of the help and of the JSON keys. How to add one: docs/adding-a-flag.md; PerftestOptionsTest checks that
 * every option of perftest 4.5 is declared.
 *
 * <p>Plain data on purpose: no lambdas or constant bodies, so the early listen can read the table before
 * anything else has loaded.
 */
public enum Flag {
    // ---- every tool ----
    DEVICE(text("DEV", "RDMA device (default: the first one).").json("device"), "-d", "--ib-dev"),
    IB_PORT(integer("PORT", "Port of the device (default: 1).").byDefault(1)
            .range(1, 255, "invalid -i/--ib-port %d (ports start at 1)").json("ib_port"), "-i", "--ib-port"),
    GID_INDEX(integer("IDX", "GID index (RoCE default: chosen as perftest does, preferring RoCE v2 IPv4-mapped).")
            .byDefault(-1).range(0, 255, "invalid -x/--gid-index %d").json("gid_index"), "-x", "--gid-index"),
    // perftest's inet_addr: an IPv4 literal. The JSON shows "" when the routing table chooses (RunParameters).
    SOURCE_IP(text("IP", "Source IPv4 address of the connection set-up: the client's exchange socket and rdma_cm "
            + "address, the server's listening address (default: from the routing table).").json("source_ip"),
            "--source_ip"),
    // perftest 4.5's --ipv6 only turns its automatic GID choice to IPv6 (its TCP and rdma_cm exchanges are IPv4).
    IPV6(flag("RoCE: choose an IPv6 GID (not IPv4-mapped) as the automatic GID index (not with -x or -R).")
            .json("ipv6"), "--ipv6"),
    TCP_PORT(integer("PORT", "TCP port of the exchange (default: 18515).").byDefault(18515)
            .range(1, 65535, "invalid -p/--port %d").json("tcp_port"), "-p", "--port"),
    SIZE(text("SIZE", "Message size in bytes (K/M suffixes).").byDefault("65536", "2").json("size"), "-s", "--size"),
    ALL_SIZES(flag("Run sizes 2 B .. 8 MiB."), "-a", "--all"),
    ITERATIONS(longInteger("N", "Iterations.").byDefault(1000L).forTool(Tool.WRITE_BW, 5000L)
            .range(5, 100_000_000L, "iterations (-n) must be 5..100000000, not %d").json("iterations"),
            "-n", "--iters"),
    DURATION(integer("SEC", "Run for SEC seconds instead of -n.").byDefault(0)
            .range(1, Integer.MAX_VALUE, "duration (-D) must be a positive number of seconds").json("duration_s"),
            "-D", "--duration"),
    MARGIN(integer("SEC", "Warm-up/cool-down margin of -D (default: D/4).").json("margin_s"), "-f", "--margin"),
    CPU_UTIL(flag("With -D: print the CPU utilization of the sample window (user / (user + idle) of /proc/stat).")
            .json("cpu_util"), "--cpu_util"),
    TX_DEPTH(integer("N", "Send queue depth.").byDefault(128, 1).range(1, 15000, "tx depth (-t) must be 1..15000")
            .json("tx_depth"), "-t", "--tx-depth"),
    RX_DEPTH(integer("N", "Receive queue depth (send tools).").byDefault(512)
            .range(1, 16384, "rx depth (-r) must be 1..16384").json("rx_depth"), "-r", "--rx-depth"),
    CONNECTION(text("TYPE", "RC, UC or UD (where the tool allows).").byDefault("RC").json("connection"),
            "-c", "--connection"),
    MTU(integer("BYTES", "Path MTU: 256..4096 (default: port's active MTU).").byDefault(0).json("mtu"), "-m", "--mtu"),
    QP_TIMEOUT(integer("N", "QP ACK timeout exponent (default: 14).").byDefault(14)
            .range(0, 31, "QP timeout (-u) must be 0..31").json("qp_timeout"), "-u", "--qp-timeout"),
    SERVICE_LEVEL(integer("SL", "Service level (default: 0).").byDefault(0).json("sl"), "-S", "--sl"),
    // -1: off; rdma_cm then leaves the type of service to the kernel (perftest: -T only with -R).
    TOS(integer("TOS", "IP type of service of the rdma_cm QPs, 0..255 (only with -R; default: off).").byDefault(-1)
            .range(0, 255, "invalid -T/--tos %d (0..255)").json("tos"), "-T", "--tos"),
    TCLASS(integer("TC", "Traffic class of the GRH of the QPs' address, 0..255 (where a GRH is used; default: 0).")
            .byDefault(0).range(0, 255, "invalid --tclass %d (0..255)").json("tclass"), "--tclass"),
    PKEY_INDEX(integer("IDX", "P_Key index of the QPs, in the port's P_Key table (default: 0).").byDefault(0)
            .range(0, 65535, "invalid --pkey_index %d").json("pkey_index"), "--pkey_index"),
    EVENTS(flag("Wait for completion events instead of busy polling.").json("events"), "-e", "--events"),
    // perftest's -F silences its cpufreq warning; the loops' clock is calibrated at start and named in the JSON.
    CPU_FREQ(flag("Accepted for compatibility (the loops' clock is calibrated at start; --out_json names it)."),
            "-F", "--CPU-freq"),
    PERFORM_WARM_UP(flag("Accepted for compatibility (perftest-java always warms up: see --warmup).").hidden(),
            "--perform_warm_up"),
    RDMA_CM(flag("Connect the QPs with rdma_cm (implies -z).").json("rdma_cm"), "-R", "--rdma_cm"),
    COMM_RDMA_CM(flag("Exchange the control data over an rdma_cm QP instead of TCP.").json("rdma_cm_exchange"),
            "-z", "--comm_rdma_cm"),
    REPORT_GBITS(flag("Report bandwidth in Gb/s.").json("report_gbits"), "--report_gbits"),
    COUNTERS(text("LIST", "After each result row, print the change of these port counters (comma-separated, as "
            + "under the port's sysfs directory, e.g. hw_counters/out_of_sequence,counters/port_xmit_wait)."),
            "-W", "--report-counters"),
    OUTPUT(text("UNITS", "Print one figure per size and nothing else: bandwidth or message_rate (bandwidth tools), "
            + "latency (latency tools: the average).").json("output"), "--output"),
    OUT_JSON(flag("Write the results as (valid) JSON."), "--out_json"),
    OUT_JSON_FILE(path("FILE", "JSON file (default: perftest_out.json).").byDefault(Path.of("perftest_out.json")),
            "--out_json_file"),
    VERIFY(flag("Fill sources with a pattern and check every byte that arrived (perftest-java on both sides).")
            .json("verify"), "--verify"),
    WARMUP(integer("N", "Warm-up before the run, on a QP connected to itself: at least N loop iterations in short "
            + "invocations, repeated until the JIT compiles nothing more (at most 30 s) (default: 4000; 0 = off).")
            .byDefault(4_000).range(0, Integer.MAX_VALUE, "--warmup must be >= 0").json("warmup_iterations"),
            "--warmup"),
    TIMEOUT(integer("SEC", "Seconds without progress before a stalled peer ends the run (default: 10).").byDefault(10)
            .range(1, Integer.MAX_VALUE, "--timeout must be at least 1 second"), "--timeout"),
    ACCEPT_TIMEOUT(integer("SEC", "Seconds the server waits for a client (default: 300).").byDefault(300),
            "--accept-timeout"),
    PEER_TIMEOUT(integer("SEC", "Seconds the passive side waits for the peer's measured run (default: 300, plus -D).")
            .byDefault(300), "--peer-timeout"),
    WAIT_DESTROY(integer("SEC", "Wait SEC seconds after the run before releasing the QPs, CQs, MRs and PD "
            + "(default: 0).").byDefault(0).range(0, Integer.MAX_VALUE, "--wait_destroy must be >= 0 seconds")
            .json("wait_destroy_s"), "--wait_destroy"),
    // Every tool takes it, as perftest's parser does; the rules refuse it on the RDMA verbs with perftest's message.
    SRQ(flag("Receive through one shared receive queue (send tools; where this side receives: latency, server, "
            + "-b).").json("use_srq"), "--use-srq"),
    // InfiniBand only: refused on a RoCE port with the port's link layer (OpenDevice); 0 is perftest's "not given".
    DLID(integer("LID", "Destination LID to use instead of the peer's (InfiniBand; default: the peer's).").byDefault(0)
            .range(0, 65535, "invalid --dlid %d (a LID is 16 bits)").json("dlid"), "--dlid"),
    // perftest-java runs a port as the link it is: a forced type other than the port's is refused with the port's.
    FORCE_LINK(text("TYPE", "IB or Ethernet: the link type the port must have (default: the port's)."),
            "--force-link"),
    // perftest 4.5 still checks the version it skipped (an empty one, < 5.70): the run ends after the connection.
    NO_VERSIONS(flag("Do not exchange versions and MTU with the other side (perftest 4.5 then refuses the peer as "
            + "older than 5.70: the run ends, exit 1, as C's does).").json("dont_xchg_versions"), "--dont_xchg_versions"),
    // rdma_cm's retry_count is 3 bits (0..7); perftest checks only that it is not negative.
    RETRY_COUNT(integer("N", "With -R: the test QPs' retry count and RNR retry count; with -z, the exchange QP's retry "
            + "count (rdma_cm; default: 7).").byDefault(7).range(0, 7, "--retry_count must be 0..7 (rdma_cm's "
            + "retry_count is 3 bits; C perftest passes a larger one on, and rdma_cm cannot carry it), not %d").json("retry_count"), "--retry_count"),
    DEBUG(flag("Print stack traces of errors."), "--debug"),

    // ---- bandwidth tools ----
    QPS(integer("N", "Number of QPs (default: 1).").on(Tools.BANDWIDTH).byDefault(1)
            .range(1, 16384, "number of QPs (-q) must be 1..16384").json("num_qps"), "-q", "--qp"),
    // perftest-java's own: C perftest drives every QP from one thread. The peer does not see it (EngineThreads).
    THREADS(integer("T", "Drive the -q QPs from T threads, each with its own CQs and an even share of the QPs "
            + "(1..-q; a perftest-java extension: the peer neither sees it nor needs it; default: 1).")
            .on(Tools.BANDWIDTH).byDefault(1).range(1, 16384, "--threads must be 1..16384, not %d").json("threads"),
            "--threads"),
    BIDIRECTIONAL(flag("Measure both directions at once.").on(Tools.BANDWIDTH).json("bidirectional"),
            "-b", "--bidirectional"),
    POST_LIST(integer("N", "Post N work requests per post call.").on(Tools.BANDWIDTH).byDefault(1).json("post_list"),
            "-l", "--post_list"),
    // 0: not given; the plan then chooses as perftest does.
    CQ_MODERATION(integer("N", "Signal every N-th work request (default: 100).").on(Tools.BANDWIDTH).byDefault(0)
            .range(1, 1024, "CQ moderation (-Q) must be 1..1024").json("cq_moderation"), "-Q", "--cq-mod"),
    NO_PEAK(flag("Do not compute the peak bandwidth.").on(Tools.BANDWIDTH), "-N", "--noPeak"),
    // perftest ignores it without -b, and with -a (it is printed after one size only).
    REPORT_BOTH(flag("With -b: also print each side's own figures (not with -a).").on(Tools.BANDWIDTH)
            .json("report_both"), "--report-both"),

    // perftest's verifier: the run fails (exit 1, its line on stderr) unless a printed row reaches the limit.
    LIMIT_BW(text("BW", "Fail the run (exit 1) unless the average bandwidth of a row reaches BW (report unit; "
            + "default: 0, no limit).").on(Tools.BANDWIDTH).byDefault("0").json("limit_bw"), "-w", "--limit_bw"),
    LIMIT_MSGRATE(text("MPPS", "Fail the run (exit 1) unless the message rate of a row reaches MPPS (default: 0, "
            + "no limit).").on(Tools.BANDWIDTH).byDefault("0").json("limit_msgrate"), "-y", "--limit_msgrate"),

    // ---- latency tools ----
    REPORT_UNSORTED(flag("Print every sample, unsorted.").on(Tools.LATENCY), "-U", "--report-unsorted"),
    LATENCY_GAP(integer("USEC", "Busy-wait USEC microseconds before each post; counted in the latency, as in "
            + "perftest (default: 0).").on(Tools.LATENCY).byDefault(0)
            .range(0, Integer.MAX_VALUE, "Latency gap time (--latency_gap) must be non-negative").json("latency_gap_us"),
            "--latency_gap"),
    // perftest's long name has the typo; the right spelling is its alias.
    HISTOGRAM(flag("Print the samples the table is computed from, sorted (all but the two largest).")
            .on(Tools.LATENCY).json("report_histogram"), "-H", "--report-histogrm", "--report-histogram"),
    HGRM(path("FILE", "Write the full HdrHistogram latency distribution (.hgrm, µs) to FILE (FILE.<size> with -a).")
            .on(Tools.LATENCY), "--hgrm"),

    // ---- per verb ----
    // -1: not given; the plan then chooses as perftest does.
    INLINE_SIZE(integer("BYTES", "Max inline data size.").on(Tools.SEND_AND_WRITE).byDefault(-1)
            .range(0, 912, "inline size (-I) must be 0..912").json("inline_size"), "-I", "--inline_size"),
    // 0: not given; the device's maximum.
    OUTSTANDING_READS(integer("N", "Outstanding reads/atomics (default: device max).").on(Tools.READ_AND_ATOMIC)
            .byDefault(0).range(1, Integer.MAX_VALUE, "outstanding reads (-o) must be positive")
            .json("outstanding_reads"), "-o", "--outs"),
    ATOMIC_TYPE(text("TYPE", "CMP_AND_SWAP or FETCH_AND_ADD (default).").on(Tools.ATOMIC).byDefault("FETCH_AND_ADD")
            .json("atomic_type"), "-A", "--atomic_type"),

    // ---- what the device must have: checked against its capabilities when it is opened (DeviceRules) ----
    // perftest's -X is "EQN" 0..2048; the device's num_comp_vectors bounds it further.
    VECTOR(integer("N", "Completion vector of the CQs, with -e (default: 0; below the device's num_comp_vectors).")
            .byDefault(0).range(0, 2048, "EQN should be between 0 and 2048, not %d").json("comp_vector"),
            "-X", "--vector"),
    ODP(flag("Register the buffer with on-demand paging (IBV_ACCESS_ON_DEMAND); refused where the device reports "
            + "no ODP for the run's verb.").json("odp"), "--odp"),
    DUALPORT(flag("Run half the QPs on port 1 and half on port 2; refused on a one-port device.")
            .on(Tools.BANDWIDTH).json("dualport"), "-O", "--dualport"),
    REPORT_PER_PORT(flag("With -O and -D: report each port's bandwidth.").on(Tools.BANDWIDTH)
            .json("report_per_port"), "--report-per-port"),
    // perftest registers with IBV_ACCESS_RELAXED_ORDERING unless told not to (ib_write_lat never: it polls memory).
    NO_PCIE_RELAXED(flag("Register without PCIe Relaxed Ordering (IBV_ACCESS_RELAXED_ORDERING, requested by "
            + "default)."), "--disable_pcie_relaxed"),
    ROCM(text("ID", "ROCm GPU memory: refused, naming what was looked for (perftest-java has no ROCm buffers)."),
            "--use_rocm"),

    // ---- GPU memory (libcuda.so.1 is loaded only when one of these is given; RDMAFFM_LIBCUDA names another) ----
    // The JSON's "memory" is where the buffer lives, as the rules chose it (MemoryChoice.describe).
    USE_CUDA(text("INDEX", "Put the buffer in the memory of CUDA GPU INDEX.").json("memory"), "--use_cuda"),
    USE_CUDA_BUS_ID(text("PCI", "Put the buffer in the memory of the GPU at PCI address PCI (e.g. 0000:3b:00.0)."),
            "--use_cuda_bus_id"),
    USE_CUDA_DMABUF(flag("Register the GPU buffer as a dma-buf (ibv_reg_dmabuf_mr) instead of peer memory; falls "
            + "back, saying so, where refused."), "--use_cuda_dmabuf"),

    // ---- the buffer and how work requests are posted ----
    // perftest attaches a SysV huge-page segment; perftest-java maps MAP_HUGETLB pages: the same reserved pool.
    // The JSON's "memory" (USE_CUDA's key) names huge pages or the file and offset (RunParameters.jsonValue).
    HUGEPAGES(flag("Put the buffer in huge pages (needs pages reserved: /proc/sys/vm/nr_hugepages)."),
            "--use_hugepages"),
    MMAP(path("FILE", "Use FILE, mapped shared and read-write, as the buffer (it must hold the whole buffer "
            + "from --mmap-offset on)."), "--mmap"),
    MMAP_OFFSET(longInteger("BYTES", "Where the buffer starts in the --mmap file: a multiple of the page size "
            + "(default: 0).").byDefault(0L).range(0, Long.MAX_VALUE, "invalid --mmap-offset %d (bytes into the file)"),
            "--mmap-offset"),
    // perftest gives each QP its own buffer and MR; here each QP's MR covers the run's one buffer (its own keys).
    MR_PER_QP(flag("Register a memory region per QP: each QP posts and is addressed with its own lkey and rkey.")
            .on(Tools.BANDWIDTH).json("mr_per_qp"), "--mr_per_qp"),
    // perftest posts through ibv_wr_* on ConnectX, BlueField and EFA only, ibv_post_send elsewhere (rxe among them:
    // its banner says "ibv_wr* API : OFF" there); perftest-java always posts through ibv_post_send.
    OLD_POST_SEND(flag("Post through ibv_post_send (perftest-java's only post path; perftest's too on devices other "
            + "than ConnectX, BlueField and EFA)."), "--use_old_post_send"),
    // perftest 4.5 reads it into inline_recv_size and uses it nowhere: accepted, said on stderr, no effect.
    INLINE_RECV(integer("BYTES", "Accepted as perftest 4.5 accepts it: it reads the size and uses it nowhere "
            + "(said on stderr).").on(Tools.NOT_WRITE).byDefault(0).range(0, Integer.MAX_VALUE, "invalid --inline_recv %d")
            .json("inline_recv"), "--inline_recv"),
    RECV_POST_LIST(integer("N", "Post receives N at a time (ib_send_bw; -n and -r multiples of N).")
            .on(Tools.BANDWIDTH).byDefault(1).range(1, 16384, "receive post list (--recv_post_list) must be "
                    + "1..16384, not %d").json("recv_post_list"), "--recv_post_list"),

    // perftest prints the cycles under its [usec] headers; the loops' cycle counter gives them (RunReporter).
    CYCLES(flag("Report latencies in CPU cycles of the loops' cycle counter instead of microseconds (the table's "
            + "header keeps perftest's [usec]).").on(Tools.LATENCY).json("report_cycles"), "-C", "--report-cycles"),
    // A looping side stops on SIGINT and ends the run as usual (exit 0); C 4.5-0.17 dies on it (captures/write_bw_inf).
    // Where both sides loop (ib_send_bw's receiver, -b) the exchange connection's close ends the peer (PeerEnd).
    RUN_INFINITELY(flag("Run until stopped (Ctrl-C), printing a row every -D seconds (default: 5); the run then ends "
            + "cleanly on both sides. Give it on both sides, as in perftest.").on(Tools.BANDWIDTH)
            .json("run_infinitely"), "--run_infinitely"),
    // perftest flips its machine role and keeps the TCP one: the side without a host sends (RunParameters.connects).
    REVERSED(flag("Reverse the traffic: the side without a host sends and the side given one receives; give it on "
            + "both sides, as in perftest.").on(Tools.BANDWIDTH).json("reversed"), "--reversed"),
    // ---- perftest's rate limiter (RateLimit: the rules; DeviceRules: HW and PP against the port and device) ----
    RATE_LIMIT(text("RATE", "Limit the rate of sent messages to RATE (--rate_units; default: Gb/s). Without "
            + "--rate_limit_type: HW, or SW where the port has no static rate (RoCE), as perftest falls back.")
            .json("rate_limit"), "--rate_limit"),
    RATE_UNITS(text("UNITS", "Units of --rate_limit: M (MiB/s), g (Gb/s, default) or p (messages/s; not with HW).")
            .byDefault("g").json("rate_units"), "--rate_units"),
    RATE_LIMIT_TYPE(text("TYPE", "SW (the sender paces bursts; bandwidth tools), HW (the port's static rate, "
            + "InfiniBand: 2.5, 5, 10, .. 300 Gb/s) or PP (packet pacing; raw Ethernet only: refused).")
            .json("rate_limit_type"), "--rate_limit_type"),
    // 0: not given; a rate limit then sends bursts of tx depth messages, as perftest.
    BURST_SIZE(integer("N", "With a rate limit: messages per burst (default: the tx depth).").byDefault(0)
            .range(0, Integer.MAX_VALUE, "--burst_size must be >= 0, not %d").json("burst_size"), "--burst_size"),
    TYPICAL_PKT_SIZE(integer("BYTES", "With --rate_limit_type PP: the typical packet size, 0..65535.").byDefault(0)
            .range(0, 0xFFFF, "--typical_pkt_size must be 0..65535, not %d"), "--typical_pkt_size"),
    // ---- UD multicast (send tools): the receiving QP joins a group, the sender sends to its GID and QPN 0xFFFFFF ----
    // perftest switches to UD by itself; here -c other than UD is refused (ParameterRules.multicast).
    MCG(flag("Multicast over UD: the receiving side attaches its QP to a group (-M, default perftest's "
            + "255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:0) and the sender sends to it (one QP, not with -b).")
            .on(Tools.SEND).json("mcg"), "-g", "--mcg"),
    MGID(text("MGID", "With -g: the group's GID as 16 colon-separated byte values, e.g. "
            + "255:14:0:0:0:2:201:133:0:0:0:0:0:0:0:1 (each decimal or 0x hex; the first 255).")
            .on(Tools.SEND).json("mgid"), "-M", "--MGID"),

    // ---- what only some devices have, and perftest-java has on none: refused with the device's reason
    // (DeviceRules.vendorOnly). Hidden: the help lists what runs somewhere; README's table lists these. ----
    // mlx5 crypto (perftest's HAVE_AES_XTS): mlx5dv crypto login, DEKs and signature MRs.
    AES_XTS(flag("mlx5 AES-XTS encryption of the traffic (mlx5dv crypto).").hidden(), "--aes_xts"),
    ENCRYPT_ON_TX(flag("mlx5 crypto: encrypt on send.").hidden(), "--encrypt_on_tx"),
    SIG_BEFORE(flag("mlx5 crypto: signature before the crypto operation.").hidden(), "--sig_before"),
    AES_BLOCK_SIZE(text("BYTES", "mlx5 crypto: AES block size (512, 520, 4048, 4096 or 4160).").hidden(),
            "--aes_block_size"),
    KEK_PATH(text("FILE", "mlx5 crypto: the key encryption key file.").hidden(), "--kek_path"),
    CREDENTIALS_PATH(text("FILE", "mlx5 crypto: the credentials file of the crypto login.").hidden(),
            "--credentials_path"),
    DATA_ENC_KEYS_NUMBER(text("N", "mlx5 crypto: number of data encryption keys.").hidden(), "--data_enc_keys_number"),
    DATA_ENC_KEY_APP_PATH(text("FILE", "mlx5 crypto: the program that wraps the data encryption keys.").hidden(),
            "--data_enc_key_app_path"),
    // DC (perftest's HAVE_DCS): DCI streams of an mlx5dv DC initiator; perftest: "supported only on DC".
    LOG_DCI_STREAMS(text("N", "With -c DC: log2 of the DCI streams (mlx5dv).").hidden(), "--log_dci_streams"),
    LOG_ACTIVE_DCI_STREAMS(text("N", "With -c DC: log2 of the active DCI streams (mlx5dv).").hidden(),
            "--log_active_dci_streams"),
    // perftest's HAVE_OOO_ATTR: MLNX_OFED's libibverbs (ooo_caps, IBV_QP_OOO_RW_DATA_PLACEMENT); rdma-core has
    // neither (Debian's perftest 4.5+0.17 answers "unrecognized option").
    USE_OOO(flag("Out-of-order data placement on RC QPs (MLNX_OFED's libibverbs).").hidden(), "--use_ooo"),

    // ---- perftest's raw Ethernet tools' flags: its shared parser takes them on the ib_* tools too, which ignore
    // them (C refuses -L). Here they are refused by name on every tool (cli/RawEthernetFlags), one line, exit 2. ----
    HOP_LIMIT(rawEthernet(Kind.STRING, "the hop limit of the packets' IP header (C's ib_* tools refuse it too; their "
            + "QPs, as perftest-java's, send the GRH's hop limit 255)"), "-L", "--hop_limit"),
    FLOW_LABEL(rawEthernet(Kind.STRING, "the IPv6 flow label of the packets' steering rule"), "--flow_label"),
    SOURCE_MAC(rawEthernet(Kind.STRING, "the packets' source MAC"), "-B", "--source_mac"),
    DEST_MAC(rawEthernet(Kind.STRING, "the packets' destination MAC"), "-E", "--dest_mac"),
    DEST_IP(rawEthernet(Kind.STRING, "the packets' destination IP"), "-J", "--dest_ip"),
    // perftest 4.5 declares --source_ip twice: getopt takes the first, -j's (the raw packets' source IP). Its
    // ib_* tools' --source_ip (the exchange's address) is SOURCE_IP's meaning here.
    RAW_SOURCE_IP(rawEthernet(Kind.STRING, "the packets' source IP (-j/--source_ip there; here --source_ip is the "
            + "connection set-up's source address)"), "-j"),
    DEST_PORT(rawEthernet(Kind.STRING, "the packets' destination UDP/TCP port"), "-K", "--dest_port"),
    SOURCE_PORT(rawEthernet(Kind.STRING, "the packets' source UDP/TCP port"), "-k", "--source_port"),
    ETHERTYPE(rawEthernet(Kind.STRING, "the frames' ethertype"), "--ethertype"),
    RAW_SERVER(rawEthernet(Kind.BOOLEAN, "the server side of a raw Ethernet test"), "-Z", "--server"),
    RAW_CLIENT(rawEthernet(Kind.BOOLEAN, "the client side of a raw Ethernet test"), "-P", "--client"),
    MAC_FWD(rawEthernet(Kind.BOOLEAN, "the MAC forwarding test"), "-v", "--mac_fwd"),
    USE_RSS(rawEthernet(Kind.BOOLEAN, "receive-side scaling on the server"), "--use_rss"),
    TCP(rawEthernet(Kind.BOOLEAN, "TCP headers instead of UDP in the packets"), "--tcp"),
    REMOTE_MAC(rawEthernet(Kind.STRING, "the remote MAC"), "--remote_mac"),
    LOCAL_MAC(rawEthernet(Kind.STRING, "the local MAC"), "--local_mac"),
    REMOTE_IP(rawEthernet(Kind.STRING, "the remote IP"), "--remote_ip"),
    LOCAL_IP(rawEthernet(Kind.STRING, "the local IP"), "--local_ip"),
    REMOTE_PORT(rawEthernet(Kind.STRING, "the remote UDP/TCP port"), "--remote_port"),
    LOCAL_PORT(rawEthernet(Kind.STRING, "the local UDP/TCP port"), "--local_port"),
    RAW_IPV6(rawEthernet(Kind.BOOLEAN, "IPv6 headers in the packets"), "--raw_ipv6"),
    PROMISCUOUS(rawEthernet(Kind.BOOLEAN, "a promiscuous receive steering rule"), "--promiscuous"),
    SNIFFER(rawEthernet(Kind.BOOLEAN, "a sniffer steering rule"), "--sniffer"),
    RAW_MCAST(rawEthernet(Kind.BOOLEAN, "multicast packets"), "--raw_mcast"),
    FLOWS(rawEthernet(Kind.STRING, "the number of flows"), "--flows"),
    FLOWS_BURST(rawEthernet(Kind.STRING, "packets per flow before the next"), "--flows_burst"),
    REPLY_EVERY(rawEthernet(Kind.STRING, "how often the server of raw_ethernet_lat replies"), "--reply_every"),
    VLAN_EN(rawEthernet(Kind.BOOLEAN, "a VLAN tag in the frames"), "--vlan_en"),
    VLAN_PCP(rawEthernet(Kind.STRING, "the VLAN tag's priority"), "--vlan_pcp");


    /** A flag's value: what the parser converts the argument to ({@link #BOOLEAN}: no argument). */
    public enum Kind {
        BOOLEAN(Boolean.class), INT(Integer.class), LONG(Long.class), STRING(String.class), PATH(Path.class);

        private final Class<?> type;

        Kind(Class<?> type) {
            this.type = type;
        }

        /** The Java type of a given value. */
        public Class<?> type() {
            return type;
        }
    }

    /** Which tools take a flag, as the C tools do. */
    public enum Tools {
        ALL, BANDWIDTH, LATENCY, SEND, SEND_AND_WRITE, READ_AND_ATOMIC, ATOMIC, NOT_WRITE;

        boolean has(Tool t) {
            return switch (this) {
                case ALL -> true;
                case BANDWIDTH -> t.bandwidth();
                case LATENCY -> !t.bandwidth();
                case SEND -> t.verb() == Verb.SEND;
                case SEND_AND_WRITE -> t.verb() == Verb.SEND || t.verb() == Verb.WRITE;
                case READ_AND_ATOMIC -> t.verb() == Verb.READ || t.verb() == Verb.ATOMIC;
                case ATOMIC -> t.verb() == Verb.ATOMIC;
                case NOT_WRITE -> t.verb() != Verb.WRITE;
            };
        }
    }

    private final List<String> names;
    private final Kind kind;
    private final String label;
    private final String help;
    private final boolean hidden;
    private final boolean rawEthernet;
    private final Tools tools;
    private final Object bandwidthDefault;
    private final Object latencyDefault;
    private final Tool specialTool;
    private final Object specialDefault;
    private final long min;
    private final long max;
    private final String rangeMessage;
    private final String jsonKey;

    Flag(Declaration d, String... names) {
        this.names = List.of(names);
        this.kind = d.kind;
        this.label = d.label;
        this.help = d.help;
        this.hidden = d.hidden;
        this.rawEthernet = d.rawEthernet;
        this.tools = d.tools;
        this.bandwidthDefault = d.bandwidthDefault;
        this.latencyDefault = d.latencyDefault;
        this.specialTool = d.specialTool;
        this.specialDefault = d.specialDefault;
        this.min = d.min;
        this.max = d.max;
        this.rangeMessage = d.rangeMessage;
        this.jsonKey = d.jsonKey;
    }

    /** Every name, short first, as perftest spells them. */
    public List<String> names() {
        return names;
    }

    /**
     * The flag with the name {@code name} (e.g. {@code -s} or {@code --size}).
     *
     * @throws IllegalArgumentException when no flag has that name
     */
    public static Flag named(String name) {
        for (Flag f : values()) {
            if (f.names.contains(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no flag " + name);
    }

    /** The name a message uses: the first long name. */
    public String longName() {
        for (String n : names) {
            if (n.startsWith("--")) {
                return n;
            }
        }
        return names.getFirst();
    }

    /** What the flag's argument is. */
    public Kind kind() {
        return kind;
    }

    /** The argument's name in the help (null for a boolean flag). */
    public String label() {
        return label;
    }

    /** The help line; for a {@link #rawEthernet()} flag, what it sets in perftest's raw Ethernet tools. */
    public String help() {
        return help;
    }

    /** Accepted but left out of the help. */
    public boolean hidden() {
        return hidden || rawEthernet;
    }

    /**
     * A flag of perftest's raw Ethernet tools (raw packet QPs), which perftest-java has not: the command line that
     * gives it is refused by name.
     */
    public boolean rawEthernet() {
        return rawEthernet;
    }

    /** Whether {@code tool} takes this flag (every tool takes a raw Ethernet one, to refuse it by name). */
    public boolean takenBy(Tool tool) {
        return tools.has(tool);
    }

    /** The value {@code tool} uses when the flag is not given; null where there is none (or the rules decide). */
    public Object defaultFor(Tool tool) {
        return tool == specialTool ? specialDefault : tool.bandwidth() ? bandwidthDefault : latencyDefault;
    }

    /** The key of the resolved value in the JSON {@code parameters} block, or null: the flag is not listed. */
    public String jsonKey() {
        return jsonKey;
    }

    /**
     * The flag's own rule, checked on a given value (defaults obey it by construction).
     *
     * @throws InvalidParameterException with the declared message when {@code value} is out of range
     */
    void check(long value) {
        if (rangeMessage != null && (value < min || value > max)) {
            throw new InvalidParameterException(rangeMessage.formatted(value));
        }
    }

    /** Whether the flag declares a range rule (for tests). */
    boolean hasRange() {
        return rangeMessage != null;
    }

    private static Declaration flag(String help) {
        return new Declaration(Kind.BOOLEAN, null, help).byDefault(false);
    }

    private static Declaration integer(String label, String help) {
        return new Declaration(Kind.INT, label, help);
    }

    private static Declaration longInteger(String label, String help) {
        return new Declaration(Kind.LONG, label, help);
    }

    private static Declaration text(String label, String help) {
        return new Declaration(Kind.STRING, label, help);
    }

    private static Declaration path(String label, String help) {
        return new Declaration(Kind.PATH, label, help);
    }

    /** A raw Ethernet tools' flag; {@code what}: what it sets there, for the table and the refusal's line. */
    private static Declaration rawEthernet(Kind kind, String what) {
        Declaration d = new Declaration(kind, kind == Kind.BOOLEAN ? null : "VALUE", what);
        d.rawEthernet = true;
        return kind == Kind.BOOLEAN ? d.byDefault(false) : d;
    }

    /** One flag's declaration while the table is built. */
    private static final class Declaration {
        final Kind kind;
        final String label;
        final String help;
        boolean hidden;
        boolean rawEthernet;
        Tools tools = Tools.ALL;
        Object bandwidthDefault;
        Object latencyDefault;
        Tool specialTool;
        Object specialDefault;
        long min;
        long max;
        String rangeMessage;
        String jsonKey;

        Declaration(Kind kind, String label, String help) {
            this.kind = kind;
            this.label = label;
            this.help = help;
        }

        Declaration on(Tools t) {
            tools = t;
            return this;
        }

        Declaration hidden() {
            hidden = true;
            return this;
        }

        /** One default for every tool. */
        Declaration byDefault(Object v) {
            return byDefault(v, v);
        }

        /** The bandwidth tools' default and the latency tools'. */
        Declaration byDefault(Object bandwidth, Object latency) {
            bandwidthDefault = bandwidth;
            latencyDefault = latency;
            return this;
        }

        /** One tool's own default. */
        Declaration forTool(Tool t, Object v) {
            specialTool = t;
            specialDefault = v;
            return this;
        }

        /** A given value must be within min..max, else {@code message} (formatted with the value). */
        Declaration range(long lo, long hi, String message) {
            min = lo;
            max = hi;
            rangeMessage = message;
            return this;
        }

        Declaration json(String key) {
            jsonKey = key;
            return this;
        }
    }
}
