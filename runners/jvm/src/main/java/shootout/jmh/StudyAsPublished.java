package shootout.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.util.Arrays;
import org.apache.ignite.IgniteCheckedException;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.core.buffer.ArrayBufferInput;
import org.msgpack.core.buffer.MessageBuffer;
import org.msgpack.core.buffer.MessageBufferOutput;
import org.msgpack.jackson.dataformat.JsonArrayFormat;
import org.msgpack.jackson.dataformat.MessagePackFactory;
import shootout.formats.ignite.Ignite;

/**
 * The IEP-75 study's operations as its JMH benchmark wrote them (Apache
 * Ignite's JmhBinaryMarshallerMsgPackBenchmark, modules/benchmarks, whose
 * header lists the document's figures): MessagePack's POJO through
 * jackson-dataformat-msgpack, its loose values through msgpack-core's packer on
 * one pooled buffer; Ignite's POJO through its BinaryMarshaller with full
 * footers, its loose values through a writer on the thread's pooled buffer.
 * Every write returns a new byte[] (the study's methods returned their
 * bytes); every read decodes the bytes its write made at construction. The
 * JMH benchmarks (StudyAsPublishedBenchmark) call these, and so do the tests.
 */
public final class StudyAsPublished {
    /** The study's primitives: an int and a string, one after the other. */
    static final int INT = 42;

    static final String STRING = "Hello world";

    /** The study's POJO: one int behind a getter and a setter, which Jackson calls. */
    public static final class IntPojo {
        private int val;

        public IntPojo() {}

        public IntPojo(int val) {
            this.val = val;
        }

        public int getVal() {
            return val;
        }

        public void setVal(int val) {
            this.val = val;
        }
    }

    /** What readPrimitives returns (the study returned the two values as a tuple). */
    public record IntAndString(int i, String s) {}

    /** The study's packer configuration: 128-byte buffers, for Jackson's generator and the raw packer alike. */
    static final MessagePack.PackerConfig PACKER = new MessagePack.PackerConfig().withBufferSize(128);

    /**
     * The packer's only buffer, one array reused by every write (the study's
     * PooledMessageBufferOutput, which took MessagePack's buffer allocations
     * out of the figures); take() copies the bytes out, as the study's
     * published writePrimitives figure did ("with true array copy").
     */
    static final class PooledOutput implements MessageBufferOutput {
        private final byte[] array = new byte[128];
        private int length;

        @Override
        public MessageBuffer next(int minimumSize) {
            if (length != 0 || minimumSize > array.length) {
                throw new IllegalStateException("a write larger than the pooled " + array.length + " bytes");
            }
            return MessageBuffer.wrap(array);
        }

        @Override
        public void writeBuffer(int length) {
            this.length = length;
        }

        @Override
        public void write(byte[] buffer, int offset, int length) {
            throw new IllegalStateException("a payload written past the pooled buffer");
        }

        @Override
        public void add(byte[] buffer, int offset, int length) {
            write(buffer, offset, length);
        }

        @Override
        public void close() {}

        @Override
        public void flush() {}

        byte[] take() {
            byte[] b = Arrays.copyOf(array, length);
            length = 0;
            return b;
        }
    }

    private final PooledOutput pooled = new PooledOutput();
    private final ObjectMapper mapper = new ObjectMapper(new MessagePackFactory(PACKER));
    private final ObjectWriter withNames = mapper.writerFor(IntPojo.class);
    /** The study's writePojoMsgPack2: Jackson again, the POJO as an array of its values (JsonArrayFormat). */
    private final ObjectWriter withoutNames = new ObjectMapper(new MessagePackFactory(PACKER))
            .setAnnotationIntrospector(new JsonArrayFormat())
            .writerFor(IntPojo.class);

    private final MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(new byte[0]);
    private final Ignite.AsStudied ignite = new Ignite.AsStudied();

    /** The read benchmarks' input, written once by the write operations (the study's byte literals were those). */
    final byte[] msgpackPrimitives, ignitePrimitives, msgpackPojo, ignitePojo;

    public StudyAsPublished() throws IOException, IgniteCheckedException {
        msgpackPrimitives = writePrimitivesMsgPackRaw();
        ignitePrimitives = writePrimitivesIgnite();
        msgpackPojo = writePojoMsgPack();
        // Also registers the type's metadata, which unmarshalling needs (the study's set-up did the same).
        ignitePojo = writePojoIgnite();
    }

    public byte[] writePrimitivesMsgPackRaw() throws IOException {
        MessagePacker p = PACKER.newPacker(pooled);
        p.packInt(INT).packString(STRING);
        p.close();
        return pooled.take();
    }

    public byte[] writePrimitivesIgnite() {
        return ignite.write(w -> {
            w.writeInt(INT);
            w.writeString(STRING);
        });
    }

    public IntAndString readPrimitivesMsgPack() throws IOException {
        unpacker.reset(new ArrayBufferInput(msgpackPrimitives));
        return new IntAndString(unpacker.unpackInt(), unpacker.unpackString());
    }

    public IntAndString readPrimitivesIgnite() {
        return ignite.read(ignitePrimitives, r -> new IntAndString(r.readInt(), r.readString()));
    }

    public byte[] writePojoMsgPack() throws IOException {
        return withNames.writeValueAsBytes(new IntPojo(INT));
    }

    public byte[] writePojoMsgPack2() throws IOException {
        return withoutNames.writeValueAsBytes(new IntPojo(INT));
    }

    public byte[] writePojoIgnite() throws IgniteCheckedException {
        return ignite.marshal(new IntPojo(INT));
    }

    public IntPojo readPojoMsgPack() throws IOException {
        return mapper.readValue(msgpackPojo, IntPojo.class);
    }

    public IntPojo readPojoIgnite() throws IgniteCheckedException {
        return ignite.unmarshal(ignitePojo);
    }

    /** The document's packer code for the request, on the pooled packer. */
    public byte[] writeSqlQueryMsgPack() throws IOException {
        MessagePacker p = PACKER.newPacker(pooled);
        p.packString(Study.QUERY).packArrayHeader(Study.ARGS.length);
        for (Object a : Study.ARGS) {
            p.packInt((Integer) a);
        }
        p.close();
        return pooled.take();
    }

    public byte[] writeSqlQueryIgnite() {
        return ignite.write(w -> {
            w.writeString(Study.QUERY);
            w.writeObjectArray(Study.ARGS);
        });
    }
}
