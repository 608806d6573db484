package io.rdmaffm.perftest.report.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * perftest's banner ({@code test_info}) as read: the keys a report shows typed, and every entry as written.
 *
 * @param test perftest's test name, e.g. {@code "RDMA_Write_BW_Test"}; null when absent
 * @param device the device the banner names ({@code Device})
 * @param connectionType {@code RC}, {@code UC}, {@code UD}
 * @param linkType {@code "Ethernet"} or {@code "IB"}
 * @param mtu the MTU the test used, bytes
 * @param gidIndex {@code GID_index}; -1 without a GID
 * @param role {@code "client"} or {@code "server"}
 * @param bidirectional whether both directions ran at once
 * @param entries every key and value of {@code test_info}, in file order
 */
public record TestInfo(String test, String device, String connectionType, String linkType, Integer mtu,
                       Integer gidIndex, String role, Boolean bidirectional, Map<String, Object> entries) {

    public TestInfo {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    static TestInfo read(Fields f) {
        if (f == null) {
            return new TestInfo(null, null, null, null, null, null, null, null, Map.of());
        }
        return new TestInfo(f.string("test"), f.string("Device"), f.string("Connection_type"), f.string("Link_type"),
                f.smallInt("Mtu"), f.smallInt("GID_index"), f.string("Role"), f.bool("Bidirectional"),
                stringKeys(f.raw()));
    }

    static Map<String, Object> stringKeys(Map<?, ?> raw) {
        Map<String, Object> m = new LinkedHashMap<>();
        raw.forEach((k, v) -> m.put(String.valueOf(k), v));
        return m;
    }
}
