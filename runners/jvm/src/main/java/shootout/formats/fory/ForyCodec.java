package shootout.formats.fory;

import java.util.List;
import java.util.function.BiConsumer;
import org.apache.fory.Fory;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Mapping;
import shootout.codec.Stream;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * Apache Fory (JIT-generated serializers, class registration required,
 * reference tracking off), over length-prefixed records (ForyFrames: read whole, bytes left after the record an error). Two modes: xlang,
 * Fory's cross-language format (the wire Rust's fory row reads and writes), and Java's native mode, for bytes only Java
 * reads (Fory's documented choice for speed there); both schema-consistent.
 */
public final class ForyCodec<R, S> implements Codec<R, S> {
    static final Labels LABELS = Labels.of(true, "owned", "validated", "generated");
    static final String NOTES =
            "codegen serializers (generated at run time from the class), registered classes, no reference tracking, "
                    + "4-byte length prefix";

    /** The namespace of every type xlang registers by name, as Rust's fory row registers its own. */
    static final String NAMESPACE = "shootout.";

    /**
     * Each row's mode, pinned by {@link #builder} and named first in its notes: since 1.0 Fory's builders default to xlang
     * and compatible mode, and the mode changes the bytes (compatible mode writes each type's field meta) and the speed.
     */
    static final String XLANG_MODE = "xlang (cross-language) mode, schema-consistent",
            JAVA_MODE = "Java (native) mode, schema-consistent";

    static final String PINNED = "both pinned, not Fory's defaults (xlang and compatible mode)";

    public static final Info XLANG = new Info(
            "fory",
            "Fory",
            "org.apache.fory:fory-core",
            LABELS,
            Framing.U32LE,
            "fory",
            XLANG_MODE + " (" + PINNED + "), as Rust's fory row; " + NOTES
                    + "; types registered by name: shootout. and the Java class's simple name (shootout.User, shootout.SqlRequest, "
                    + "shootout.Primitives, shootout.SmallObject, shootout.MultiMessage, shootout.Message); iex as the flat Java message (ts, symbol, kind, price, size, flags, side; unsigned types as "
                    + "the Rust record has them); the tabular rows are not mapped: xlang fields are non-null unless annotated "
                    + "@ForyField(nullable = true), which their generated classes are not");
    public static final Info JAVA = new Info(
            "fory-java",
            "Fory",
            "org.apache.fory:fory-core",
            LABELS,
            Framing.U32LE,
            "fory-java",
            JAVA_MODE + " (" + PINNED + "), not read by other languages; " + NOTES);

    /** xlang's workloads: those whose record classes have no null fields. */
    public static final List<Mapping<?, ?>> XLANG_MAPPINGS = List.of(
            xlang(Workload.IEX),
            xlang(Workload.USER),
            xlang(Workload.SQL),
            xlang(Workload.PRIMITIVES),
            xlang(Workload.OBJECT));

    private static <R, S> Mapping<R, S> xlang(Workload<R, S> w) {
        return new Mapping<>(w, () -> new ForyCodec<>(w, true));
    }

    private final ForyFrames frames;
    private final Class<R> type;
    private final BiConsumer<R, S> feed;

    public ForyCodec(Workload<R, S> w, boolean xlang) {
        Fory fory = builder(xlang).build();
        if (xlang) {
            fory.register(w.type, NAMESPACE + w.type.getSimpleName());
            fory.register(MultiMessage.Message.class, NAMESPACE + MultiMessage.Message.class.getSimpleName());
        } else {
            fory.register(w.type);
            fory.register(MultiMessage.Message.class);
            fory.register(MultiMessage.Message[].class);
        }
        frames = new ForyFrames(fory);
        this.type = w.type;
        this.feed = w.feed;
    }

    /**
     * The row's mode, every setting of it explicit: xlang or native, and schema-consistent in both (compatible mode off):
     * Fory's fast path for readers with the same classes, which every reader here has. Registration required, no
     * reference tracking.
     */
    static org.apache.fory.config.ForyBuilder builder(boolean xlang) {
        return Fory.builder()
                .withXlang(xlang)
                .withCompatible(false)
                .requireClassRegistration(true)
                .withRefTracking(false)
                .suppressClassRegistrationWarnings(true);
    }

    @Override
    public void encode(Stream s, R r) {
        frames.write(s, r);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        R r = frames.read(buf, off, end, type);
        feed.accept(r, sink);
        return frames.used();
    }
}
