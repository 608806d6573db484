package io.rdmaffm.perftest.cli;

import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.DeviceAttributes;
import io.rdmaffm.verbs.GidEntry;
import io.rdmaffm.verbs.PortAttributes;
import io.rdmaffm.verbs.RdmaDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The device report: what {@code ibv_devinfo} and {@code show_gids} print, from the binding's queries
 * (device, port and GID table with types and netdevs), plus the GID index perftest would pick.
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "List RDMA devices with their ports and GID tables (like ibv_devinfo + show_gids).")
final class DevicesCommand implements Callable<Integer> {

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "Only this device.")
    String device;

    @Option(names = {"--debug"}, description = "Print stack traces of errors.")
    boolean debug;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        List<RdmaDevice> devices = RdmaDevice.list();
        if (devices.isEmpty()) {
            System.err.println("devices: error: no RDMA devices found. For Soft-RoCE on a kernel with rdma_rxe: "
                    + "sudo scripts/softroce-up.sh; on a kernel without it: scripts/rxe-vm.sh -- <command>");
            return 2;
        }
        boolean found = false;
        for (RdmaDevice d : devices) {
            if (device != null && !device.equals(d.name())) {
                continue;
            }
            found = true;
            try (Context ctx = Context.open(d.name())) {
                report(out, d, ctx);
            }
        }
        if (!found) {
            System.err.println("devices: error: no RDMA device named '" + device + "'");
            return 2;
        }
        return 0;
    }

    static String guid(long g) {
        String h = String.format("%016x", g);
        return h.substring(0, 4) + ":" + h.substring(4, 8) + ":" + h.substring(8, 12) + ":" + h.substring(12);
    }

    private static void report(PrintStream out, RdmaDevice d, Context ctx) {
        DeviceAttributes a = ctx.queryDevice();
        out.println("hca_id:\t" + d.name());
        out.println("\ttransport:\t\t\t" + (d.transportType() == 0 ? "InfiniBand (0)" : d.transportType() == 1 ? "iWARP (1)" : "unknown (" + d.transportType() + ")"));
        out.println("\tfw_ver:\t\t\t\t" + a.firmwareVersion());
        out.println("\tnode_guid:\t\t\t" + guid(a.nodeGuid()));
        out.println("\tsys_image_guid:\t\t\t" + guid(a.systemImageGuid()));
        out.println("\tvendor_id:\t\t\t0x" + String.format("%04x", a.vendorId()));
        out.println("\tvendor_part_id:\t\t\t" + a.vendorPartId());
        out.println("\thw_ver:\t\t\t\t0x" + Integer.toHexString(a.hardwareVersion()));
        out.println("\tphys_port_cnt:\t\t\t" + a.physicalPortCount());
        out.println("\tmax_qp:\t\t\t\t" + a.maxQp() + "\tmax_cqe:\t" + a.maxCqe() + "\tmax_mr:\t" + a.maxMr()
                + "\tmax_qp_rd_atom:\t" + a.maxQpRdAtom());
        for (int p = 1; p <= a.physicalPortCount(); p++) {
            PortAttributes port = ctx.queryPort(p);
            out.println("\t\tport:\t" + p);
            out.println("\t\t\tstate:\t\t\tPORT_" + port.state() + " (" + port.state().ordinal() + ")");
            out.println("\t\t\tmax_mtu:\t\t" + port.maxMtu().bytes() + " (" + port.maxMtu().value() + ")");
            out.println("\t\t\tactive_mtu:\t\t" + port.activeMtu().bytes() + " (" + port.activeMtu().value() + ")");
            out.println("\t\t\tsm_lid:\t\t\t" + port.smLid());
            out.println("\t\t\tport_lid:\t\t" + port.lid());
            out.println("\t\t\tport_lmc:\t\t0x" + String.format("%02x", port.lmc()));
            out.println("\t\t\tlink_layer:\t\t" + (port.linkLayer() == io.rdmaffm.verbs.LinkLayer.ETHERNET ? "Ethernet"
                    : port.linkLayer() == io.rdmaffm.verbs.LinkLayer.INFINIBAND ? "InfiniBand" : "Unspecified"));
            out.println("\t\t\tphys_state:\t\t" + port.physStateName());
            out.println("\t\t\tactive rate:\t\t" + (port.rateGbps() > 0 ? port.rateGbps() + " Gb/s (" + port.lanes()
                    + "X " + port.laneGbps() + " Gb/s)" : "unknown"));
            List<GidEntry> gids = ctx.gidTable(p);
            out.println("\t\t\tGID table (" + gids.size() + " populated of " + port.gidTableLength() + "):");
            out.println("\t\t\tDEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4\t\tVER\tDEV");
            for (GidEntry g : gids) {
                String ver = switch (g.type()) {
                    case ROCE_V2 -> "v2";
                    case ROCE_V1 -> "v1";
                    case IB -> "IB";
                    default -> "?";
                };
                String ipv4 = g.isIpv4Mapped() ? g.address().getHostAddress() : "";
                out.println("\t\t\t" + d.name() + "\t" + g.port() + "\t" + g.index() + "\t" + g.toHexString() + "\t"
                        + (ipv4.isEmpty() ? "\t\t" : ipv4 + "\t") + ver + "\t" + g.netdev());
            }
            if (port.linkLayer() == io.rdmaffm.verbs.LinkLayer.ETHERNET) {
                int best = io.rdmaffm.perftest.engine.GidChoice.best(gids, false);
                out.println("\t\t\tperftest GID index:\t" + (best < 0 ? "none (no GID)" : best + "  (use -x " + best + ")"));
            }
        }
        out.println();
    }
}
