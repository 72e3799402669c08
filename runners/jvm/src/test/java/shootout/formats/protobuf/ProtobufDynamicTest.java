package shootout.formats.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shootout.formats.Projections.assertProjects;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import java.util.List;
import org.junit.jupiter.api.Test;
import shootout.codec.Codec;
import shootout.codec.Mapping;
import shootout.formats.Projections;
import shootout.workload.JsonlRecord;
import shootout.workload.JsonlSink;
import shootout.workload.RecordSchemas;

/**
 * protobuf-dynamic's projection at the edges (docs/dataset-format.md, "With a schema"), on a schema of two files built here,
 * the importing one first in the descriptor set (so the codec must build them in dependency order):
 *
 * <pre>
 * // common.proto
 * syntax = "proto3"; package edge;
 * enum Color { RED = 0; GREEN = 1; }
 * message Inner { string s = 1; double x = 2; }
 *
 * // edge.proto
 * syntax = "proto3"; package edge; import "common.proto";
 * message Edge {
 *   uint64 u64 = 1; float f = 2; double d = 3; bytes b = 4; Color color = 5; map&lt;int32, string&gt; names = 6;
 *   oneof choice { string text = 7; Inner inner = 8; }
 *   optional double od = 9; uint32 u32 = 10; repeated sint64 many = 11; map&lt;bool, fixed64&gt; flags = 12; double latency_ms = 13;
 *   repeated double ds = 14; map&lt;string, double&gt; scores = 15;
 * }
 * </pre>
 */
