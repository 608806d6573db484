package io.rdmaffm.perftest.fabric.driver;

/**
 * One link of a rail as the ranks measured it (docs/fabric.md, "A slow link"): rank {@code from} wrote into rank
 * {@code to}.
 *
 * @param rail      the rail
 * @param from      the writing rank
 * @param to        the rank written into
 * @param fromWhere the writer's host/device
 * @param toWhere   the other end's host/device
 * @param sendUs    the writer's mean µs from posting a write on this link to its completion (the peer's ACK)
 * @param writes    timed writes behind {@code sendUs}
 * @param waitUs    ring patterns: the receiving rank's mean µs per step waiting for this link's data; else null
 */
public record LinkFigure(int rail, int from, int to, String fromWhere, String toWhere, Double sendUs, long writes,
        Double waitUs) {

    /** "hostA/dev -> hostB/dev". */
    public String name() {
        return fromWhere + " -> " + toWhere;
    }
}
