package shootout.study.logs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import shootout.study.figures.Figures;

/**
 * The logs-and-queues study (004_…txt, spec/studies/scala-logs.json): three
 * generated CSV files of 100,000 records (mixed, strings, longs), each read
 * and written record by record into one file per format, each file read
 * back; whole-file write and read times and the files' sizes.
 *
 * <p>Where the document is silent, its published code decides
 * (github.com/nryanov/SerializationBenchmark, 2019): which fields are absent,
 * the record framing, and how the JSON and Thrift files were written. Two of
 * those were slips that shaped the study's sizes: the variant "study" keeps
 * them, as the published figures came from them, and "corrected" writes those
 * two formats as intended, so the size ranking can be read both ways.
 */
public final class ScalaLogs {
    private ScalaLogs() {}

    public static final String NAME = "scala-logs";
    public static final int RECORDS = 100_000;
    /** The study's `flushInterval`: every writer flushed after each 5,000 records. */
    static final int FLUSH_INTERVAL = 5_000;

    /** The study's sizes are `ls -h`'s, in MiB (2^20 bytes); so are ours. */
    private static final double MIB = 1 << 20;
    /** Any seeds: fixed, so that every run generates the same files. */
    private static final long NUMBERS_SEED = 4, UUIDS_SEED = 1012;

    /** How long to measure: records per set, untimed warm-up passes, timed passes; dir keeps the files (null: a temporary one). */
    public record Settings(int records, int warmups, int runs, Path dir) {}

    /** The formats in the document's order, written as the study's code wrote them. */
    static List<Format> asStudyWrote() {
        return List.of(
                new JavaSerialization(),
                Json.asStudyWrote(),
                new Avro(),
                new Protobuf(),
                Thrift.asStudyWrote(false),
                Thrift.asStudyWrote(true),
                new MessagePack());
    }

    /** The two formats the study's code wrote otherwise than intended, written as intended. */
    static List<Format> corrected() {
        return List.of(Json.lines(), Thrift.exact(false), Thrift.exact(true));
    }

    /** The formats of the study's "Analyse de format", in its order. */
    static List<Format.FieldBytes> fieldBytesFormats() {
        return List.of(
                new Avro(),
                new MessagePack(),
                new Protobuf(),
                Thrift.exact(true),
                Thrift.exact(false),
                new JavaSerialization());
    }

    /** The last record a timed read produced, so that the JIT cannot drop the reading (the study's `@volatile var data`). */
    @SuppressWarnings("unused")
    private static volatile Data lastRead;

    public static Figures.Measurement measure(Settings s, PrintStream progress) throws IOException {
        Path dir =
                s.dir() != null ? Files.createDirectories(s.dir()) : Files.createTempDirectory("shootout-scala-logs-");
        try {
            return measure(s, dir, progress);
        } finally {
            if (s.dir() == null) {
                deleteTree(dir);
            }
        }
    }

