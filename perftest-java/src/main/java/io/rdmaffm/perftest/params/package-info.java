/**
 * A run's parameters: every perftest flag declared once ({@link io.rdmaffm.perftest.params.Flag}: names, type,
 * tools, per-tool default, own rule, JSON key, help), the command line as given
 * ({@link io.rdmaffm.perftest.params.ToolOptions}), the one validator that applies the defaults and every rule
 * ({@link io.rdmaffm.perftest.params.ParameterRules}), the immutable result
 * ({@link io.rdmaffm.perftest.params.RunParameters}), and the device-dependent plan derived from it and the
 * device's facts by a pure function ({@link io.rdmaffm.perftest.params.RunPlan}). Nothing here touches a device,
 * so all of it is testable without one. How to add a flag: docs/adding-a-flag.md.
 */
package io.rdmaffm.perftest.params;
