package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.report.BuildInfo;
import picocli.CommandLine;

/** Prints the tool version with the commit it was built from, and the perftest wire version it speaks. */
final class VersionProvider implements CommandLine.IVersionProvider {
    /** The version string C perftest 4.5-0.17 sends in its exchange; we advertise the same. */
    static final String PERFTEST_WIRE_VERSION = "6.06";

    @Override
    public String[] getVersion() {
        BuildInfo b = BuildInfo.CURRENT;
        return new String[] {
                "rdma-perftest " + b.describe(),
                "commit " + (b.commit() == null ? "unknown" : b.commit()
                        + (b.dirty() == null ? "" : b.dirty() ? " (dirty tree)" : " (clean tree)")),
                "perftest wire version " + PERFTEST_WIRE_VERSION,
        };
    }
}
