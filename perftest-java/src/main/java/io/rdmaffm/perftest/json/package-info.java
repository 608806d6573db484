/**
 * The one JSON writer of perftest-java ({@link io.rdmaffm.perftest.json.JsonWriter}), used by the doctor's
 * {@code --json} and the tools' {@code --out_json}, and its reader ({@link io.rdmaffm.perftest.json.JsonReader}),
 * used by the doctor for {@code dcb -j} and by {@code report} and {@code compare} for run documents.
 */
package io.rdmaffm.perftest.json;
