/**
 * The one JSON writer of perftest-java ({@link io.rdmaffm.perftest.json.JsonWriter}), used by the doctor's
 * {@code --json} and the tools' {@code --out_json}.
 */
package io.rdmaffm.perftest.json;
