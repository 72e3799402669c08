package shootout.formats.avro;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.reflect.ReflectDatumReader;
import org.apache.avro.reflect.ReflectDatumWriter;
import org.apache.avro.util.ClassSecurityValidator;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.MultiMessage;
import shootout.workload.SerdeIex;
import shootout.workload.Workload;

/**
 * Avro binary through Avro's reflection, on the committed schemas every
 * language uses (schemas/iex/iex.avsc, schemas/records/*.avsc): the writer
 * writes the record class's fields by name in the committed schema and the
 * reader reads them back by name, the schema's record names bound to the
 * Java classes (ReflectData finds classes by schema names). iex goes through SerdeIex's classes, whose body is the schema's
 * Trade/LevelUpdate union. Reused DatumWriter, DatumReader, direct
 * BinaryEncoder and BinaryDecoder.
 */
public final class AvroReflect<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info(
            "avro-reflect",
            "Avro",
            "org.apache.avro:avro",
            Labels.of(true, "owned", "validated", "reflection"),
            Framing.U32LE,
            "avro",
            "the committed .avsc schemas (as every language's Avro), written by ReflectDatumWriter from the class's "
                    + "fields and read back into it by ReflectDatumReader, the schemas' record names bound to the classes; iex through "
                    + "serde-shaped classes (a Trade/LevelUpdate union body), converted from and to the flat message per record; "
                    + "4-byte length prefix");

    private final ReflectDatumWriter<Object> writer;
    private final ReflectDatumReader<Object> reader;
    private final Function<R, Object> toAvro;
    private final Function<Object, R> fromAvro;
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;
    private final BiConsumer<R, S> feed;

    static {
        // Avro 1.12 refuses classes it does not trust in reflection: trust the workload's record classes.
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(
                ClassSecurityValidator.getGlobal(), c -> c.getName().startsWith("shootout.workload.")));
    }

    /**
     * The committed schema's record names bound to the Java classes that hold
     * them: ReflectData finds a class by a schema's name (an array's element
     * class, a record to make), and picks a union branch by its datum's schema
     * name, which for a class would be the class's own.
     */
    static final class CommittedNames extends ReflectData {
        private final Map<String, Class<?>> classes;
        private final Map<Class<?>, String> names = new java.util.HashMap<>();

        CommittedNames(Map<String, Class<?>> classes) {
            this.classes = classes;
            classes.forEach((name, c) -> names.put(c, name));
        }

        @Override
        public Class<?> getClass(Schema schema) {
            Class<?> c = schema.getFullName() == null ? null : classes.get(schema.getFullName());
            return c != null ? c : super.getClass(schema);
        }

        @Override
        protected String getSchemaName(Object datum) {
            String n = datum == null ? null : names.get(datum.getClass());
            return n != null ? n : super.getSchemaName(datum);
        }
    }

    /** The committed schema of workload w, packaged from the repository's schemas/ directory. */
    public static Schema committed(String workload) throws IOException {
        String path = workload.equals("iex") ? "/schemas/iex/iex.avsc" : "/schemas/records/" + workload + ".avsc";
        try (InputStream in = AvroReflect.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("avro: no committed schema " + path + " in the jar");
            }
            return new Schema.Parser().parse(in);
        }
    }

    @SuppressWarnings("unchecked")
    public AvroReflect(Workload<R, S> w) throws IOException {
        Schema schema = committed(w.name);
        Class<?> mapped;
        if (w.type == MultiMessage.class) {
            mapped = SerdeIex.Packet.class;
            toAvro = r -> SerdeIex.toSerde((MultiMessage) r);
            fromAvro = o -> (R) SerdeIex.fromSerde((SerdeIex.Packet) o);
        } else {
            mapped = w.type;
            toAvro = r -> r;
            fromAvro = o -> (R) o;
        }
        String ns = schema.getNamespace() + ".";
        ReflectData data = new CommittedNames(
                mapped == SerdeIex.Packet.class
                        ? Map.of(
                                schema.getFullName(),
                                mapped,
                                ns + "Message",
                                SerdeIex.Message.class,
                                ns + "Trade",
                                SerdeIex.Trade.class,
                                ns + "LevelUpdate",
                                SerdeIex.LevelUpdate.class,
                                ns + "Side",
                                SerdeIex.Side.class)
                        : Map.of(schema.getFullName(), mapped));
        bindArrays(schema, data);
        writer = new ReflectDatumWriter<>(schema, data);
        reader = new ReflectDatumReader<>(schema, schema, data);
        feed = w.feed;
    }

    /**
     * Names each array field's Java array class in its schema ("java-class",
     * the property ReflectData writes into the schemas it derives; not part of
     * the encoding), so the reader builds the class's arrays, not lists.
     */
    static void bindArrays(Schema record, ReflectData data) {
        Class<?> c = data.getClass(record);
        for (Schema.Field f : record.getFields()) {
            Schema t = f.schema();
            if (t.getType() == Schema.Type.ARRAY) {
                try {
                    t.addProp("java-class", c.getField(f.name()).getType().getName());
                } catch (NoSuchFieldException e) {
                    throw new IllegalStateException(
                            "avro: " + c.getName() + " has no field " + f.name() + " of the committed schema", e);
                }
                t = t.getElementType();
            }
            if (t.getType() == Schema.Type.UNION) {
                for (Schema branch : t.getTypes()) {
                    if (branch.getType() == Schema.Type.RECORD) {
                        bindArrays(branch, data);
                    }
                }
            } else if (t.getType() == Schema.Type.RECORD) {
                bindArrays(t, data);
            }
        }
    }

    @Override
    public void encode(Stream out, R r) throws Exception {
        int at = out.reserve();
        encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
        writer.write(toAvro.apply(r), encoder);
        encoder.flush();
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        decoder = DecoderFactory.get().binaryDecoder(buf, off + 4, n, decoder);
        R r = fromAvro.apply(reader.read(null, decoder));
        if (!decoder.isEnd()) {
            throw new java.io.IOException("avro: bytes left after the record");
        }
        feed.accept(r, sink);
        return n + 4;
    }
}
