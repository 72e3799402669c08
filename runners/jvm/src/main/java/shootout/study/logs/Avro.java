package shootout.study.logs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.EnumMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro as the study wrote it: a container file (DataFileWriter, no codec)
 * holding the schema once and the records in blocks, each field a
 * `["null", T]` union (what avro4s makes of an Option), the record named as
 * the case class in namespace `project`. Records go through generic records
 * here where avro4s built them from the case class.
 */
final class Avro extends Format implements Format.FieldBytes {
    private final Map<DataSet, Schema> schemas = new EnumMap<>(DataSet.class);

    Avro() {
        super("Avro", "avro", true);
        for (DataSet set : DataSet.values()) {
            SchemaBuilder.FieldAssembler<Schema> fields =
                    SchemaBuilder.record(set.recordName).namespace("project").fields();
            for (int i = 0; i < DataSet.FIELDS; i++) {
                SchemaBuilder.BaseTypeBuilder<SchemaBuilder.FieldAssembler<Schema>> optional =
                        fields.name("f" + (i + 1)).type().optional();
                fields = switch (set.kinds[i]) {
                    case STRING -> optional.stringType();
                    case DOUBLE -> optional.doubleType();
                    case LONG -> optional.longType();
                    case INT -> optional.intType();
                    case FLOAT -> optional.floatType();
                };
            }
            schemas.put(set, fields.endRecord());
        }
    }

    @Override
    RecordWriter writer(OutputStream out, DataSet set) throws IOException {
        Schema schema = schemas.get(set);
        DataFileWriter<GenericRecord> file =
                new DataFileWriter<GenericRecord>(new GenericDatumWriter<>(schema)).create(schema, out);
        // DataFileWriter.flush ends the current block, as avro4s's flush did.
        return RecordWriter.of(
                d -> {
                    GenericData.Record r = new GenericData.Record(schema);
                    for (int i = 0; i < DataSet.FIELDS; i++) {
                        r.put(i, set.get(d, i));
                    }
                    file.append(r);
                },
                file,
                file);
    }

    @Override
    RecordReader reader(InputStream in, DataSet set) throws IOException {
        DataFileStream<GenericRecord> file = new DataFileStream<>(in, new GenericDatumReader<>(schemas.get(set)));
        return RecordReader.of(
                () -> {
                    if (!file.hasNext()) {
                        return null;
                    }
                    GenericRecord r = file.next();
                    Data d = set.empty();
                    for (int i = 0; i < DataSet.FIELDS; i++) {
                        Object v = r.get(i);
                        // Strings come back as Avro's Utf8.
                        set.set(d, i, set.kinds[i] == Kind.STRING && v != null ? v.toString() : v);
                    }
                    return d;
                },
                file);
    }

    /** The union's branch index and the string, as the record writes a field. */
    @Override
    public int uuidFieldBytes(String uuid) throws IOException {
        Schema field = schemas.get(DataSet.STRINGS).getField("f1").schema();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new GenericDatumWriter<Object>(field).write(uuid, encoder);
        encoder.flush();
        return bytes.size();
    }
}
