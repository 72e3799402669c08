package shootout.jmh;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Version;
import shootout.harness.Environment;
import shootout.registry.Registry;
import shootout.study.figures.Figures;
import shootout.study.figures.UsageError;

/**
 * `shootout-jvm --study ignite-iep75`: runs the IEP-75 study's JMH
 * benchmarks twice, as the study wrote them (variant `study`,
 * StudyAsPublishedBenchmark) and as shootout writes them (variant `shootout`,
 * IgniteStudy on MessagePack and Ignite), and writes the figures as
 * `shootout-study-figures/1` (spec/studies/README.md), with the environment
 * and every departure from the document. JMH's own progress goes to stderr.
 * Exit status: 0 written, 1 error, 2 usage.
 */
public final class StudyFigures {
    private StudyFigures() {}

    public static final String NAME = "ignite-iep75";

    static final String USAGE = String.join(
            "\n",
            "usage: java -jar shootout-jvm.jar --study " + NAME + " --out FILE|- [options]",
            "  runs the IEP-75 study's JMH benchmarks as the study wrote them (variant study) and as shootout writes them",
            "  (variant shootout) and writes shootout-study-figures/1 JSON (spec/studies/README.md); JMH's progress goes to stderr",
            "  --out FILE             the figures; - for standard output",
            "  --forks N              JMH forks per benchmark; 0 runs every benchmark in this JVM (default 1, as the study)",
            "  --warmup-iterations N  warm-up iterations per fork (default 10, as the study)",
            "  --iterations N         measured iterations per fork, at least 1 (default 10, as the study)",
            "  --iteration-ms N       the length of every warm-up and measured iteration, at least 1 (default 1000)",
            "  --quick                a smoke test, not a measurement: --forks 0 --warmup-iterations 1 --iterations 1",
            "                         --iteration-ms 100 (flags after it override)");

