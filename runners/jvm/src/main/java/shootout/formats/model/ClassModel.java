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
 */
public final class ClassModel {
    /** What a slot holds: a primitive, a nullable boxed cell, an array, or an array of nested records. */
    public enum Kind {
        LONG(long.class), INT(int.class), DOUBLE(double.class), FLOAT(float.class), BOOL(boolean.class), STRING(String.class),
        BOXED_LONG(Long.class), BOXED_INT(Integer.class), BOXED_DOUBLE(Double.class), BOXED_FLOAT(Float.class),
        INTS(int[].class), LONGS(long[].class), DOUBLES(double[].class), BOOLS(boolean[].class), STRINGS(String[].class),
        /** An array of any record class: the one kind not named by a single field type. */
        RECORDS(null);

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
        /** Whether the slot may hold null: a text, or a boxed cell that may be absent. */
        private final boolean nullable;

        Slot(String name, Kind kind, Field field, ClassModel element) {
            this.name = name;
            this.kind = kind;
            this.field = field;
            this.element = element;
            this.nullable = switch (kind) {
                case STRING, BOXED_LONG, BOXED_INT, BOXED_DOUBLE, BOXED_FLOAT -> true;
                default -> false;
            };
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
                if (!t.isArray() || t.getComponentType().isPrimitive()) {
                    throw new IllegalArgumentException(type + "." + f.getName() + ": no slot kind for " + t);
                }
                k = Kind.RECORDS;
                element = of(t.getComponentType());
            }
            out.add(new Slot(f.getName(), k, f, element));
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
