/**
 * The shared vocabulary of perftest-java: the tools, the verbs they measure, the roles of the two sides, the
 * bandwidth unit and the result row both sides exchange. Imported by exchange, engine, report and cli; depends
 * on nothing.
 */
package io.rdmaffm.perftest.vocab;