    private static Figures.Measurement measure(Settings s, Path dir, PrintStream progress) throws IOException {
        Map<DataSet, Path> csv = new EnumMap<>(DataSet.class);
        Map<DataSet, Long> csvBytes = new EnumMap<>(DataSet.class);
        // One generator across the three sets, as the study's shared scala.util.Random.
        Random numbers = new Random(NUMBERS_SEED), uuids = new Random(UUIDS_SEED);
        for (DataSet set : DataSet.values()) {
            Path file = dir.resolve(set.label + ".csv");
            csv.put(set, file);
            csvBytes.put(set, Csv.write(file, set, s.records(), numbers, uuids));
            progress.printf(
                    Locale.ROOT,
                    "scala-logs: %s.csv, %d records: %.1f MiB%n",
                    set.label,
                    s.records(),
                    csvBytes.get(set) / MIB);
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        for (DataSet set : DataSet.values()) {
            double ms = mean(passesMs(s, () -> readCsv(set, csv.get(set))));
            facts.put("csv_read_ms_" + set.label, ms);
            progress.printf(Locale.ROOT, "scala-logs: reading %s.csv alone: %.0f ms%n", set.label, ms);
        }

        List<Map<String, Object>> fileSize = new ArrayList<>(), writeMs = new ArrayList<>(), readMs = new ArrayList<>();
        Map<DataSet, Double> avroMib = new EnumMap<>(DataSet.class), msgpackMib = new EnumMap<>(DataSet.class);
        Map<DataSet, Long> msgpackPrefixBytes = new EnumMap<>(DataSet.class);
        for (Format format : asStudyWrote()) {
            Map<String, Object> size = new LinkedHashMap<>(),
                    write = new LinkedHashMap<>(),
                    read = new LinkedHashMap<>();
            Map<String, List<Double>> writeRuns = new LinkedHashMap<>(), readRuns = new LinkedHashMap<>();
            for (DataSet set : DataSet.values()) {
                Path file = dir.resolve(set.label + "." + format.slug());
                writeRuns.put(set.label, passesMs(s, () -> write(format, set, csv.get(set), file)));
                validate(format, set, csv.get(set), file);
                readRuns.put(set.label, passesMs(s, () -> read(format, set, file, s.records())));
                write.put(set.label, mean(writeRuns.get(set.label)));
                read.put(set.label, mean(readRuns.get(set.label)));
                if (format instanceof MessagePack) {
                    msgpackPrefixBytes.put(set, MessagePack.lengthPrefixBytes(file));
                }
                double mib = sizeMib(s, file);
                size.put(set.label + "_mib", mib);
                if (format instanceof MessagePack) {
                    msgpackMib.put(set, mib);
                } else if (format instanceof Avro) {
                    avroMib.put(set, mib);
                }
                progress.printf(
                        Locale.ROOT,
                        "scala-logs: %-18s %-7s %8.1f MiB  write %7.0f ms  read %7.0f ms%n",
                        format.label(),
                        set.label,
                        mib,
                        write.get(set.label),
                        read.get(set.label));
            }
            fileSize.add(Figures.row(format.label(), size));
            writeMs.add(Figures.row(format.label(), write, writeRuns));
            readMs.add(Figures.row(format.label(), read, readRuns));
        }
        for (DataSet set : DataSet.values()) {
            facts.put("msgpack_length_prefix_bytes_" + set.label, msgpackPrefixBytes.get(set));
        }

        List<Map<String, Object>> correctedSize = new ArrayList<>(fileSize);
        for (Format format : corrected()) {
            Map<String, Object> size = new LinkedHashMap<>();
            for (DataSet set : DataSet.values()) {
                Path file = dir.resolve(set.label + "." + format.slug());
                write(format, set, csv.get(set), file);
                validate(format, set, csv.get(set), file);
                size.put(set.label + "_mib", sizeMib(s, file));
                progress.printf(
                        Locale.ROOT,
                        "scala-logs: corrected %-18s %-7s %8.1f MiB%n",
                        format.label(),
                        set.label,
                        size.get(set.label + "_mib"));
            }
            correctedSize.replaceAll(
                    row -> row.get("label").equals(format.label()) ? Figures.row(format.label(), size) : row);
        }

        List<Map<String, Object>> csvSize = new ArrayList<>();
        for (DataSet set : DataSet.values()) {
            csvSize.add(Figures.row(set.label, Map.of("mib", csvBytes.get(set) / MIB)));
        }
        String uuid = DataSet.uuid(new Random(UUIDS_SEED));
        List<Map<String, Object>> fieldBytes = new ArrayList<>();
        for (Format.FieldBytes format : fieldBytesFormats()) {
            fieldBytes.add(Figures.row(format.label(), Map.of("bytes", format.uuidFieldBytes(uuid))));
        }

        List<Map<String, Object>> variants = List.of(
                Figures.variant(
                        "study",
                        "as the study's code wrote the files (JSON as base64 strings, Thrift records with their buffers' spare bytes)",
                        Figures.table("csv-size", csvSize),
                        Figures.table("uuid-field-bytes", fieldBytes),
                        Figures.table("file-size", fileSize),
                        Figures.table("write-ms", writeMs),
                        Figures.table("read-ms", readMs)),
                Figures.variant(
                        "corrected",
                        "the study's method with its two writing slips corrected: JSON as one object per line, Thrift records at their length "
                                + "(the other formats' files are the study variant's)",
                        Figures.table("file-size", correctedSize)));
        return new Figures.Measurement(
                variants, facts, departures(s, csvBytes, avroMib, msgpackMib, msgpackPrefixBytes));
    }

    private static List<String> departures(
            Settings s,
            Map<DataSet, Long> csvBytes,
            Map<DataSet, Double> avroMib,
            Map<DataSet, Double> msgpackMib,
            Map<DataSet, Long> msgpackPrefixBytes) {
        List<String> d = new ArrayList<>();
        d.add(
                "Scala 2.12 with avro4s, ScalaPB, Scrooge, json4s and kantan.csv became Java 17 with their JVM libraries: Avro generic records, "
                        + "protobuf-java's CodedOutputStream and libthrift's TProtocol written by hand to the bytes the generated code writes, Jackson "
                        + "for JSON, msgpack-core as the study used it, and a CSV reader of ours (versions under environment.libraries); the records are "
                        + "the study's case classes field for field, reached by position through reflection.");
        d.add(
                "The document does not say how often a field is absent; the study's published code (github.com/nryanov/SerializationBenchmark, "
                        + "DataOps.scala, 2019) does, and is followed: a field is present when its random draw is odd (half the records), except "
                        + "mixed f1, f2, f6, f11 and f12 and every field of the strings set, always present; mixed f16 holds a Short.");
        d.add(String.format(
                Locale.ROOT,
                "Sizes are in MiB (2^20 bytes), as the study's: its \"28 Mo\" are what `ls -h` shows (its README lists \"28M mixedDataInput.csv\"); "
                        + "our CSV files are %.1f / %.1f / %.1f MiB against its 28 / 71 / 20.",
                csvBytes.get(DataSet.MIXED) / MIB,
                csvBytes.get(DataSet.STRINGS) / MIB,
                csvBytes.get(DataSet.LONGS) / MIB));
        long strings = msgpackPrefixBytes.get(DataSet.STRINGS);
        double withFour = msgpackMib.get(DataSet.STRINGS) + (4.0 * s.records() - strings) / MIB;
        double withNone = msgpackMib.get(DataSet.STRINGS) - strings / MIB;
        d.add(String.format(
                Locale.ROOT,
                "MessagePack's record lengths: the study's code writes each with packInt, 1 to 3 bytes (%.2f a record in the strings set), "
                        + "and so do we; its document counts \"4 octets supplémentaires\" a record. Those bytes decide Avro's margin over "
                        + "MessagePack on the strings set (%.2f against %.2f MiB): with the document's 4 bytes MessagePack's file would be %.2f MiB, "
                        + "with none %.2f MiB.",
                (double) strings / s.records(),
                avroMib.get(DataSet.STRINGS),
                msgpackMib.get(DataSet.STRINGS),
                withFour,
                withNone));
        d.add(
                "UUIDs come from a seeded java.util.Random (version-4 bits set as UUID.randomUUID() sets them) instead of SecureRandom, and numbers "
                        + "from a seeded java.util.Random as scala.util.Random's, so every run writes the same files.");
        d.add(
                "The study's JSON (its code, not its document): each record's JSON text was written as a JSON string and then, as a byte array, "
                        + "base64-encoded by Jackson into a pretty-printed array; the study variant does the same, the corrected one writes JSON Lines.");
        d.add(
                "The study's Thrift (its code, not its document): each record was written with the length and bytes of its TMemoryBuffer's "
                        + "whole backing array (capacity 64, doubled as needed), zeros after the record's end included; the study variant does the "
                        + "same, the corrected one writes the record's own bytes. This padding, not Thrift's field headers, is why the study found "
                        + "Thrift binary's files the largest.");
        d.add(
                "MessagePack and Protobuf records hold no absent field, as in the study's code: an absent field is written as its type's "
                        + "default (\"\", 0) and reads back as it; every record read back is checked against the CSV's, outside the timed passes.");
        d.add(
                "A write is timed from reading the CSV to the closed output file, as the study timed it (facts csv_read_ms_* give the CSV "
                        + "reading alone); a read, from opening the file to its last record.");
        d.add(String.format(
                Locale.ROOT,
                "Statistic: the mean of the timed passes (%d, after %d untimed), in one JVM, GC pauses included, each pass's time kept so that "
                        + "a comparison is decided by the 95 %% Student-t interval of its passes; the study: ScalaMeter in one JVM (LocalTime), "
                        + "3 warm-ups and 15 runs, their average, with its IgnoringGC measurer.",
                s.runs(),
                s.warmups()));
        d.add(
                "Only the uncompressed files are measured; the study also measured gzip, snappy, lz4 (and Avro's deflate, bzip2, xz) streams.");
        if (s.records() != RECORDS) {
            d.add(String.format(
                    Locale.ROOT,
                    "%d records per set, not the study's %d: sizes and times scale with it.",
                    s.records(),
                    RECORDS));
        }
        d.add(
                "The machine: see environment; the study ran on an Intel Core i5-5350U (2 cores, 1.8 GHz), Java 1.8.0_144.");
        return d;
    }

    private interface Pass {
        void run() throws IOException;
    }

    /** Each timed pass's time, in milliseconds, after the warm-up passes. */
    private static List<Double> passesMs(Settings s, Pass pass) throws IOException {
        for (int i = 0; i < s.warmups(); i++) {
            pass.run();
        }
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < s.runs(); i++) {
            long start = System.nanoTime();
            pass.run();
            ms.add((System.nanoTime() - start) / 1e6);
        }
        return ms;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** A written file's size in MiB; the file goes unless --dir asked to keep the files (a set's files would take 0.3 to 0.7 GB). */
    private static double sizeMib(Settings s, Path file) throws IOException {
        double mib = Files.size(file) / MIB;
        if (s.dir() == null) {
            Files.delete(file);
        }
        return mib;
    }

