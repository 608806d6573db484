package io.rdmaffm.perftest.vocab;

/**
 * Which end of the out-of-band connection this process is. perftest's exchange is strictly lock-step:
 * the client writes first and then reads, the server reads first and then writes.
 */
public enum Role {
    /** The side that was given a host name: connects, writes each message before reading the peer's. */
    CLIENT,
    /** The side that listens: accepts one connection, reads each message before writing its own. */
    SERVER
}
