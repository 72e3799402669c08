package shootout.study.logs;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;

/**
 * Java serialization as the study used it: one ObjectOutputStream per file,
 * each record written as the object it is, a null after the last so that
 * the reader stops without an EOFException. The stream keeps every object it
 * wrote (or read) for back references, so a whole file's records stay in
 * memory until it closes, as they did in the study.
 */
final class JavaSerialization extends Format implements Format.FieldBytes {
    /** Only the study's records and what they hold are read back. */
    private static final ObjectInputFilter ALLOWED =
            ObjectInputFilter.Config.createFilter(Data.class.getPackageName() + ".*;java.lang.String;java.lang.Number;"
                    + "java.lang.Double;java.lang.Long;java.lang.Integer;java.lang.Float;!*");

    JavaSerialization() {
        super("Java serialization", "java", true);
    }

    @Override
    RecordWriter writer(OutputStream out, DataSet set) throws IOException {
        ObjectOutputStream objects = new ObjectOutputStream(new BufferedOutputStream(out));
        return RecordWriter.of(objects::writeObject, objects, () -> {
            objects.writeObject(null);
            objects.close();
        });
    }

    @Override
    RecordReader reader(InputStream in, DataSet set) throws IOException {
        ObjectInputStream objects = new ObjectInputStream(new BufferedInputStream(in));
        objects.setObjectInputFilter(ALLOWED);
        return RecordReader.of(
                () -> {
                    try {
                        return (Data) objects.readObject();
                    } catch (ClassNotFoundException e) {
                        throw new InvalidClassException(e.getMessage());
                    }
                },
                objects);
    }

    /**
     * A Some(string) in a stream that has described Some's class already: after
     * another Some holding a different string (the same one would be written
     * as a back reference).
     */
    @Override
    public int uuidFieldBytes(String uuid) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream objects = new ObjectOutputStream(bytes)) {
            objects.writeObject(Option.of(new StringBuilder(uuid).reverse().toString()));
            objects.flush();
            int before = bytes.size();
            objects.writeObject(Option.of(uuid));
            objects.flush();
            return bytes.size() - before;
        }
    }
}