    /** The CSV part of every write, alone. */
    private static void readCsv(DataSet set, Path csv) throws IOException {
        try (Csv.Reader in = new Csv.Reader(csv, set)) {
            for (Data d; (d = in.next()) != null; ) {
                lastRead = d;
            }
        }
    }

    /** The CSV records into one file of the format. */
    static void write(Format format, DataSet set, Path csv, Path file) throws IOException {
        try (Csv.Reader in = new Csv.Reader(csv, set);
                OutputStream out = Files.newOutputStream(file);
                Format.RecordWriter writer = format.writer(out, set)) {
            int n = 0;
            for (Data d; (d = in.next()) != null; ) {
                writer.write(d);
                if (++n % FLUSH_INTERVAL == 0) {
                    writer.flush();
                }
            }
        }
    }

    /** Reads the file to its end; it must hold the records written. */
    private static void read(Format format, DataSet set, Path file, int records) throws IOException {
        int n = 0;
        try (InputStream in = Files.newInputStream(file);
                Format.RecordReader reader = format.reader(in, set)) {
            for (Data d; (d = reader.next()) != null; n++) {
                lastRead = d;
            }
        }
        if (n != records) {
            throw new IOException(
                    format.label() + ", " + set.label + ": " + n + " records read back, " + records + " written");
        }
    }

    /** Every record of the file, read back, against the CSV's: equal, or (when the format keeps no absence) with defaults for absent fields. */
    static void validate(Format format, DataSet set, Path csv, Path file) throws IOException {
        try (Csv.Reader expected = new Csv.Reader(csv, set);
                InputStream in = Files.newInputStream(file);
                Format.RecordReader reader = format.reader(in, set)) {
            long n = 0;
            for (Data want; (want = expected.next()) != null; ) {
                n++;
                Data got = reader.next();
                if (got == null) {
                    throw new IOException(
                            format.label() + ", " + set.label + ": the file ends after " + (n - 1) + " records");
                }
                for (int i = 0; i < DataSet.FIELDS; i++) {
                    Object w = set.get(want, i);
                    if (w == null && !format.keepsAbsence()) {
                        w = set.kinds[i].absent;
                    }
                    if (!Objects.equals(w, set.get(got, i))) {
                        throw new IOException(format.label() + ", " + set.label + ", record " + n + ", f" + (i + 1)
                                + ": wrote " + w + ", read back " + set.get(got, i));
                    }
                }
            }
            if (reader.next() != null) {
                throw new IOException(
                        format.label() + ", " + set.label + ": more records read back than the " + n + " written");
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
