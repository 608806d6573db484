package io.rdmaffm.perftest.run;

import io.rdmaffm.perftest.engine.StopSignal;

import sun.misc.Signal;

/**
 * {@code --run_infinitely}: Ctrl-C (SIGINT) stops the sending loop instead of the JVM, so the run ends as any other:
 * the posted work drained, the closing exchange with the peer, every resource released, exit 0. (perftest 4.5-0.17
 * has no handler and dies on it, leaving its peer to fail; upstream later added one for the sender.)
 */
final class InterruptStop {
    private InterruptStop() {
    }

    /** A stop signal that SIGINT sets from now on. */
    static StopSignal install() {
        StopSignal stop = new StopSignal();
        Signal.handle(new Signal("INT"), s -> stop.stop());
        return stop;
    }
}
