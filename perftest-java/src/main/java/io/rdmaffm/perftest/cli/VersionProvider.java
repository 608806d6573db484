package io.rdmaffm.perftest.cli;

import picocli.CommandLine;

/** Prints the tool version and the perftest wire version it speaks. */
final class VersionProvider implements CommandLine.IVersionProvider {
    /** The version string C perftest 4.5-0.17 sends in its exchange; we advertise the same. */
    static final String PERFTEST_WIRE_VERSION = "6.06";

    @Override
    public String[] getVersion() {
        String impl = Main.class.getPackage().getImplementationVersion();
        return new String[] {
                "rdma-perftest " + (impl == null ? "(development build)" : impl),
                "perftest wire version " + PERFTEST_WIRE_VERSION,
        };
    }
}
