package io.rdmaffm.perftest.jvm;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Marks a measured window in the recording, so the JVM's own events (compilations, deoptimizations, GC,
 * safepoints) are placed against it on JFR's clock rather than on a second clock that might drift from it.
 */
@Name("io.rdmaffm.perftest.MeasuredWindow")
@Label("Measured window")
@Category("rdma-ffm")
@StackTrace(false)
final class MeasuredWindowEvent extends Event {
    @Label("Recorder")
    long recorder;

    @Label("Window")
    int window;
}
