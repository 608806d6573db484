package io.rdmaffm.perftest.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The streaming writer: layout, escaping, the three number forms and the nesting checks. */
class JsonWriterTest {

    private static String number(Consumer<JsonWriter> write) {
        JsonWriter w = JsonWriter.compact();
        write.accept(w);
        return w.toString();
    }

    @Test
    void prettyPutsEachMemberOnItsOwnLineAndLeavesEmptyContainersShut() {
        String doc = JsonWriter.pretty().beginObject()
                .name("a").value(1)
                .name("list").beginArray().value("x").beginObject().name("k").value(true).endObject().endArray()
                .name("empty").beginObject().endObject()
                .name("none").beginArray().endArray()
                .name("n").nullValue()
                .endObject().toString();
        assertEquals("""
                {
                  "a": 1,
                  "list": [
                    "x",
                    {
                      "k": true
                    }
                  ],
                  "empty": {},
                  "none": [],
                  "n": null
                }""", doc);
    }

    @Test
    void compactHasNoWhiteSpace() {
        assertEquals("{\"a\":[1,2,{}],\"b\":\"c\"}", JsonWriter.compact().beginObject().name("a").beginArray()
                .value(1).value(2).beginObject().endObject().endArray().name("b").value("c").endObject().toString());
        assertEquals("[]", JsonWriter.compact().beginArray().endArray().toString());
        assertEquals("\"top\"", JsonWriter.pretty().value("top").toString());
    }

    @Test
    void stringsAreEscapedAndOtherTextPassesThrough() {
        assertEquals("\"q\\\" b\\\\ n\\n r\\r t\\t \\u0001\\u001f \\u2028\\u2029 µ → \uD83D\uDE00 /\"",
                number(w -> w.value("q\" b\\ n\n r\r t\t \u0001\u001f \u2028\u2029 µ → \uD83D\uDE00 /")));
        assertEquals("null", number(w -> w.value((String) null)));
        assertEquals("{\"a\\\"b\":1}", JsonWriter.compact().beginObject().name("a\"b").value(1).endObject()
                .toString());
    }

    @Test
    void doublesAreTheShortestPlainDecimal() {
        assertEquals("400", number(w -> w.value(400.0)));
        assertEquals("12.75", number(w -> w.value(12.75)));
        assertEquals("0.1", number(w -> w.value(0.1)));
        assertEquals("-20.6", number(w -> w.value(-20.6)));
        assertEquals("0.0000001", number(w -> w.value(1e-7)));
        assertEquals("1000000000000000000000", number(w -> w.value(1e21)));
        assertEquals("0", number(w -> w.value(-0.0)));
        assertEquals("null", number(w -> w.value(Double.NaN)));
        assertEquals("null", number(w -> w.value(Double.NEGATIVE_INFINITY)));
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < 10_000; i++) {
            double d = Double.longBitsToDouble(rnd.nextLong());
            if (Double.isFinite(d)) {
                String text = number(w -> w.value(d));
                assertTrue(text.matches("-?(0|[1-9]\\d*)(\\.\\d*[1-9])?"), text);
                assertEquals(d == 0 ? 0.0 : d, Double.parseDouble(text), text);
            }
        }
    }

    @Test
    void fixedRoundsTheExactBinaryValueLikePrintf() {
        assertEquals("1.00", number(w -> w.fixed(1.005, 2))); // 1.00499999999999989...
        assertEquals("0.12", number(w -> w.fixed(0.125, 2))); // exact tie -> even
        assertEquals("-0.00", number(w -> w.fixed(-0.001, 2)));
        assertEquals("11724.50", number(w -> w.fixed(11724.5, 2)));
        assertEquals("2", number(w -> w.fixed(2.5, 0)));
        assertEquals("0.000516", number(w -> w.fixed(0.0005159, 6)));
        assertEquals("null", number(w -> w.fixed(Double.POSITIVE_INFINITY, 2)));
    }

    @Test
    void boxedNumbersKeepTheirKind() {
        assertEquals("[1,2,null,1.5,1.1,123456789012345678901234567890,2.5,3]", JsonWriter.compact().beginArray()
                .value(Integer.valueOf(1)).value(Long.valueOf(2)).value((Number) null).value(new BigDecimal("1.50"))
                .value(Float.valueOf(1.1f)).value(new BigInteger("123456789012345678901234567890"))
                .value(Double.valueOf(2.5)).value(Short.valueOf((short) 3)).endArray().toString());
        assertEquals("null", number(w -> w.value(Float.valueOf(Float.NaN))));
    }

    @Test
    void anyWritesMapsListsAndScalarsAndOtherObjectsAsText() {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put("l", new ArrayList<>(Arrays.asList(1, "x", null, List.of(), Map.of())));
        m.put(7, true);
        m.put("d", 0.5);
        m.put("o", Thread.State.NEW);
        assertEquals("{\"l\":[1,\"x\",null,[],{}],\"7\":true,\"d\":0.5,\"o\":\"NEW\"}",
                JsonWriter.compact().any(m).toString());
    }

    @Test
    void misuseIsRefusedInsteadOfWritingBrokenJson() {
        List<Consumer<JsonWriter>> bad = List.of(
                w -> w.beginObject().value(1),
                w -> w.beginArray().name("a"),
                w -> w.name("a"),
                w -> w.beginObject().name("a").name("b"),
                w -> w.beginObject().name("a").endObject(),
                w -> w.beginObject().endArray(),
                w -> w.beginArray().endObject(),
                w -> w.endObject(),
                w -> w.value(1).value(2),
                w -> w.beginObject().endObject().beginArray());
        for (Consumer<JsonWriter> b : bad) {
            assertThrows(IllegalStateException.class, () -> b.accept(JsonWriter.pretty()));
        }
    }

    @Test
    void aSinkTakesTheDocumentAFlushAtATimeWithJsonValuesAsTheyAre() throws java.io.IOException {
        StringBuilder sink = new StringBuilder();
        JsonWriter w = JsonWriter.pretty(sink).beginObject().name("a").beginArray();
        w.flush();
        assertEquals("{\n  \"a\": [", sink.toString());
        assertEquals("", w.toString(), "flushed text leaves the writer");
        w.json(" {\"x\":1}\n").json("[2]").endArray().endObject().flush();
        assertEquals("{\n  \"a\": [\n    {\"x\":1},\n    [2]\n  ]\n}", sink.toString());
        assertThrows(IllegalStateException.class, () -> JsonWriter.pretty().flush(), "no sink to flush to");
        assertThrows(IllegalArgumentException.class, () -> JsonWriter.compact().json(" "));
        assertThrows(IllegalStateException.class, () -> JsonWriter.compact().beginObject().json("1"),
                "a JSON value in an object needs a name too");
    }
}
