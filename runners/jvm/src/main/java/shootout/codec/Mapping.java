package shootout.codec;

import java.util.ArrayList;
import java.util.List;
import shootout.workload.RecordSchemas;
import shootout.workload.Workload;

/**
 * One row of a format's table of workloads: the codec constructor of one
 * workload, typed by its record and sink. A format runs only the workloads
 * its table names; adding a workload to a format is one more row. notes, when
 * not null, are the codec's own in place of the format's (the jsonl codecs,
 * which use another API of the library than its record-class codecs).
 *
 * <p>Most rows make their codec whatever the dataset. A row may instead decide
 * per dataset (perDataset): the schema formats of jsonl and csv build their
 * codec from the schema the dataset's header carries (RecordSchemas), and give
 * the reason they do not run a dataset that has none.
 */
public record Mapping<R, S>(Workload<R, S> workload, PerDataset<R, S> perDataset, String notes) {
    public Mapping(Workload<R, S> workload, Make<R, S> make) {
        this(workload, make, null);
    }

    /** A row whose codec runs every dataset of its workload. */
    public Mapping(Workload<R, S> workload, Make<R, S> make, String notes) {
        this(workload, schemas -> OnDataset.runs(make), notes);
    }

    /** The same row on workload w, a workload of the same records (csv is jsonl under another name): the same codec and notes. */
    public Mapping<R, S> on(Workload<R, S> w) {
        return new Mapping<>(w, perDataset, notes);
    }

    /** How the row's codec is made for one dataset, from the record schemas of its header. */
    @FunctionalInterface
    public interface PerDataset<R, S> {
        OnDataset<R, S> on(RecordSchemas schemas);
    }

    /** A row on one dataset: its codec constructor, or (make null) why it does not run the dataset. */
    public record OnDataset<R, S>(Make<R, S> make, String notRun) {
        public static <R, S> OnDataset<R, S> runs(Make<R, S> make) {
            return new OnDataset<>(make, null);
        }

        public static <R, S> OnDataset<R, S> notRun(String reason) {
            return new OnDataset<>(null, reason);
        }

        public boolean runs() {
            return make != null;
        }
    }

    /** Makes a fresh codec (each measured format and each interop stream gets its own). */
    @FunctionalInterface
    public interface Make<R, S> {
        Codec<R, S> make() throws Exception;
    }

    /** A codec constructor that takes whatever workload it is given: the formats that map any record class by reflection. */
    @FunctionalInterface
    public interface AnyWorkload {
        Codec<?, ?> make(Workload<?, ?> w) throws Exception;
    }

    /** One row for every workload of a record class (Workload.RECORD_CLASSES: all but jsonl and csv), each made by any. */
    public static List<Mapping<?, ?>> every(AnyWorkload any) {
        List<Mapping<?, ?>> rows = new ArrayList<>();
        for (Workload<?, ?> w : Workload.RECORD_CLASSES) {
            rows.add(of(w, any));
        }
        return List.copyOf(rows);
    }

    @SuppressWarnings("unchecked")
    private static <R, S> Mapping<R, S> of(Workload<R, S> w, AnyWorkload any) {
        // any makes its codec from w itself, so the codec's record and sink are w's.
        return new Mapping<>(w, () -> (Codec<R, S>) any.make(w));
    }
}
