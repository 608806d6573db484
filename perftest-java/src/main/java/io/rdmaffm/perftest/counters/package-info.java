/**
 * An RDMA port's counters read before and after a run: sysfs {@code hw_counters} (of the port and of the
 * device), the port's PMA {@code counters}, and {@code ethtool -S} of its netdev where it answers. A counter
 * the host does not have is absent with the reason, never zero. Used by {@code -W/--report-counters} and by
 * the fabric command (docs/fabric-design.md §7).
 */
package io.rdmaffm.perftest.counters;
