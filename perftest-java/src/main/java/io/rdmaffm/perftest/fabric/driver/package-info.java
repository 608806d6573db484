/**
 * The driver half of {@code rdma-perftest fabric PATTERN} (issue 28, docs/fabric-design.md): every host's
 * worker ({@code rdma-perftest fabric-worker}) started at once through the matrix's launchers, each rank's
 * result line read back, the pattern's figures (busbw as nccl-tests defines it) and the counter rules judged.
 * One way, as the matrix: {@link io.rdmaffm.perftest.fabric.driver.FabricRequest} →
 * {@link io.rdmaffm.perftest.fabric.driver.FabricPlanner} → {@link io.rdmaffm.perftest.fabric.driver.FabricRun} →
 * {@link io.rdmaffm.perftest.fabric.driver.FabricVerdicts} → {@link io.rdmaffm.perftest.fabric.driver.FabricReport}.
 * Like {@code cluster}, it imports nothing of verbs-ffm: it runs where no RDMA device is (a login node).
 */
package io.rdmaffm.perftest.fabric.driver;
