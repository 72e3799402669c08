package shootout.formats.jackson;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.util.StdConverter;
import shootout.workload.MultiMessage;
import shootout.workload.SerdeIex;

/**
 * The Jackson formats write the iex message in Rust serde's shape (so their
 * bytes are serde's, docs/interop.md) through Jackson's documented route: a
 * mix-in puts a Converter on the flat Java message, and the converted
 * classes ({@link SerdeIex}) carry the body as a WRAPPER_OBJECT union,
 * mapped by reflection like every other record.
 */
final class SerdeShape {
    private SerdeShape() {}

    static final class ToSerde extends StdConverter<MultiMessage.Message, SerdeIex.Message> {
        @Override
        public SerdeIex.Message convert(MultiMessage.Message m) {
            return SerdeIex.toSerde(m);
        }
    }

    static final class FromSerde extends StdConverter<SerdeIex.Message, MultiMessage.Message> {
        @Override
        public MultiMessage.Message convert(SerdeIex.Message s) {
            return SerdeIex.fromSerde(s);
        }
    }

    @JsonSerialize(converter = ToSerde.class)
    @JsonDeserialize(converter = FromSerde.class)
    abstract static class FlatMessageMixIn {}

    /** Maps the flat message through serde's shape on mapper m. */
    static <M extends ObjectMapper> M register(M m) {
        m.addMixIn(MultiMessage.Message.class, FlatMessageMixIn.class);
        return m;
    }

    /** With arrays for records (rmp-serde's default layout): the serde message and each body as arrays of their fields. */
    static void asArrays(ObjectMapper m) {
        for (Class<?> c : new Class<?>[] {SerdeIex.Message.class, SerdeIex.Trade.class, SerdeIex.LevelUpdate.class}) {
            m.configOverride(c).setFormat(JsonFormat.Value.forShape(JsonFormat.Shape.ARRAY));
        }
    }
}
