package shootout.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Stream;

/** The floor row: the same loops with no format (the Go runner's harness.Baseline). */
public final class Baseline<R, S> implements Codec<R, S> {
    public static final String NAME = "baseline";
    public static final Info INFO = new Info(
            NAME,
            "none",
            "jdk",
            Labels.of(true, "owned", "unchecked", "generated"),
            Framing.NONE,
            null,
            "not a format: encode keeps a reference to the record in a reused slot and appends its 4-byte slot index, "
                    + "decode feeds the record to the aggregate (Java objects are references: no copy is made)");

    private final List<R> slots = new ArrayList<>();
    private final BiConsumer<R, S> feed;

    public Baseline(BiConsumer<R, S> feed) {
        this.feed = feed;
    }

    @Override
    public void encode(Stream out, R r) {
        int i = out.len / 4;
        if (i < slots.size()) {
            slots.set(i, r);
        } else {
            slots.add(r);
        }
        out.putIntLE(i);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws java.io.IOException {
        if (end - off < 4) {
            throw new java.io.EOFException("baseline: " + (end - off) + " bytes left, need 4");
        }
        int i = Stream.getIntLE(buf, off);
        if (i < 0 || i >= slots.size()) {
            throw new java.io.IOException("baseline: slot " + i + " of " + slots.size());
        }
        feed.accept(slots.get(i), sink);
        return 4;
    }
}
