package io.rdmaffm.perftest.fabric;

/** {@link RingLinks} over an {@link RdmaEndpoint} whose link 0 goes to the next rank and link 1 to the previous. */
final class RdmaRingLinks implements RingLinks {
    static final int NEXT = 0;
    static final int PREV = 1;
    private final RdmaEndpoint ep;

    RdmaRingLinks(RdmaEndpoint ep) {
        this.ep = ep;
    }

    @Override
    public void writeNext(long from, long bytes, long to, int imm) {
        ep.write(NEXT, from, bytes, to, imm);
    }

    @Override
    public void signalPrev(int imm) {
        ep.write(PREV, 0, 0, 0, imm);
    }

    @Override
    public int awaitPrev() {
        return ep.awaitImm(PREV);
    }

    @Override
    public int awaitNext() {
        return ep.awaitImm(NEXT);
    }

    @Override
    public void awaitSends() {
        ep.awaitAllSends();
    }

    @Override
    public void timeWrites(boolean on) {
        ep.timeWrites(on);
    }
}
