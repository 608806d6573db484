/**
 * perftest-java: the perftest-compatible tools ({@code io.rdmaffm.perftest.cli.Main}), their engine, exchange
 * and report, and the doctor. Built on verbs-ffm's exported API only (its raw layer stays out of reach). Run
 * with {@code --enable-native-access=io.rdmaffm.verbs}.
 */
module io.rdmaffm.perftest {
    requires io.rdmaffm.verbs;
    requires info.picocli;
    requires HdrHistogram;
    requires java.management;
    // The measured-window recorder (io.rdmaffm.perftest.jvm) reads JDK Flight Recorder events.
    requires jdk.jfr;
    // --run_infinitely: SIGINT stops the sending loop (sun.misc.Signal) rather than the JVM.
    requires jdk.unsupported;

    // picocli fills the annotated fields of the commands and their mixins by reflection.
    opens io.rdmaffm.perftest.cli to info.picocli;
    opens io.rdmaffm.perftest.cli.reports to info.picocli;
    opens io.rdmaffm.perftest.health to info.picocli;
    opens io.rdmaffm.perftest.validate to info.picocli;
}
