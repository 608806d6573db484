/**
 * One run of a perftest tool, start to end: listen or connect, open the device, plan, warm up, then the
 * tool's handshake script with the engine doing the local steps and the reporter printing what they hand back.
 * The only package that knows exchange, engine and report together.
 */
package io.rdmaffm.perftest.run;
