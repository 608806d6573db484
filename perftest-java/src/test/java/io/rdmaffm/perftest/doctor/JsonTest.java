package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.verbs.topology.Reading;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hand-written JSON writer/reader and the dcb output parser built on it. */
class JsonTest {

    @Test
    void writesAndReadsBackEveryType() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "quote \" backslash \\ newline \n tab \t ctl \u0001 µ");
        m.put("i", 42);
        m.put("d", 12.75);
        m.put("whole", 400.0);
        m.put("nan", Double.NaN);
        m.put("b", true);
        m.put("n", null);
        m.put("l", new ArrayList<>(Arrays.asList(1, "x", null, List.of())));
        m.put("e", Map.of());
        for (String text : List.of(Json.write(m), Json.pretty(m))) {
            Map<?, ?> back = (Map<?, ?>) Json.parse(text);
            assertEquals(m.get("s"), back.get("s"));
            assertEquals(42.0, back.get("i"));
            assertEquals(12.75, back.get("d"));
            assertEquals(400.0, back.get("whole"));
            assertEquals(null, back.get("nan"));
            assertTrue(back.containsKey("nan") && back.containsKey("n"));
            assertEquals(true, back.get("b"));
            assertEquals(Arrays.asList(1.0, "x", null, List.of()), back.get("l"));
            assertEquals(Map.of(), back.get("e"));
        }
        assertTrue(Json.write(m).contains("\"whole\":400,"), "integral doubles are written without a fraction");
    }

    @Test
    void rejectsMalformedJson() {
        for (String bad : List.of("", "{", "{\"a\":}", "[1,]", "{\"a\":1}x", "\"unterminated", "01", "{a:1}",
                "{\"a\":1,\"a\":2}", "[\"\\q\"]", "nul")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("bad JSON at offset "), e.getMessage());
        }
    }

    @Test
    void parsesDcbPfcOutputInBothShapes() {
        assertEquals(Reading.of(List.of(3)), DcbPfcProbe.parse(
                "{\"pfc_cap\":8,\"macsec_bypass\":false,\"delay\":4096,"
                        + "\"prio_pfc\":[false,false,false,true,false,false,false,false]}"));
        assertEquals(Reading.of(List.of(3, 4)), DcbPfcProbe.parse(
                "{\"prio_pfc\":{\"0\":false,\"1\":false,\"2\":false,\"3\":true,\"4\":true,\"5\":false,"
                        + "\"6\":false,\"7\":false}}"));
        assertEquals(Reading.of(List.of()), DcbPfcProbe.parse("{\"prio_pfc\":[false,false,false,false,false,false,"
                + "false,false]}"));
        assertTrue(DcbPfcProbe.parse("Object \"pfc\" is unknown").problem().startsWith("dcb output is not JSON"));
        assertEquals("dcb output has no prio_pfc", DcbPfcProbe.parse("{\"pfc_cap\":8}").problem());
    }
}
