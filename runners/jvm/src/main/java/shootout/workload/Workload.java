package shootout.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the harness needs of a workload (the Go runner's workload.Spec): its
 * record class, its sink, how a record feeds it (the source side of
 * validation), how a finished sink compares with the header's reference, and
 * how a dataset line becomes a record.
 */
public final class Workload<R, S> {
    public final String name;
    public final Class<R> type;
    public final List<String> fields;
    public final Supplier<S> newSink;
    public final BiConsumer<R, S> feed;
    /** Parses the header's reference; the function it returns names the first difference of a sink from it, or null. */
    public final Function<JsonNode, Function<S, String>> checker;

    public final LineReader<R> readLine;
    /** The first difference of a decoded sink (second) from an expected one (first), worded as the checker words it; null when equal. */
    public final BiFunction<S, S, String> compare;

    @FunctionalInterface
    public interface LineReader<R> {
        R read(String line) throws Exception;
    }

    Workload(
            String name,
            Class<R> type,
            List<String> fields,
            Supplier<S> newSink,
            BiConsumer<R, S> feed,
            Function<JsonNode, Function<S, String>> checker,
            LineReader<R> readLine,
            BiFunction<S, S, String> compare) {
        this.name = name;
        this.type = type;
        this.fields = fields;
        this.newSink = newSink;
        this.feed = feed;
        this.checker = checker;
        this.readLine = readLine;
        this.compare = compare;
    }

    static <R> Workload<R, FieldSink> fields(
            String name, Class<R> type, List<String> fields, BiConsumer<R, FieldSink> visit) {
        ObjectReader reader = Json.MAPPER.readerFor(type);
        return new Workload<>(
                name,
                type,
                fields,
                () -> new FieldSink(fields.size()),
                visit,
                ref -> {
                    FieldSink.Reference want = new FieldSink.Reference(ref);
                    return s -> s.firstDifference(want, fields);
                },
                reader::readValue,
                (want, got) -> got.firstDifference(new FieldSink.Reference(want, fields), fields));
    }

    public static final List<String> TABULAR = List.of(
            "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15", "f16",
            "f17", "f18", "f19", "f20");

    public static final Workload<User, FieldSink> USER = fields("user", User.class, User.FIELDS, User::visit);
    public static final Workload<SqlRequest, FieldSink> SQL =
            fields("sql", SqlRequest.class, SqlRequest.FIELDS, SqlRequest::visit);
    public static final Workload<Primitives, FieldSink> PRIMITIVES =
            fields("primitives", Primitives.class, Primitives.FIELDS, Primitives::visit);
    public static final Workload<SmallObject, FieldSink> OBJECT =
            fields("object", SmallObject.class, SmallObject.FIELDS, SmallObject::visit);
    public static final Workload<MixedRow, FieldSink> MIXED = fields("mixed", MixedRow.class, TABULAR, MixedRow::visit);
    public static final Workload<StringsRow, FieldSink> STRINGS =
            fields("strings", StringsRow.class, TABULAR, StringsRow::visit);
    public static final Workload<LongsRow, FieldSink> LONGS = fields("longs", LongsRow.class, TABULAR, LongsRow::visit);
    public static final Workload<MultiMessage, IexSink> IEX = new Workload<>(
            "iex",
            MultiMessage.class,
            List.of(),
            IexSink::new,
            MultiMessage::feed,
            ref -> {
                IexSink.Reference want = new IexSink.Reference(ref);
                return s -> s.firstDifference(want);
            },
            IexLine::read,
            (want, got) -> got.firstDifference(new IexSink.Reference(want)));

    /**
     * Any JSON Lines file, each record any JSON value (docs/dataset-format.md, "`jsonl`: any JSON value"): no record class, so
     * no reflection or schema codec takes it; each format that runs it does so through its library's own dynamic value model.
     */
    public static final Workload<JsonlRecord, JsonlSink> JSONL = new Workload<>(
            "jsonl",
            JsonlRecord.class,
            List.of(),
            JsonlSink::new,
            JsonlRecord::feed,
            ref -> {
                JsonlSink.Reference want = JsonlSink.Reference.parse(ref);
                return s -> s.firstDifference(want);
            },
            JsonlReader::read,
            (want, got) -> got.firstDifference(want.figures()));

    /**
     * Any CSV, each row a jsonl object (docs/dataset-format.md, "`csv`: any CSV, its columns' types inferred"). The Rust side
     * reads the CSV; its hand-off is a jsonl dataset under another name (the same record lines, reference and findings), so
     * here csv is jsonl renamed: the same reader, sink and checks, and every format runs it as it runs jsonl (Registry).
     */
    public static final Workload<JsonlRecord, JsonlSink> CSV = JSONL.renamed("csv");

    /** jsonl and the workloads that are jsonl under another name (csv): a format runs all of them, with one codec, or none. */
    public static final List<Workload<JsonlRecord, JsonlSink>> JSONL_NAMES = List.of(JSONL, CSV);

    /** Every workload, in docs/results-schema.md's order, then jsonl and csv. */
    public static final List<Workload<?, ?>> ALL =
            List.of(IEX, USER, SQL, PRIMITIVES, OBJECT, MIXED, STRINGS, LONGS, JSONL, CSV);

    /**
     * The workloads whose records are Java classes, which Mapping.every's codecs map by reflection or generated code: every
     * workload but jsonl and csv (whose codecs use each library's dynamic value model instead).
     */
    public static final List<Workload<?, ?>> RECORD_CLASSES =
            ALL.stream().filter(w -> !JSONL_NAMES.contains(w)).toList();

    /** This workload under another name: the same record class, sink, reader and checks. */
    Workload<R, S> renamed(String name) {
        return new Workload<>(name, type, fields, newSink, feed, checker, readLine, compare);
    }

    public static Workload<?, ?> named(String name) {
        for (Workload<?, ?> w : ALL) {
            if (w.name.equals(name)) {
                return w;
            }
        }
        return null;
    }
}
