package io.rdmaffm.perftest.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reader on its own (the doctor's {@code Json.parse} delegates to it and has its own tests). */
class JsonReaderTest {

    @Test
    void readsWhatTheWriterWrites() {
        String text = JsonWriter.pretty().beginObject().name("schema").value("rdma-ffm.run/1").name("rows").beginArray()
                .beginObject().name("MsgSize").value(65536).name("BW_average").fixed(11723.17, 2).name("peak").nullValue()
                .endObject().endArray().endObject().toString();
        Map<?, ?> m = (Map<?, ?>) JsonReader.parse(text);
        assertEquals(List.of("schema", "rows"), List.copyOf(m.keySet()));
        Map<?, ?> row = (Map<?, ?>) ((List<?>) m.get("rows")).get(0);
        assertEquals(65536.0, row.get("MsgSize"));
        assertEquals(11723.17, row.get("BW_average"));
        assertEquals(Arrays.asList(null, "µ\t\"", -1.5e-3, true), JsonReader.parse("[null, \"\\u00b5\\t\\\"\", -1.5e-3, true]"));
    }

    @Test
    void refusesWhatIsNotJsonWithTheOffset() {
        assertEquals("bad JSON at offset 12: duplicate key a",
                assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("{\"a\":1,\"a\":2}")).getMessage());
        assertEquals("bad JSON at offset 3: trailing characters",
                assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("{} x")).getMessage());
        assertEquals("bad JSON at offset 0: unexpected character 'N'",
                assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("NaN")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("[".repeat(300) + "]".repeat(300)));
    }
}