class ProtobufDynamicTest {
    static FieldDescriptorProto.Builder field(String name, int number, Type type) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(Label.LABEL_OPTIONAL)
                .setJsonName(jsonName(name));
    }

    /** protoc's JSON name: lowerCamelCase of the field's name. */
    static String jsonName(String name) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_' && i + 1 < name.length()) {
                b.append(Character.toUpperCase(name.charAt(++i)));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    static FieldDescriptorProto.Builder map(String name, int number, String entry) {
        return field(name, number, Type.TYPE_MESSAGE)
                .setLabel(Label.LABEL_REPEATED)
                .setTypeName(".edge.Edge." + entry);
    }

    static DescriptorProto.Builder mapEntry(String name, Type key, Type value) {
        return DescriptorProto.newBuilder()
                .setName(name)
                .addField(field("key", 1, key))
                .addField(field("value", 2, value))
                .setOptions(MessageOptions.newBuilder().setMapEntry(true));
    }

    static final FileDescriptorProto COMMON = FileDescriptorProto.newBuilder()
            .setName("common.proto")
            .setPackage("edge")
            .setSyntax("proto3")
            .addEnumType(EnumDescriptorProto.newBuilder()
                    .setName("Color")
                    .addValue(
                            EnumValueDescriptorProto.newBuilder().setName("RED").setNumber(0))
                    .addValue(EnumValueDescriptorProto.newBuilder()
                            .setName("GREEN")
                            .setNumber(1)))
            .addMessageType(DescriptorProto.newBuilder()
                    .setName("Inner")
                    .addField(field("s", 1, Type.TYPE_STRING))
                    .addField(field("x", 2, Type.TYPE_DOUBLE)))
            .build();

    static final FileDescriptorProto EDGE = FileDescriptorProto.newBuilder()
            .setName("edge.proto")
            .setPackage("edge")
            .setSyntax("proto3")
            .addDependency("common.proto")
            .addMessageType(DescriptorProto.newBuilder()
                    .setName("Edge")
                    .addField(field("u64", 1, Type.TYPE_UINT64))
                    .addField(field("f", 2, Type.TYPE_FLOAT))
                    .addField(field("d", 3, Type.TYPE_DOUBLE))
                    .addField(field("b", 4, Type.TYPE_BYTES))
                    .addField(field("color", 5, Type.TYPE_ENUM).setTypeName(".edge.Color"))
                    .addField(map("names", 6, "NamesEntry"))
                    .addField(field("text", 7, Type.TYPE_STRING).setOneofIndex(0))
                    .addField(field("inner", 8, Type.TYPE_MESSAGE)
                            .setTypeName(".edge.Inner")
                            .setOneofIndex(0))
                    .addField(field("od", 9, Type.TYPE_DOUBLE).setOneofIndex(1).setProto3Optional(true))
                    .addField(field("u32", 10, Type.TYPE_UINT32))
                    .addField(field("many", 11, Type.TYPE_SINT64).setLabel(Label.LABEL_REPEATED))
                    .addField(map("flags", 12, "FlagsEntry"))
                    .addField(field("latency_ms", 13, Type.TYPE_DOUBLE))
                    .addField(field("ds", 14, Type.TYPE_DOUBLE).setLabel(Label.LABEL_REPEATED))
                    .addField(map("scores", 15, "ScoresEntry"))
                    .addNestedType(mapEntry("NamesEntry", Type.TYPE_INT32, Type.TYPE_STRING))
                    .addNestedType(mapEntry("FlagsEntry", Type.TYPE_BOOL, Type.TYPE_FIXED64))
                    .addNestedType(mapEntry("ScoresEntry", Type.TYPE_STRING, Type.TYPE_DOUBLE))
                    .addOneofDecl(OneofDescriptorProto.newBuilder().setName("choice"))
                    .addOneofDecl(OneofDescriptorProto.newBuilder().setName("_od")))
            .build();

    /** The schema as a header carries it: the importing file first. */
    static final RecordSchemas.Protobuf SCHEMA = new RecordSchemas.Protobuf(
            "edge.proto",
            "edge.Edge",
            FileDescriptorSet.newBuilder().addFile(EDGE).addFile(COMMON).build().toByteArray());

    /** A fresh codec of the schema, made as the registry makes it for a dataset whose header carries it. */
    static Codec<JsonlRecord, JsonlSink> codec() throws Exception {
        Mapping.OnDataset<JsonlRecord, JsonlSink> on = ProtobufDynamic.on(new RecordSchemas(SCHEMA, null));
        assertTrue(on.runs(), on.notRun());
        return on.make().make();
    }

    @Test
    void aUint64KeepsItsFull64Bits() throws Exception {
        assertProjects(codec(), "{\"u64\":18446744073709551615}");
        assertProjects(codec(), "{\"u32\":4294967295}");
        assertProjects(codec(), "{\"many\":[-9223372036854775808,9223372036854775807]}");
    }

    @Test
    void aFloatIsTheFloatWidenedToADouble() throws Exception {
        assertProjects(codec(), "{\"f\":0.1}", "{\"f\":0.10000000149011612}");
        assertProjects(codec(), "{\"f\":0.10000000149011612}");
    }

    /**
     * -0.0 keeps its sign wherever a double is (JsonFormat's parser reads it as 0.0: the codec sets it back), and is not a
     * double's default (protobuf-java compares a double with its default bit for bit, so a field without presence keeps it).
     */
    @Test
    void negativeZeroKeepsItsSignAndIsNotTheDefault() throws Exception {
        assertProjects(codec(), "{\"d\":-0.0}");
        assertProjects(codec(), "{\"d\":0.0}", "{}");
        // An optional field has presence: set to 0.0 it is there.
        assertProjects(codec(), "{\"od\":0.0}");
        assertProjects(codec(), "{\"od\":-0.0}");
        assertProjects(codec(), "{\"f\":-0.0}");
        assertProjects(codec(), "{\"ds\":[1.5,-0.0,0.0,-0.0]}");
        assertProjects(codec(), "{\"scores\":{\"a\":2.5,\"b\":-0.0,\"c\":0.0}}");
        assertProjects(
                codec(),
                "{\"inner\":{\"x\":-0.0,\"s\":\"y\"},\"latencyMs\":-0.0}",
                "{\"inner\":{\"x\":-0.0,\"s\":\"y\"},\"latency_ms\":-0.0}");
    }

    @Test
    void bytesAreStandardPaddedBase64() throws Exception {
        assertProjects(codec(), "{\"b\":\"AAH/\"}");
        assertProjects(codec(), "{\"b\":\"+/8=\"}");
        // JsonFormat also reads the URL-safe alphabet without padding; the projection is standard and padded.
        assertProjects(codec(), "{\"b\":\"-_8\"}", "{\"b\":\"+/8=\"}");
        assertProjects(codec(), "{\"b\":\"\"}", "{}");
    }

    @Test
    void anEnumIsItsValuesNameOrAnUndeclaredNumber() throws Exception {
        assertProjects(codec(), "{\"color\":\"GREEN\"}");
        assertProjects(codec(), "{\"color\":1}", "{\"color\":\"GREEN\"}");
        assertProjects(codec(), "{\"color\":7}");
        assertProjects(codec(), "{\"color\":-3}");
        assertProjects(codec(), "{\"color\":\"RED\"}", "{}");
    }

    @Test
    void aMapIsAnObjectKeyedByItsKeysText() throws Exception {
        assertProjects(codec(), "{\"names\":{\"-2\":\"minus two\",\"1\":\"one\",\"0\":\"\"}}");
        assertProjects(codec(), "{\"flags\":{\"true\":18446744073709551615,\"false\":0}}");
        assertProjects(codec(), "{\"names\":{}}", "{}");
    }

    @Test
    void aOneofHasTheMemberSetEvenAtItsDefault() throws Exception {
        assertProjects(codec(), "{\"text\":\"\"}");
        assertProjects(codec(), "{\"inner\":{}}");
        assertProjects(codec(), "{\"inner\":{\"s\":\"x\"}}");
        Exception e = Projections.encodeError(codec(), "{\"text\":\"a\",\"inner\":{}}");
        assertTrue(e.getMessage().contains("oneof"), e.getMessage());
    }

    @Test
    void membersAreKeyedByTheProtoNameWhateverNameTheLineUsed() throws Exception {
        assertProjects(codec(), "{\"latencyMs\":1.5}", "{\"latency_ms\":1.5}");
        assertProjects(codec(), "{\"latency_ms\":1.5}");
    }

    @Test
    void recordsOfOneStreamKeepApart() throws Exception {
        List<String> records = List.of(
                "{\"u64\":1,\"names\":{\"1\":\"a\"},\"inner\":{\"s\":\"x\"},\"many\":[1,2]}",
                "{}",
                "{\"text\":\"t\",\"color\":7,\"od\":-0.0,\"b\":\"AAH/\",\"f\":0.5,\"flags\":{\"false\":3}}");
        assertProjects(codec(), records, records);
    }

    @Test
    void aFieldTheSchemaDoesNotHaveIsTheRecordsEncodeError() throws Exception {
        Exception e = Projections.encodeError(codec(), "{\"nope\":1}");
        assertTrue(e.getMessage().contains("nope"), e.getMessage());
    }

    @Test
    void aMessageTheDescriptorSetLacksOrAnImportItLacksIsRefused() {
        byte[] onlyEdge = FileDescriptorSet.newBuilder().addFile(EDGE).build().toByteArray();
        Exception e = assertThrows(
                IllegalArgumentException.class,
                () -> ProtobufDynamic.recordMessage(new RecordSchemas.Protobuf("edge.proto", "edge.Edge", onlyEdge)));
        assertEquals("the header's descriptor set lacks common.proto, which one of its files imports", e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> ProtobufDynamic.recordMessage(
                        new RecordSchemas.Protobuf("edge.proto", "edge.Nope", SCHEMA.descriptorSet())));
        assertEquals("edge.proto: no message edge.Nope in the header's descriptor set", e.getMessage());
    }
}
