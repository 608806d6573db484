package io.rdmaffm.verbs.internal;

import org.junit.jupiter.api.function.Executable;

/** For tests of thread confinement: a call made on a thread of its own. */
public final class OtherThread {
    private OtherThread() {
    }

    /** Runs {@code call} on a new platform thread named {@code name}, waits for it, returns what it threw or null. */
    public static Throwable thrownBy(String name, Executable call) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread t = Thread.ofPlatform().name(name).start(() -> {
            try {
                call.execute();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        });
        t.join();
        return thrown[0];
    }
}
