package shootout.study.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The logs-and-queues study's generator and formats; nothing here depends on the machine's speed. */
class ScalaLogsTest {
    @TempDir
    Path dir;

    private static List<Data> generate(DataSet set, int n) {
        Random numbers = new Random(1), uuids = new Random(2);
        List<Data> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(set.generate(numbers, uuids));
        }
        return records;
    }

    @Test
    void everyFieldHoldsItsCaseClassTypeAndStringsAreVersion4Uuids() {
        Map<Kind, Class<?>> types = Map.of(
                Kind.STRING,
                String.class,
                Kind.DOUBLE,
                Double.class,
                Kind.LONG,
                Long.class,
                Kind.INT,
                Integer.class,
                Kind.FLOAT,
                Float.class);
        for (DataSet set : DataSet.values()) {
            for (Data d : generate(set, 500)) {
                for (int i = 0; i < DataSet.FIELDS; i++) {
                    Object v = set.get(d, i);
                    if (v == null) {
                        continue;
                    }
                    assertInstanceOf(types.get(set.kinds[i]), v, set + " f" + (i + 1));
                    if (v instanceof String s) {
                        assertEquals(36, s.length());
                        assertEquals(4, UUID.fromString(s).version());
                    } else if (v instanceof Double x) {
                        assertTrue(x >= 0 && x < 1, "nextDouble: " + x);
                    } else if (v instanceof Float x) {
                        assertTrue(x >= 0 && x < 1, "nextFloat: " + x);
                    }
                }
                if (set == DataSet.MIXED && DataSet.MIXED.get(d, 15) instanceof Integer f16) {
                    assertEquals((short) (int) f16, (int) f16, "mixed f16 holds a Short");
                }
            }
        }
        assertEquals(
                List.of(
                        Kind.STRING,
                        Kind.DOUBLE,
                        Kind.LONG,
                        Kind.INT,
                        Kind.STRING,
                        Kind.DOUBLE,
                        Kind.LONG,
                        Kind.INT,
                        Kind.INT,
                        Kind.LONG,
                        Kind.FLOAT,
                        Kind.DOUBLE,
                        Kind.STRING,
                        Kind.STRING,
                        Kind.LONG,
                        Kind.INT,
                        Kind.INT,
                        Kind.STRING,
                        Kind.STRING,
                        Kind.STRING),
                List.of(DataSet.MIXED.kinds));
    }

    @Test
    void fieldsArePresentAlwaysOrHalfTheTimeAsTheStudysCodeDrewThem() {
        int n = 4000;
        for (DataSet set : DataSet.values()) {
            int[] present = new int[DataSet.FIELDS];
            for (Data d : generate(set, n)) {
                for (int i = 0; i < DataSet.FIELDS; i++) {
                    present[i] += set.get(d, i) == null ? 0 : 1;
                }
            }
            for (int i = 0; i < DataSet.FIELDS; i++) {
                if (set.alwaysPresent(i)) {
                    assertEquals(n, present[i], set + " f" + (i + 1));
                } else {
                    assertEquals(0.5, present[i] / (double) n, 0.03, set + " f" + (i + 1));
                }
            }
        }
        List<Integer> alwaysInMixed = new ArrayList<>();
        for (int i = 0; i < DataSet.FIELDS; i++) {
            if (DataSet.MIXED.alwaysPresent(i)) {
                alwaysInMixed.add(i + 1);
            }
        }
        assertEquals(List.of(1, 2, 6, 11, 12), alwaysInMixed);
    }

    /** 10,000 records stand for the study's 100,000: the files' sizes scale with the count. */
    @Test
    void theCsvFilesComeWithinTenPercentOfTheStudysAndMatchItsMebibytes() throws IOException {
        Map<DataSet, Double> study = Map.of(DataSet.MIXED, 28.0, DataSet.STRINGS, 71.0, DataSet.LONGS, 20.0);
        Random numbers = new Random(4), uuids = new Random(1012);
        for (DataSet set : DataSet.values()) {
            long bytes = 10 * Csv.write(dir.resolve(set.label + ".csv"), set, 10_000, numbers, uuids);
            assertEquals(1, bytes / 1e6 / study.get(set), 0.10, set + " in MB");
            assertEquals(
                    1,
                    bytes / (double) (1 << 20) / study.get(set),
                    0.03,
                    set + " in MiB, the unit of the study's `ls -h`");
        }
    }

    @Test
    void theCsvHasCrlfLinesEmptyCellsForAbsentFieldsAndReadsBackAsGenerated() throws IOException {
        Path csv = dir.resolve("longs.csv");
        Csv.write(csv, DataSet.LONGS, 50, new Random(1), new Random(2));
        String text = Files.readString(csv, StandardCharsets.UTF_8);
        assertEquals(50, text.split("\r\n", -1).length - 1);
        assertTrue(text.contains(",,"), "absent fields are empty cells");
        List<Data> generated = generate(DataSet.LONGS, 50);
        try (Csv.Reader in = new Csv.Reader(csv, DataSet.LONGS)) {
            for (Data want : generated) {
                Data got = in.next();
                for (int i = 0; i < DataSet.FIELDS; i++) {
                    assertEquals(DataSet.LONGS.get(want, i), DataSet.LONGS.get(got, i));
                }
            }
            assertNull(in.next());
        }
    }

    @Test
    void everyFormatReadsBackEveryRecordOfEachSet() throws IOException {
        List<Format> formats = new ArrayList<>(ScalaLogs.asStudyWrote());
        formats.addAll(ScalaLogs.corrected());
        Random numbers = new Random(1), uuids = new Random(2);
        for (DataSet set : DataSet.values()) {
            Path csv = dir.resolve(set.label + ".csv");
            Csv.write(csv, set, 300, numbers, uuids);
            for (Format format : formats) {
                Path file = dir.resolve(set.label + "." + format.slug());
                ScalaLogs.write(format, set, csv, file);
                ScalaLogs.validate(format, set, csv, file);
            }
        }
    }

    @Test
    void validationFailsOnRecordsThatDifferFromTheCsv() throws IOException {
        Path written = dir.resolve("a.csv"), other = dir.resolve("b.csv"), file = dir.resolve("a.protobuf");
        Csv.write(written, DataSet.MIXED, 20, new Random(1), new Random(2));
        Csv.write(other, DataSet.MIXED, 20, new Random(3), new Random(4));
        ScalaLogs.write(new Protobuf(), DataSet.MIXED, written, file);
        IOException e =
                assertThrows(IOException.class, () -> ScalaLogs.validate(new Protobuf(), DataSet.MIXED, other, file));
        assertTrue(e.getMessage().startsWith("Protobuf, mixed, record 1, f1: wrote "), e.getMessage());
    }

    @Test
    void aUuidFieldTakesTheBytesTheStudyCounted() throws IOException {
        Map<String, Integer> bytes = new LinkedHashMap<>();
        for (Format.FieldBytes format : ScalaLogs.fieldBytesFormats()) {
            bytes.put(format.label(), format.uuidFieldBytes(DataSet.uuid(new Random(7))));
        }
        assertEquals(
                Map.of(
                        "Avro",
                        38,
                        "MessagePack",
                        38,
                        "Protobuf",
                        38,
                        "Thrift compact",
                        38,
                        "Thrift binary",
                        43,
                        "Java serialization",
                        45),
                bytes);
    }

    /**
     * A strings record is 861 bytes in Thrift binary (20 fields of a 3-byte
     * header, a 4-byte length and 36 bytes, then STOP) and 761 in compact;
     * the study's code wrote the buffer's 1024.
     */
    @Test
    void theStudysThriftRecordsCarryTheirBuffersSpareBytes() throws IOException {
        Path csv = dir.resolve("strings.csv");
        Csv.write(csv, DataSet.STRINGS, 10, new Random(1), new Random(2));
        Map<Format, Long> perRecord = new LinkedHashMap<>();
        perRecord.put(Thrift.asStudyWrote(false), 4 + 1024L);
        perRecord.put(Thrift.asStudyWrote(true), 4 + 1024L);
        perRecord.put(Thrift.exact(false), 4 + 861L);
        perRecord.put(Thrift.exact(true), 4 + 761L);
        for (Map.Entry<Format, Long> e : perRecord.entrySet()) {
            Path file = dir.resolve(e.getKey().slug());
            ScalaLogs.write(e.getKey(), DataSet.STRINGS, csv, file);
            assertEquals(10 * e.getValue(), Files.size(file), e.getKey().slug());
        }
    }

    @Test
    void absentFieldsReadBackAsDefaultsWhereTheStudysFormatsKeptNoAbsence() throws IOException {
        Path csv = dir.resolve("longs.csv"), file = dir.resolve("longs.msgpack");
        Csv.write(csv, DataSet.LONGS, 5, new Random(1), new Random(2));
        ScalaLogs.write(new MessagePack(), DataSet.LONGS, csv, file);
        try (Csv.Reader written = new Csv.Reader(csv, DataSet.LONGS);
                var in = Files.newInputStream(file);
                Format.RecordReader read = new MessagePack().reader(in, DataSet.LONGS)) {
            Data want = written.next(), got = read.next();
            for (int i = 0; i < DataSet.FIELDS; i++) {
                Object w = DataSet.LONGS.get(want, i);
                assertNotNull(DataSet.LONGS.get(got, i));
                assertEquals(w == null ? 0L : w, DataSet.LONGS.get(got, i));
            }
        }
    }
}
