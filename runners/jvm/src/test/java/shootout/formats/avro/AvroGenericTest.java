package shootout.formats.avro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shootout.formats.Projections.assertProjects;

import java.util.List;
import org.junit.jupiter.api.Test;
import shootout.codec.Codec;
import shootout.codec.Mapping;
import shootout.formats.Projections;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.RecordSchemas;

/** avro-generic's projection at the edges (docs/dataset-format.md, "With a schema"), on a small schema of every kind of field. */
class AvroGenericTest {
    static final String SCHEMA = """
            {"type": "record", "name": "Edge", "namespace": "edge", "fields": [
              {"name": "maybe", "type": ["null", "long"], "default": null},
              {"name": "items", "type": {"type": "array", "items": {"type": "record", "name": "Item", "fields": [
                {"name": "n", "type": "int"},
                {"name": "tag", "type": ["null", "string"], "default": null}]}}},
              {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}},
              {"name": "id", "type": {"type": "fixed", "name": "Id", "size": 4}},
              {"name": "b", "type": "bytes"},
              {"name": "f", "type": "float"},
              {"name": "d", "type": "double"},
              {"name": "counts", "type": {"type": "map", "values": ["null", "int"]}},
              {"name": "flag", "type": "boolean"},
              {"name": "s", "type": "string"}]}
            """;

    /** A projection of every field but maybe, each at its zero: an Avro field has no presence, so zeros are members. */
    static final String ZEROS = "\"items\":[],\"color\":\"RED\",\"id\":\"AAAAAA==\",\"b\":\"\",\"f\":0.0,\"d\":0.0,"
            + "\"counts\":{},\"flag\":false,\"s\":\"\"";

    /** ZEROS with one member in place of its zero (or, for maybe, added). */
    static String with(String member) {
        String key = member.substring(0, member.indexOf(':') + 1);
        int at = ZEROS.indexOf(key);
        if (at < 0) {
            return "{" + member + "," + ZEROS + "}";
        }
        int end = ZEROS.indexOf(",\"", at + key.length());
        return "{" + ZEROS.substring(0, at) + member + (end < 0 ? "" : ZEROS.substring(end)) + "}";
    }

    /** A fresh codec of the schema, made as the registry makes it for a dataset whose header carries it. */
    static Codec<JsonlRecord, JsonlSink> codec() throws Exception {
        Mapping.OnDataset<JsonlRecord, JsonlSink> on =
                AvroGeneric.on(new RecordSchemas(null, new RecordSchemas.Avro("edge.avsc", SCHEMA)));
        assertTrue(on.runs(), on.notRun());
        return on.make().make();
    }

    @Test
    void aNullableFieldIsAMemberOnlyWhenItIsNotNull() throws Exception {
        assertProjects(codec(), "{" + ZEROS + "}");
        assertProjects(codec(), with("\"maybe\":null"), "{" + ZEROS + "}");
        assertProjects(codec(), with("\"maybe\":0"));
        assertProjects(codec(), with("\"maybe\":-9223372036854775808"));
        // The decoder's reused record must not carry one record's value into the next.
        List<String> records = List.of(
                with("\"maybe\":7"),
                "{" + ZEROS + "}",
                with("\"items\":[{\"n\":1,\"tag\":\"x\"}]"),
                with("\"items\":[{\"n\":2}]"));
        assertProjects(codec(), records, records);
    }

    @Test
    void anArrayOfRecordsIsAnArrayOfObjects() throws Exception {
        assertProjects(
                codec(),
                with("\"items\":[{\"n\":1},{\"n\":-2147483648,\"tag\":\"x\"},{\"n\":2147483647,\"tag\":\"\"}]"));
    }

    @Test
    void anEnumIsItsSymbolAndAFixedItsBase64() throws Exception {
        assertProjects(codec(), with("\"color\":\"GREEN\""));
        assertProjects(codec(), with("\"id\":\"3q2+7w==\""));
        Exception e = Projections.encodeError(codec(), with("\"color\":\"BLUE\""));
        assertEquals("color: \"BLUE\" is no symbol of the enum edge.Color", e.getMessage());
        e = Projections.encodeError(codec(), with("\"id\":\"AAH/\""));
        assertEquals("id: 3 bytes, the fixed edge.Id holds 4", e.getMessage());
    }

    @Test
    void bytesFloatsAndDoublesKeepEveryBit() throws Exception {
        assertProjects(codec(), with("\"b\":\"AAH/\""));
        assertProjects(codec(), with("\"d\":-0.0"));
        assertProjects(codec(), with("\"f\":-0.0"));
        assertProjects(codec(), with("\"f\":0.10000000149011612"));
        assertProjects(codec(), with("\"f\":0.1"), with("\"f\":0.10000000149011612"));
    }

    @Test
    void aMapsNullValueIsNull() throws Exception {
        assertProjects(codec(), with("\"counts\":{\"a\":1,\"b\":null,\"\":-1}"));
    }

    @Test
    void aLineThatIsNoProjectionOfTheSchemaIsTheRecordsEncodeError() throws Exception {
        assertEquals(
                "s: missing, and its \"string\" is never null",
                Projections.encodeError(codec(), "{" + ZEROS.replace(",\"s\":\"\"", "") + "}")
                        .getMessage());
        assertEquals(
                "nope: edge.Edge has no such field",
                Projections.encodeError(codec(), with("\"nope\":1")).getMessage());
        assertEquals(
                "items[0].n: 2147483648 is beyond an int",
                Projections.encodeError(codec(), with("\"items\":[{\"n\":2147483648}]"))
                        .getMessage());
        assertEquals(
                "the record: [] does not fit a "
                        + AvroGeneric.recordSchema(new RecordSchemas.Avro("edge.avsc", SCHEMA)),
                Projections.encodeError(codec(), "[]").getMessage());
    }

    @Test
    void aSchemaWhoseTopLevelTypeIsNotARecordIsRefused() {
        Exception e = assertThrows(
                IllegalArgumentException.class,
                () -> AvroGeneric.recordSchema(
                        new RecordSchemas.Avro("list.avsc", "{\"type\": \"array\", \"items\": \"long\"}")));
        assertEquals("list.avsc: the top-level type is array, not a record", e.getMessage());
    }
}
