package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.vocab.Tool;
import picocli.CommandLine;

/**
 * The flags of perftest's raw Ethernet tools ({@link Flag#rawEthernet()}). perftest's shared parser takes them on
 * its ib_* tools too, which then ignore them (or refuse -L); every tool's parser here accepts them (hidden) so that
 * they are refused by name, saying what they are, never silently ignored and never "unknown".
 */
final class RawEthernetFlags {
    private RawEthernetFlags() {
    }

    /**
     * Refuses the first raw Ethernet flag (in declaration order) the command line gave.
     *
     * @throws CommandLine.ParameterException "-B/--source_mac (the packets' source MAC) is a flag of perftest's raw
     *                                        Ethernet tools ..."
     */
    static void refuse(CommandLine tool, Tool t, ToolOptions given) {
        Flag f = given.firstRawEthernet();
        if (f != null) {
            throw new CommandLine.ParameterException(tool, String.join("/", f.names()) + " (" + f.help() + ") is a "
                    + "flag of perftest's raw Ethernet tools (raw_ethernet_bw, raw_ethernet_lat, raw_ethernet_burst_lat, "
                    + "raw_ethernet_fs_rate), which send their own packets on raw packet QPs; " + t.perftestName()
                    + " does not use it, and perftest-java has no raw Ethernet tools");
        }
    }
}
