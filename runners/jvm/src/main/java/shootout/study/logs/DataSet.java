package shootout.study.logs;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Random;
import java.util.UUID;

/**
 * The study's three data sets: each record's fields, their types, and how
 * the study's generator drew them. The document says only "Random.next[...]
 * for numbers, UUID.randomUUID() for strings"; how often a field is absent
 * comes from the study's published code (DataOps.scala): a field whose draw
 * is odd is present, so half of them, except mixed f1, f2, f6, f11, f12 and
 * every field of the strings set, always present.
 */
enum DataSet {
    MIXED(
            "mixed",
            Data.MixedData.class,
            Spec.UUID,
            Spec.DOUBLE,
            Spec.ODD_LONG,
            Spec.ODD_INT,
            Spec.ODD_DRAW_UUID,
            Spec.DOUBLE,
            Spec.ODD_LONG,
            Spec.ODD_INT,
            Spec.ODD_INT,
            Spec.ODD_LONG,
            Spec.FLOAT,
            Spec.DOUBLE,
            Spec.ODD_DRAW_UUID,
            Spec.ODD_DRAW_UUID,
            Spec.ODD_LONG,
            Spec.ODD_SHORT,
            Spec.ODD_INT,
            Spec.ODD_DRAW_UUID,
            Spec.ODD_DRAW_UUID,
            Spec.ODD_DRAW_UUID),
    STRINGS("strings", Data.OnlyStrings.class, twenty(Spec.UUID)),
    LONGS("longs", Data.OnlyLongs.class, twenty(Spec.ODD_LONG));

    static final int FIELDS = 20;

    /** The set's name in the figures (rows of csv-size, keys of the timing tables). */
    final String label;
    /** The case class's name, which Avro's schema and Thrift's struct carry. */
    final String recordName;

    final Kind[] kinds;
    private final Spec[] specs;
    private final Class<? extends Data> type;
    /** f1..f20 of the class, by position. */
    private final Field[] slots;

    DataSet(String label, Class<? extends Data> type, Spec... specs) {
        this.label = label;
        this.recordName = type.getSimpleName();
        this.type = type;
        this.specs = specs;
        this.kinds = Arrays.stream(specs).map(Spec::kind).toArray(Kind[]::new);
        this.slots = new Field[FIELDS];
        for (int i = 0; i < FIELDS; i++) {
            try {
                slots[i] = type.getDeclaredField("f" + (i + 1));
            } catch (NoSuchFieldException e) {
                throw new AssertionError(type + " lacks f" + (i + 1), e);
            }
            slots[i].setAccessible(true);
        }
    }

    private static Spec[] twenty(Spec spec) {
        Spec[] all = new Spec[FIELDS];
        Arrays.fill(all, spec);
        return all;
    }

    /** A record with every field absent. */
    Data empty() {
        try {
            Data d = type.getDeclaredConstructor().newInstance();
            for (int i = 0; i < FIELDS; i++) {
                set(d, i, null);
            }
            return d;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A record holding f1 alone, for the bytes one field takes ({@link Format.FieldBytes}). */
    Data onlyFirst(Object value) {
        Data d = empty();
        set(d, 0, value);
        return d;
    }

    /** Field i (0-based) of a record: its value, or null when absent. */
    Object get(Data d, int i) {
        try {
            return ((Option<?>) slots[i].get(d)).value;
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** Sets field i (0-based) to value, null for absent. */
    void set(Data d, int i, Object value) {
        try {
            slots[i].set(d, Option.of(value));
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The next record as the study's generator drew it, field by field in
     * order from one java.util.Random (scala.util.Random wraps one), UUIDs
     * from another (UUID.randomUUID() has its own).
     */
    Data generate(Random numbers, Random uuids) {
        Data d = empty();
        for (int i = 0; i < FIELDS; i++) {
            set(d, i, specs[i].draw.next(numbers, uuids));
        }
        return d;
    }

    /** Whether field i is present in every record (else: half of them). */
    boolean alwaysPresent(int i) {
        return specs[i].alwaysPresent;
    }

    /**
     * A version-4 UUID as UUID.randomUUID() makes one, from a seeded Random
     * instead of SecureRandom so that runs repeat.
     */
    static String uuid(Random r) {
        long msb = r.nextLong(), lsb = r.nextLong();
        msb = (msb & ~0xF000L) | 0x4000L;
        lsb = (lsb & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb).toString();
    }

    private interface Draw {
        Object next(Random numbers, Random uuids);
    }

    /** One field of the study's generator: its type, its draw, and whether it is ever absent. */
    private record Spec(Kind kind, boolean alwaysPresent, Draw draw) {
        static final Spec UUID = new Spec(Kind.STRING, true, (n, u) -> uuid(u));
        static final Spec DOUBLE = new Spec(Kind.DOUBLE, true, (n, u) -> n.nextDouble());
        static final Spec FLOAT = new Spec(Kind.FLOAT, true, (n, u) -> n.nextFloat());
        // `{val r = Random.nextLong(); if (r % 2 == 0) None else Some(r)}` and its Int twin.
        static final Spec ODD_LONG = new Spec(Kind.LONG, false, (n, u) -> {
            long r = n.nextLong();
            return r % 2 == 0 ? null : r;
        });
        static final Spec ODD_INT = new Spec(Kind.INT, false, (n, u) -> {
            int r = n.nextInt();
            return r % 2 == 0 ? null : r;
        });
        // Mixed f16: `Some(r.toShort)` into an Option[Int].
        static final Spec ODD_SHORT = new Spec(Kind.INT, false, (n, u) -> {
            int r = n.nextInt();
            return r % 2 == 0 ? null : (int) (short) r;
        });
        // An Int drawn for its parity, then a UUID.
        static final Spec ODD_DRAW_UUID = new Spec(Kind.STRING, false, (n, u) -> n.nextInt() % 2 == 0 ? null : uuid(u));
    }
}
