package shootout.formats.model;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A record class's fields as a list of typed slots, in declaration order, for
 * the codecs that drive a schemaless library's own writer and reader value by
 * value (msgpack-core's packer, Ignite's raw writer, BSON, UBJSON,
 * FlexBuffers): one walker per format instead of one hand-written
 * encoder per workload. Fields are read and set through java.lang.reflect.
 * A sealed interface is a union and an enum a choice of names, as Rust's
 * serde has them, for the walkers that write serde's shape (BSON, UBJSON,
 * FlexBuffers).
 */
public final class ClassModel {
    /** What a slot holds: a primitive, a nullable boxed cell, an array, an array of nested records, a union or an enum. */
    public enum Kind {
        LONG(long.class),
        INT(int.class),
        DOUBLE(double.class),
        FLOAT(float.class),
        BOOL(boolean.class),
        STRING(String.class),
        BOXED_LONG(Long.class),
        BOXED_INT(Integer.class),
        BOXED_DOUBLE(Double.class),
        BOXED_FLOAT(Float.class),
        INTS(int[].class),
        LONGS(long[].class),
        DOUBLES(double[].class),
        BOOLS(boolean[].class),
        STRINGS(String[].class),
        // The kinds not named by a single field type:
        /** An array of any record class. */
        RECORDS(null),
        /**
         * A sealed interface: one of its permitted record classes, which serde
         * writes as an externally tagged enum (a one-entry map from the
         * variant's name, its class's simple name, to its fields).
         */
        UNION(null),
        /** An enum: one of its constants, which serde writes as its name (a unit variant). */
        ENUM(null);

        /** The field type that makes a slot this kind. */
        private final Class<?> fieldType;

        Kind(Class<?> fieldType) {
            this.fieldType = fieldType;
        }
    }

    private static final Map<Class<?>, Kind> KIND_OF_FIELD_TYPE = Arrays.stream(Kind.values())
            .filter(k -> k.fieldType != null)
            .collect(Collectors.toUnmodifiableMap(k -> k.fieldType, k -> k));

    public static final class Slot {
        public final String name;
        public final Kind kind;
        public final Field field;
        /** The nested record's model, for RECORDS. */
        public final ClassModel element;
        /** The variants' models, for UNION. */
        private final ClassModel[] variants;
        /** The constants, for ENUM. */
        private final Enum<?>[] constants;
        /** Whether the slot may hold null: a text, or a boxed cell that may be absent. */
        private final boolean nullable;

        Slot(Field field, Kind kind, ClassModel element) {
            this.name = field.getName();
            this.kind = kind;
            this.field = field;
            this.element = element;
            Class<?> t = field.getType();
            this.variants = kind == Kind.UNION
                    ? Arrays.stream(t.getPermittedSubclasses())
                            .map(ClassModel::of)
                            .toArray(ClassModel[]::new)
                    : null;
            this.constants = kind == Kind.ENUM ? (Enum<?>[]) t.getEnumConstants() : null;
            this.nullable = switch (kind) {
                case STRING, BOXED_LONG, BOXED_INT, BOXED_DOUBLE, BOXED_FLOAT -> true;
                default -> false;
            };
        }

        /** The model of the variant a UNION slot's value is. */
        public ClassModel variantOf(Object value) {
            for (ClassModel v : variants) {
                if (v.type == value.getClass()) {
                    return v;
                }
            }
            throw new IllegalArgumentException(name + ": " + value.getClass() + " is no variant of " + field.getType());
        }

        /** The model of the variant the bytes of format name; a name that is none is the bytes' error. */
        public ClassModel variantNamed(String variant, String format) throws IOException {
            for (ClassModel v : variants) {
                if (v.name.equals(variant)) {
                    return v;
                }
            }
            throw new IOException(format + ": " + name + " has no variant " + variant);
        }

        /** The error of a UNION slot whose map in the bytes of format holds what it found (none, several) where serde has one variant. */
        public IOException notOneVariant(String format, String found) {
            return new IOException(format + ": " + name + " holds " + found + ", not one variant");
        }

        /** The constant of an ENUM slot the bytes of format name; a name that is none is the bytes' error. */
        public Enum<?> constantNamed(String constant, String format) throws IOException {
            for (Enum<?> c : constants) {
                if (c.name().equals(constant)) {
                    return c;
                }
            }
            throw new IOException(format + ": " + name + " has no value " + constant);
        }

        /** Sets the slot of o to null, as the bytes of format say; a slot that cannot be null makes that the bytes' error. */
        public void setNull(Object o, String format) throws IOException, IllegalAccessException {
            if (!nullable) {
                throw new IOException(format + ": no value for " + name);
            }
            field.set(o, null);
        }
    }

    public final Class<?> type;
    /** The class's name as serde names a struct or enum variant: its simple name. */
    public final String name;

    public final Slot[] slots;
    private final Constructor<?> ctor;

    private static final Map<Class<?>, ClassModel> MODELS = new ConcurrentHashMap<>();

    public static ClassModel of(Class<?> type) {
        ClassModel m = MODELS.get(type);
        if (m == null) {
            m = new ClassModel(type);
            MODELS.put(type, m);
        }
        return m;
    }

    private ClassModel(Class<?> type) {
        this.type = type;
        this.name = type.getSimpleName();
        List<Slot> out = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Class<?> t = f.getType();
            Kind k = KIND_OF_FIELD_TYPE.get(t);
            ClassModel element = null;
            if (k == null) {
                if (t.isEnum()) {
                    k = Kind.ENUM;
                } else if (t.isInterface() && t.isSealed()) {
                    k = Kind.UNION;
                } else if (t.isArray() && !t.getComponentType().isPrimitive()) {
                    k = Kind.RECORDS;
                    element = of(t.getComponentType());
                } else {
                    throw new IllegalArgumentException(type + "." + f.getName() + ": no slot kind for " + t);
                }
            }
            out.add(new Slot(f, k, element));
        }
        slots = out.toArray(new Slot[0]);
        try {
            ctor = type.getDeclaredConstructor();
            ctor.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type + " has no no-argument constructor", e);
        }
    }

    public Object newInstance() {
        try {
            return ctor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An array of n nested records, for a RECORDS slot's element model. */
    public Object[] newArray(int n) {
        return (Object[]) java.lang.reflect.Array.newInstance(type, n);
    }

    /** The slot index of a field name, or -1 (map-shaped formats read fields by name). */
    public int index(String name) {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i].name.equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** A length read from the bytes, checked against what is left before it sizes an allocation. */
    public static int checkLength(long n, long left) throws IOException {
        if (n < 0 || n > left) {
            throw new IOException("a length of " + n + " with " + left + " bytes left");
        }
        return (int) n;
    }
}