    /** How JMH runs every benchmark: the study's counts by default. */
    static final class Settings {
        String out = "";
        int forks = 1, warmupIterations = 10, iterations = 10, iterationMs = 1000;
        boolean quick;

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("mode", "thrpt");
            m.put("threads", 1);
            m.put("forks", forks);
            m.put("warmup_iterations", warmupIterations);
            m.put("iterations", iterations);
            m.put("iteration_ms", iterationMs);
            m.put("quick", quick);
            return m;
        }
    }

    static Settings parse(String[] args) throws UsageError {
        Settings s = new Settings();
        for (int i = 0; i < args.length; i++) {
            String name = args[i], value = null;
            if (!name.startsWith("--")) {
                throw new UsageError("unexpected argument " + name);
            }
            name = name.substring(2);
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (name.equals("help")) {
                throw new UsageError("");
            }
            if (name.equals("quick")) {
                s.quick = true;
                s.forks = 0;
                s.warmupIterations = 1;
                s.iterations = 1;
                s.iterationMs = 100;
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageError("--" + name + " needs a value");
                }
                value = args[++i];
            }
            try {
                switch (name) {
                    case "study" -> {
                        if (!value.equals(NAME)) {
                            throw new UsageError("--study " + value + ": this command measures " + NAME);
                        }
                    }
                    case "out" -> s.out = value;
                    case "forks" -> s.forks = Integer.parseInt(value);
                    case "warmup-iterations" -> s.warmupIterations = Integer.parseInt(value);
                    case "iterations" -> s.iterations = Integer.parseInt(value);
                    case "iteration-ms" -> s.iterationMs = Integer.parseInt(value);
                    default -> throw new UsageError("unknown option --" + name);
                }
            } catch (NumberFormatException e) {
                throw new UsageError("--" + name + " " + value + ": not a whole number");
            }
        }
        if (s.out.isEmpty()) {
            throw new UsageError("--out is required");
        }
        if (s.forks < 0 || s.warmupIterations < 0 || s.iterations < 1 || s.iterationMs < 1) {
            throw new UsageError(
                    "--forks and --warmup-iterations must not be negative, --iterations and --iteration-ms at least 1");
        }
        return s;
    }

    /** The whole command; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Settings s;
        try {
            s = parse(args);
        } catch (UsageError e) {
            return e.refuse(USAGE, err);
        }
        try {
            Figures.write(figures(s, err), s.out, out, err);
            return 0;
        } catch (Exception e) {
            err.println("shootout-jvm: " + e);
            return 1;
        }
    }

    /** A row of the study's JMH table and the benchmark behind each cell (null: none). */
    record Row(String label, String msgpack, String ignite) {}

    /** The study's benchmarks under its own names (its writePojoMsgPack2 is the POJO without names). */
    static final List<Row> STUDY_ROWS = List.of(
            new Row("writePrimitives", "writePrimitivesMsgPackRaw", "writePrimitivesIgnite"),
            new Row("readPrimitives", "readPrimitivesMsgPack", "readPrimitivesIgnite"),
            new Row("writePojo (fields with names)", "writePojoMsgPack", "writePojoIgnite"),
            new Row("writePojo (fields without names)", "writePojoMsgPack2", null),
            new Row("readPojo", "readPojoMsgPack", "readPojoIgnite"),
            new Row("writeSqlQuery", "writeSqlQueryMsgPack", "writeSqlQueryIgnite"));

    /** IgniteStudy's benchmarks, a cell being benchmark/format. */
    static final List<Row> SHOOTOUT_ROWS = List.of(
            new Row("writePrimitives", "writePrimitives/msgpack", "writePrimitives/ignite"),
            new Row("readPrimitives", "readPrimitives/msgpack", "readPrimitives/ignite"),
            new Row("writePojo (fields with names)", "writePojo/msgpack", "writePojo/ignite"),
            new Row(
                    "writePojo (fields without names)",
                    "writePojoWithoutNames/msgpack",
                    "writePojoWithoutNames/ignite"),
            new Row("readPojo", "readPojo/msgpack", "readPojo/ignite"),
            new Row("writeSqlQuery", "writeSqlQuery/msgpack", "writeSqlQuery/ignite"));

    static Map<String, Object> figures(Settings s, PrintStream log) throws Exception {
        Instant started = Instant.now();
        StudyAsPublished asPublished = new StudyAsPublished();
        Study.Sizes msgpack = Study.sizes(new Study.Msgpack()), ignite = Study.sizes(new Study.IgniteBinary());
        int[] nameless = Study.namelessPojoSizes();

        Map<String, Object> study = Figures.variant(
                "study",
                "as the study did",
                jmhTable(STUDY_ROWS, measure(StudyAsPublishedBenchmark.class, s, log)),
                sqlSize(asPublished.writeSqlQueryMsgPack().length, asPublished.writeSqlQueryIgnite().length),
                sizes(
                        new int[] {asPublished.msgpackPrimitives.length, asPublished.ignitePrimitives.length},
                        new int[] {asPublished.msgpackPojo.length, asPublished.ignitePojo.length},
                        new int[] {asPublished.writePojoMsgPack2().length}));
        Map<String, Object> shootout = Figures.variant(
                "shootout",
                "shootout's practice: msgpack-core by hand, Ignite with compact footers, a 10-field POJO, writes into a reused buffer",
                jmhTable(SHOOTOUT_ROWS, measure(IgniteStudy.class, s, log, "msgpack", "ignite")),
                sqlSize(msgpack.sqlRequest(), ignite.sqlRequest()),
                sizes(
                        new int[] {msgpack.primitives(), ignite.primitives()},
                        new int[] {msgpack.pojo(), ignite.pojo()},
                        nameless));

        Map<String, Object> env = Environment.read(started);
        Map<String, Object> libraries = new LinkedHashMap<>();
        for (String lib : List.of(
                "org.apache.ignite:ignite-core",
                "org.msgpack:msgpack-core",
                "org.msgpack:jackson-dataformat-msgpack",
                "com.fasterxml.jackson.core:jackson-databind")) {
            libraries.put(lib, Registry.version(lib));
        }
        libraries.put("org.openjdk.jmh:jmh-core", Version.getPlainVersion());
        env.put("libraries", libraries);
        env.put("jmh", s.toJson());

        Map<String, Object> r = new LinkedHashMap<>();
        r.put("schema", Figures.SCHEMA);
        r.put("study", NAME);
        r.put("language", "java");
        r.put("environment", env);
        r.put("variants", List.of(study, shootout));
        r.put("facts", Map.of());
        r.put("departures", departures(s, env, libraries, asPublished));
        return r;
    }

    /** Runs one benchmark class's benchmarks (for the given formats, when it has that parameter): each result by its cell's name. */
    static Map<String, RunResult> measure(Class<?> benchmarks, Settings s, PrintStream log, String... formats)
            throws Exception {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include("^" + Pattern.quote(benchmarks.getName() + "."))
                .mode(Mode.Throughput)
                .timeUnit(TimeUnit.SECONDS)
                .threads(1)
                .forks(s.forks)
                .warmupIterations(s.warmupIterations)
                .warmupTime(TimeValue.milliseconds(s.iterationMs))
                .measurementIterations(s.iterations)
                .measurementTime(TimeValue.milliseconds(s.iterationMs))
                .shouldFailOnError(true);
        if (formats.length > 0) {
            o = o.param("format", formats);
        }
        Map<String, RunResult> cells = new HashMap<>();
        for (RunResult r :
                new Runner(o.build(), OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL)).run()) {
            String method =
                    r.getParams().getBenchmark().substring(benchmarks.getName().length() + 1);
            String format = r.getParams().getParam("format");
            cells.put(format == null ? method : method + "/" + format, r);
        }
        return cells;
    }

    static Map<String, Object> jmhTable(List<Row> rows, Map<String, RunResult> cells) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Row row : rows) {
            Map<String, Object> values = new LinkedHashMap<>();
            putScore(values, "msgpack_ops_s", cells, row.msgpack());
            putScore(values, "ignite_ops_s", cells, row.ignite());
            out.add(Figures.row(row.label(), values));
        }
        return Figures.table("jmh", out);
    }

    /** The cell's ops/s under key, and JMH's 99.9 % confidence half-width under key_error when it has one. */
    static void putScore(Map<String, Object> values, String key, Map<String, RunResult> cells, String cell) {
        if (cell == null) {
            return;
        }
        RunResult r = cells.get(cell);
        if (r == null) {
            throw new IllegalStateException("JMH gave no result for " + cell);
        }
        values.put(key, r.getPrimaryResult().getScore());
        double error = r.getPrimaryResult().getScoreError();
        if (Double.isFinite(error)) {
            values.put(key + "_error", error);
        }
    }

    static Map<String, Object> sqlSize(int msgpack, int ignite) {
        return Figures.table(
                "sql-size",
                List.of(
                        Figures.row("MessagePack", Map.of("bytes", msgpack)),
                        Figures.row("Ignite binary", Map.of("bytes", ignite))));
    }

    /** The other operations' encoded sizes, a table of ours alone: what the throughputs were measured on. */
    static Map<String, Object> sizes(int[] primitives, int[] withNames, int[] withoutNames) {
        return Figures.table(
                "sizes",
                List.of(
                        sizeRow("primitives", primitives),
                        sizeRow("POJO with field names", withNames),
                        sizeRow("POJO without field names", withoutNames)));
    }

    static Map<String, Object> sizeRow(String label, int[] msgpackAndIgnite) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("msgpack_bytes", msgpackAndIgnite[0]);
        if (msgpackAndIgnite.length > 1) {
            values.put("ignite_bytes", msgpackAndIgnite[1]);
        }
        return Figures.row(label, values);
    }

    /** Every difference from the document, one sentence each: the run's own first, then each step the document leaves open and the choice made. */
    static List<String> departures(
            Settings s, Map<String, Object> env, Map<String, Object> libraries, StudyAsPublished p) throws Exception {
        List<String> d = new ArrayList<>();
        d.add("JDK: the study ran OpenJDK 1.8.0_292; this run " + env.get("toolchain")
                + " (ignite-core 2.18.0 on JDK 17 needs --add-opens, which every fork is given).");
        d.add("Machine: the study's was an i7-9700K under Ubuntu 20.04; this one is " + env.get("cpu") + ", "
                + env.get("cores") + " cores, " + env.get("os")
                + (env.get("hypervisor") != null ? ", a virtual machine" : "") + ".");
        List<String> versions = new ArrayList<>();
        libraries.forEach((lib, version) -> versions.add(lib.substring(lib.indexOf(':') + 1) + " " + version));
        d.add("Libraries: the document names no versions (its Ignite was a 2.x of 2021); this run uses "
                + String.join(", ", versions) + ".");
        d.add(
                "JMH: the study ran 1 fork, 1 thread, 10 warm-up and 10 measured iterations (Ignite's JmhIdeBenchmarkRunner) of JMH's default "
                        + "length, with -Xms4g -Xmx4g; this run "
                        + (s.forks == 0
                                ? "no fork (every benchmark in this JVM)"
                                : s.forks + " fork(s) with -Xms1g -Xmx1g")
                        + ", 1 thread, " + s.warmupIterations + " warm-up and " + s.iterations
                        + " measured iteration(s) of " + s.iterationMs + " ms.");
        if (s.quick) {
            d.add(
                    "--quick: one short iteration per benchmark in this JVM, a smoke test whose figures are not measurements.");
        }
        d.add(
                "The document links its benchmark code without giving it: each step it leaves open follows Apache Ignite's "
                        + "JmhBinaryMarshallerMsgPackBenchmark (modules/benchmarks), whose header lists the document's figures, as the "
                        + "sentences below say.");
        d.add(
                "The POJO is that benchmark's IntPojo, one int field val (42) behind a getter and a setter, a new one per write, plus the "
                        + "no-argument constructor Jackson needs to read it back.");
        d.add("writePrimitives and readPrimitives write and read the int 42 then the string \"Hello world\" ("
                + p.msgpackPrimitives.length
                + " bytes in MessagePack, " + p.ignitePrimitives.length
                + " in Ignite); readPrimitives returns them as a small record "
                + "where the study returned Ignite's IgniteBiTuple.");
        d.add(
                "MessagePack's loose values (writePrimitives, writeSqlQuery) go through a new msgpack-core packer per write over one "
                        + "reused 128-byte array (the study's PooledMessageBufferOutput), the bytes then copied out (the document's "
                        + "writePrimitives figure is the study's \"with true array copy\" one).");
        d.add(
                "Ignite's loose values go through a writer on the thread's pooled buffer, one per write, whose array() copies the bytes "
                        + "out, and are read by a new reader per call (the study's new BinaryWriterExImpl(ctx) and BinaryReaderExImpl, here "
                        + "BinaryUtils.writer and BinaryUtils.reader, as ignite-core 2.18 hides those constructors).");
        d.add(
                "writePojo with field names is Jackson's ObjectWriter.writeValueAsBytes over jackson-dataformat-msgpack's "
                        + "MessagePackFactory (128-byte buffers); without names (the study's writePojoMsgPack2) is the same with Jackson's "
                        + "JsonArrayFormat, the POJO as an array of its values; Ignite's is BinaryMarshaller.marshal with full footers "
                        + "(BinaryConfiguration.setCompactFooter(false)), " + p.ignitePojo.length + " bytes.");
        d.add(
                "readPrimitives and readPojo decode bytes written once at set-up by the write operations (the study decoded the same "
                        + "bytes as literals): MessagePack's POJO through ObjectMapper.readValue, Ignite's through BinaryMarshaller.unmarshal "
                        + "after one marshal registered the type's metadata, as the study's set-up did.");
        d.add(
                "writeSqlQuery is in no version of that benchmark we could read: MessagePack's is the document's packer code "
                        + "(packString, packArrayHeader(2), packInt(2005), packInt(2)) on the pooled packer, Ignite's writeString and "
                        + "writeObjectArray of the two Integers on the pooled writer, which give the document's sizes.");
        d.add(
                "Ignite's set-up: the study built its BinaryContext on a benchmark kernal context; here it is the thin client's node-less "
                        + "one (IgniteUtils.binaryContext over an in-memory MarshallerContext), with the study's full footers. Unmarshalling "
                        + "a POJO asks that MarshallerContext for the type's class on every read (BinaryContext.descriptorForTypeId); a node's "
                        + "context and the thin client's look it up in Ignite's class cache (IgniteUtils.forName), and so does ours, where a "
                        + "Class.forName per read would time the class loader in readPojoIgnite.");
        d.add(
                "The *_error values are JMH's 99.9 % confidence half-widths, the study's Error column, absent where one measured "
                        + "iteration gives none.");
        d.add(
                "Variant shootout is the project's practice, not the study's: msgpack-core by hand for every operation (the POJO with "
                        + "names as a map, without as its fields in order), Ignite with compact footers (the raw writer for loose values, the "
                        + "SQL request and the nameless POJO), five primitives (int, long, double, boolean, string) and the object workload's "
                        + "10-field SmallObject, every write into a reused buffer with no copy out; its rows measure other work than the study's.");
        return d;
    }
}
