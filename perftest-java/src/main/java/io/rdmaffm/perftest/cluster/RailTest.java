package io.rdmaffm.perftest.cluster;

/**
 * One measurement slot: rail {@code rail} of a host pair, device i of the server host with device i of the
 * client host (rail-aligned: on multi-rail clusters NIC i of every node is cabled to the same leaf or plane, so
 * pairing equal indexes tests the paths the jobs use).
 *
 * @param round        0-based round (retests continue the count)
 * @param server       host that listens
 * @param client       host that connects to {@code server}
 * @param rail         0-based rail index
 * @param serverDevice RDMA device on the server, null for the tool's default
 * @param clientDevice RDMA device on the client, null for the tool's default
 * @param port         TCP port of the tools' exchange, unique among the tests running at once on either host
 */
public record RailTest(int round, String server, String client, int rail, String serverDevice, String clientDevice,
        int port) {

    /** "a/mlx5_0 <-> b/mlx5_0" for messages. */
    public String label() {
        return end(server, serverDevice) + " <-> " + end(client, clientDevice);
    }

    private static String end(String host, String device) {
        return device == null ? host : host + "/" + device;
    }
}
