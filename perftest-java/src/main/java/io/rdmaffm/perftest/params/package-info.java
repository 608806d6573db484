/**
 * A run's parameters: the raw command line ({@link io.rdmaffm.perftest.params.ToolOptions}), the one validator
 * that applies every per-tool default and cross-flag rule ({@link io.rdmaffm.perftest.params.ParameterRules}),
 * the immutable result ({@link io.rdmaffm.perftest.params.RunParameters}), and the device-dependent plan
 * derived from it and the device's facts by a pure function ({@link io.rdmaffm.perftest.params.RunPlan}).
 * Nothing here touches a device, so all of it is testable without one.
 */
package io.rdmaffm.perftest.params;
