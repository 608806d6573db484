package io.rdmaffm.perftest.cluster;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hosts of a run and what they said about themselves before it was planned: the stage between the
 * {@link MatrixRequest} and the {@link MatrixPlan}. Made once, by {@link HostDiscovery#apply} from the hosts'
 * answers or by {@link #notAsked} when the request names the devices; never changed afterwards.
 *
 * @param hosts         the hosts and where they came from (expanded once: {@code scontrol} runs here only)
 * @param devicesByHost each asked host's active devices, rail i = device i; a host not listed uses
 *                      {@code --device} (or the tools' default)
 * @param linkGbps      expected Gb/s per "host/device" (port rate capped by the PCIe model), for
 *                      {@code --min-percent-of-link}
 * @param answers       what each host said, in host order, for the JSON's provenance; empty when not asked
 * @param notes         what the user should know (hosts not asked, devices left out)
 */
public record DiscoveredHosts(HostInput.Hosts hosts, Map<String, List<String>> devicesByHost,
        Map<String, Double> linkGbps, Map<String, HostDiscovery.HostInfo> answers, List<String> notes) {

    /** Copies the collections, keeping their order (the JSON's): a stage is not changed after it is made. */
    public DiscoveredHosts {
        devicesByHost = frozen(devicesByHost);
        linkGbps = frozen(linkGbps);
        answers = frozen(answers);
        notes = List.copyOf(notes);
    }

    /** The hosts, not asked anything: every host uses the request's devices. */
    public static DiscoveredHosts notAsked(HostInput.Hosts hosts) {
        return new DiscoveredHosts(hosts, Map.of(), Map.of(), Map.of(), List.of());
    }

    private static <V> Map<String, V> frozen(Map<String, V> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
