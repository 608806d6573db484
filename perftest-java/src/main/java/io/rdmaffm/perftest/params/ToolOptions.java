package io.rdmaffm.perftest.params;

import java.nio.file.Path;

/**
 * What the command line said, before any default or rule: null (or false) for every flag not given. Filled by
 * the CLI (each tool sets only the options it has), read once by {@link ParameterRules#check}, which owns
 * every default. Setters return {@code this}.
 */
public final class ToolOptions {
    String server;
    String device;
    Integer ibPort;
    Integer gidIndex;
    Integer tcpPort;
    String size;
    boolean all;
    Long iterations;
    Integer duration;
    Integer margin;
    Integer txDepth;
    Integer rxDepth;
    String connection;
    Integer mtu;
    Integer qpTimeout;
    Integer serviceLevel;
    boolean events;
    boolean rdmaCm;
    boolean commRdmaCm;
    boolean reportGbits;
    boolean outJson;
    Path outJsonFile;
    boolean verify;
    Integer warmup;
    Integer timeout;
    Integer acceptTimeout;
    Integer peerTimeout;
    boolean debug;
    Integer qps;
    boolean bidirectional;
    Integer postList;
    Integer cqModeration;
    boolean noPeak;
    boolean unsorted;
    Path hgrm;
    Integer inline;
    Integer outstandingReads;
    String atomicType;

    /** host argument; null: this side is the server. */
    public ToolOptions server(String v) { server = v; return this; }
    /** -d; null: the first device. */
    public ToolOptions device(String v) { device = v; return this; }
    /** -i. */
    public ToolOptions ibPort(Integer v) { ibPort = v; return this; }
    /** -x. */
    public ToolOptions gidIndex(Integer v) { gidIndex = v; return this; }
    /** -p. */
    public ToolOptions tcpPort(Integer v) { tcpPort = v; return this; }
    /** -s as typed (K/M suffixes). */
    public ToolOptions size(String v) { size = v; return this; }
    /** -a. */
    public ToolOptions all(boolean v) { all = v; return this; }
    /** -n. */
    public ToolOptions iterations(Long v) { iterations = v; return this; }
    /** -D. */
    public ToolOptions duration(Integer v) { duration = v; return this; }
    /** -f. */
    public ToolOptions margin(Integer v) { margin = v; return this; }
    /** -t. */
    public ToolOptions txDepth(Integer v) { txDepth = v; return this; }
    /** -r. */
    public ToolOptions rxDepth(Integer v) { rxDepth = v; return this; }
    /** -c as typed. */
    public ToolOptions connection(String v) { connection = v; return this; }
    /** -m. */
    public ToolOptions mtu(Integer v) { mtu = v; return this; }
    /** -u. */
    public ToolOptions qpTimeout(Integer v) { qpTimeout = v; return this; }
    /** -S. */
    public ToolOptions serviceLevel(Integer v) { serviceLevel = v; return this; }
    /** -e. */
    public ToolOptions events(boolean v) { events = v; return this; }
    /** -R. */
    public ToolOptions rdmaCm(boolean v) { rdmaCm = v; return this; }
    /** -z. */
    public ToolOptions commRdmaCm(boolean v) { commRdmaCm = v; return this; }
    /** --report_gbits. */
    public ToolOptions reportGbits(boolean v) { reportGbits = v; return this; }
    /** --out_json. */
    public ToolOptions outJson(boolean v) { outJson = v; return this; }
    /** --out_json_file. */
    public ToolOptions outJsonFile(Path v) { outJsonFile = v; return this; }
    /** --verify. */
    public ToolOptions verify(boolean v) { verify = v; return this; }
    /** --warmup. */
    public ToolOptions warmup(Integer v) { warmup = v; return this; }
    /** --timeout. */
    public ToolOptions timeout(Integer v) { timeout = v; return this; }
    /** --accept-timeout. */
    public ToolOptions acceptTimeout(Integer v) { acceptTimeout = v; return this; }
    /** --peer-timeout. */
    public ToolOptions peerTimeout(Integer v) { peerTimeout = v; return this; }
    /** --debug. */
    public ToolOptions debug(boolean v) { debug = v; return this; }
    /** -q (bandwidth tools). */
    public ToolOptions qps(Integer v) { qps = v; return this; }
    /** -b (bandwidth tools). */
    public ToolOptions bidirectional(boolean v) { bidirectional = v; return this; }
    /** -l (bandwidth tools). */
    public ToolOptions postList(Integer v) { postList = v; return this; }
    /** -Q (bandwidth tools). */
    public ToolOptions cqModeration(Integer v) { cqModeration = v; return this; }
    /** -N (bandwidth tools). */
    public ToolOptions noPeak(boolean v) { noPeak = v; return this; }
    /** -U (latency tools). */
    public ToolOptions unsorted(boolean v) { unsorted = v; return this; }
    /** --hgrm (latency tools). */
    public ToolOptions hgrm(Path v) { hgrm = v; return this; }
    /** -I (send and write tools). */
    public ToolOptions inline(Integer v) { inline = v; return this; }
    /** -o (read and atomic tools). */
    public ToolOptions outstandingReads(Integer v) { outstandingReads = v; return this; }
    /** -A as typed (atomic tools). */
    public ToolOptions atomicType(String v) { atomicType = v; return this; }
}
