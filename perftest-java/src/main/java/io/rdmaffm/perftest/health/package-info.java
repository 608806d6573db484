/**
 * {@code health}: a node check for schedulers and monitoring. The doctor's checks and a loopback bandwidth run per
 * HCA, judged against a node type's thresholds ({@link io.rdmaffm.perftest.health.NodeTypes}), with retries and
 * hysteresis, written for people, JSON, Prometheus' textfile collector and Slurm's HealthCheckProgram.
 */
package io.rdmaffm.perftest.health;
