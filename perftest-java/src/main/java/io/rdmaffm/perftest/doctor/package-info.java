/**
 * The {@code doctor}: checks over the sysfs topology model (PCIe bandwidth and training, NUMA,
 * GPU↔NIC distance, RoCE GID/MTU/lossless state, port state, fabric advice) with OK/WARN/FAIL/N/A
 * verdicts, human and JSON reports.
 */
package io.rdmaffm.perftest.doctor;
