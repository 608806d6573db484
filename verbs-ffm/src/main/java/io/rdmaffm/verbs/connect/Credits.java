package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.MemoryRegion;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Send credits: this side may have at most as many messages in flight as the peer has receive buffers posted, so a
 * SEND never finds the peer's receive queue empty (no receiver-not-ready retries). Each side counts the buffers it
 * has released and reposted (a cumulative count) and tells the peer: in the immediate data of every message it
 * sends, and, when messages flow one way, with an 8-byte RDMA WRITE into the peer's credit word (which consumes no
 * receive buffer, so credit updates never need credits themselves). Counts are cumulative, so a late or repeated
 * update is harmless. The credit word holds the count's low 32 bits and their complement, so a read that sees a
 * half-written word is recognised and ignored.
 *
 * <p>Memory: one registered block, the credit word at offset 0 (the peer writes it), then one 8-byte source word per
 * send queue slot, from which this side's credit writes are sent (a slot's word stays unchanged until its work
 * request completes).
 */
final class Credits {
    private static final VarHandle WORD = JAVA_LONG.varHandle();

    private final MemoryRegion block;
    private final MemorySegment memory;
    /** The peer's receive buffers: the most messages in flight. */
    final int peerBuffers;
    /** Where this side's credit writes go: the peer's credit word. */
    final long peerWord;
    final int peerRkey;
    /** Messages sent, and how many of them the peer has released (reconstructed from 32-bit counts). */
    long sent;
    long peerReleased;

    Credits(MemoryRegion block, int peerBuffers, long peerWord, int peerRkey) {
        this.block = block;
        this.memory = block.segment();
        this.peerBuffers = peerBuffers;
        this.peerWord = peerWord;
        this.peerRkey = peerRkey;
    }

    /** Bytes of the block for a send queue of {@code depth}. */
    static long blockSize(int depth) {
        return 8L + 8L * depth;
    }

    /** Messages this side may send now. */
    int available() {
        return (int) (peerBuffers - (sent - peerReleased));
    }

    /** A count the peer sent: its low 32 bits; moves {@link #peerReleased} forward, never back. */
    void peerReleased(int low) {
        int delta = low - (int) peerReleased;
        if (delta > 0) {
            peerReleased += delta;
        }
    }

    /** Reads the credit word the peer writes (acquire), if it is whole. */
    void readWord() {
        long w = (long) WORD.getAcquire(memory, 0L);
        int low = (int) w;
        if ((int) (w >>> 32) == ~low) {
            peerReleased(low);
        }
    }

    /** The word for {@code count}: low 32 bits, then their complement. */
    static long word(long count) {
        int low = (int) count;
        return (low & 0xffffffffL) | ((long) ~low << 32);
    }

    /** Writes {@code count} into send queue slot {@code slot}'s source word; returns its address. */
    long source(int slot, long count) {
        long offset = 8L + 8L * slot;
        WORD.setRelease(memory, offset, word(count));
        return memory.address() + offset;
    }

    int lkey() {
        return block.lkey();
    }

    /** The credit word, for the peer (address and rkey go into the handshake). */
    long wordAddress() {
        return memory.address();
    }

    int wordRkey() {
        return block.rkey();
    }
}
