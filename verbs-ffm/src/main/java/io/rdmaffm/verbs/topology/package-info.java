/**
 * A read-only model of the host's RDMA topology built from sysfs: RDMA devices, ports, GID tables,
 * netdevs, PCI paths up to the root port, NVIDIA GPUs and NUMA nodes.
 *
 * <p>Pure Java with no native calls, readable from any root directory (the live {@code /} or a captured
 * tree). Every attribute is a {@link io.rdmaffm.verbs.topology.Reading}: a value or the reason it is
 * unknown. Missing files, garbage, permission errors, {@code EINVAL} and symbolic-link loops never
 * escape as exceptions.
 */
package io.rdmaffm.verbs.topology;
