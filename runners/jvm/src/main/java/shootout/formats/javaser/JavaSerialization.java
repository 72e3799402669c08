package shootout.formats.javaser;

import java.io.ByteArrayInputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.function.BiConsumer;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * java.io serialization: each record is one ObjectOutputStream's output (its
 * stream header, class descriptors and the object), as a log or queue that
 * stores records independently must write it. Decoding goes through an
 * ObjectInputFilter that allows only the workload's classes and bounds arrays
 * and depth, so garbage cannot make it instantiate anything else.
 */
public final class JavaSerialization<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info(
            "java-serialization",
            "Java serialization",
            "jdk",
            Labels.of(false, "owned", "validated", "reflection"),
            Framing.U32LE,
            "java-serialization",
            "one ObjectOutputStream per record (stream header and class descriptors every time), 4-byte length prefix; "
                    + "an ObjectInputFilter admits the workload's classes only");

    private final Class<R> type;
    private final BiConsumer<R, S> feed;
    private final ObjectInputFilter filter;

    public JavaSerialization(Workload<R, S> w) {
        this.type = w.type;
        this.feed = w.feed;
        this.filter = info -> {
            Class<?> c = info.serialClass();
            if (info.depth() > 8 || info.arrayLength() > (1 << 24) || info.references() > (1 << 24)) {
                return ObjectInputFilter.Status.REJECTED;
            }
            if (c == null) {
                return ObjectInputFilter.Status.UNDECIDED;
            }
            Class<?> e = c;
            while (e.isArray()) {
                e = e.getComponentType();
            }
            return e.isPrimitive()
                            || e == w.type
                            || e == MultiMessage.Message.class
                            || e == String.class
                            || e == Long.class
                            || e == Integer.class
                            || e == Double.class
                            || e == Float.class
                            || e == Number.class
                    ? ObjectInputFilter.Status.ALLOWED
                    : ObjectInputFilter.Status.REJECTED;
        };
    }

    @Override
    public void encode(Stream out, R r) throws Exception {
        int at = out.reserve();
        ObjectOutputStream o = new ObjectOutputStream(out);
        o.writeObject(r);
        o.flush();
        out.seal(at);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        int n = Stream.frame(buf, off, end);
        ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(buf, off + 4, n));
        in.setObjectInputFilter(filter);
        R r = type.cast(in.readObject());
        feed.accept(r, sink);
        return n + 4;
    }
}
