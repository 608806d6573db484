package io.rdmaffm.perftest.cluster;

import io.rdmaffm.perftest.doctor.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a host's devices from its own {@code rdma-perftest doctor --json} report, for {@link HostDiscovery}:
 * input of the discovery stage, kept apart from the writers of the matrix's own output.
 */
final class DoctorNics {
    private DoctorNics() {
    }

    /**
     * The devices of a host's {@code rdma-perftest doctor --json} report (schema rdma-ffm.doctor/1): port 1's
     * state and rate, and the port's share of the {@code pcie-bandwidth} check's modelled throughput (the link's
     * modelGbps times this port's part of the link's demandGbps, all active ports on it sharing it as the matrix
     * runs every rail at once).
     *
     * @return the devices in the report's (name) order, or null when {@code doc} is not such a report
     */
    static List<HostDiscovery.Nic> read(String doc) {
        Object parsed;
        try {
            parsed = Json.parse(doc);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (!(parsed instanceof Map<?, ?> report) || !(report.get("devices") instanceof List<?> devices)) {
            return null;
        }
        Map<String, Map<?, ?>> pcie = new LinkedHashMap<>();
        if (report.get("checks") instanceof List<?> checks) {
            for (Object c : checks) {
                if (c instanceof Map<?, ?> cm && "pcie-bandwidth".equals(cm.get("id"))
                        && cm.get("device") instanceof String d && cm.get("numbers") instanceof Map<?, ?> n) {
                    pcie.put(d, n);
                }
            }
        }
        List<HostDiscovery.Nic> nics = new ArrayList<>();
        for (Object o : devices) {
            if (!(o instanceof Map<?, ?> d) || !(d.get("name") instanceof String name)) {
                continue;
            }
            Map<?, ?> port1 = null;
            if (d.get("ports") instanceof List<?> ports) {
                for (Object p : ports) {
                    if (p instanceof Map<?, ?> pm && number(pm.get("port")) == 1.0) {
                        port1 = pm;
                    }
                }
            }
            Double rate = port1 == null ? null : positive(port1.get("rateGbps"));
            Map<?, ?> n = pcie.get(name);
            Double share = null;
            if (n != null && positive(n.get("modelGbps")) != null) {
                double model = positive(n.get("modelGbps"));
                Double demand = positive(n.get("demandGbps"));
                share = rate == null || demand == null || demand <= rate ? model : model * rate / demand;
            }
            nics.add(new HostDiscovery.Nic(name, port1 != null && port1.get("state") instanceof String s ? s : null,
                    rate, share, d.get("pci") instanceof String pci ? pci : null,
                    d.get("fwVer") instanceof String fw ? fw : null));
        }
        return List.copyOf(nics);
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static Double positive(Object o) {
        double v = number(o);
        return v > 0 ? v : null;
    }
}
