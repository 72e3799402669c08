package shootout.study.logs;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;

/**
 * MessagePack as the study's code wrote it (msgpack-core): each record's
 * twenty values one after another, no field names, an absent field packed
 * as its type's default (`getOrElse("")`, `getOrElse(0)`), so it reads back
 * as that default; the record packed into a buffer, then written to the file
 * behind its length as a MessagePack integer (`packInt`: 1 to 3 bytes here).
 */
final class MessagePack extends Format implements Format.FieldBytes {
    MessagePack() {
        super("MessagePack", "msgpack", false);
    }

    private static void pack(MessagePacker p, Kind kind, Object v) throws IOException {
        Object value = v == null ? kind.absent : v;
        switch (kind) {
            case STRING -> p.packString((String) value);
            case DOUBLE -> p.packDouble((double) value);
            case LONG -> p.packLong((long) value);
            case INT -> p.packInt((int) value);
            case FLOAT -> p.packFloat((float) value);
        }
    }

    @Override
    RecordWriter writer(OutputStream out, DataSet set) {
        MessagePacker file = org.msgpack.core.MessagePack.newDefaultPacker(new BufferedOutputStream(out));
        MessageBufferPacker record = org.msgpack.core.MessagePack.newDefaultBufferPacker();
        return RecordWriter.of(
                d -> {
                    for (int i = 0; i < DataSet.FIELDS; i++) {
                        pack(record, set.kinds[i], set.get(d, i));
                    }
                    byte[] bytes = record.toByteArray();
                    file.packInt(bytes.length);
                    file.writePayload(bytes);
                    record.clear();
                },
                file,
                () -> {
                    file.close();
                    record.close();
                });
    }

    @Override
    RecordReader reader(InputStream in, DataSet set) {
        MessageUnpacker file = org.msgpack.core.MessagePack.newDefaultUnpacker(new BufferedInputStream(in));
        return RecordReader.of(
                () -> {
                    if (!file.hasNext()) {
                        return null;
                    }
                    byte[] bytes = file.readPayload(file.unpackInt());
                    Data d = set.empty();
                    try (MessageUnpacker record = org.msgpack.core.MessagePack.newDefaultUnpacker(bytes)) {
                        for (int i = 0; i < DataSet.FIELDS; i++) {
                            set.set(
                                    d,
                                    i,
                                    switch (set.kinds[i]) {
                                        case STRING -> record.unpackString();
                                        case DOUBLE -> record.unpackDouble();
                                        case LONG -> record.unpackLong();
                                        case INT -> record.unpackInt();
                                        case FLOAT -> record.unpackFloat();
                                    });
                        }
                    }
                    return d;
                },
                file);
    }

    /** The bytes of a file's record lengths, each as packInt wrote it: what the framing costs the file. */
    static long lengthPrefixBytes(Path file) throws IOException {
        long prefixes = 0;
        try (MessageUnpacker in =
                org.msgpack.core.MessagePack.newDefaultUnpacker(new BufferedInputStream(Files.newInputStream(file)))) {
            while (in.hasNext()) {
                long before = in.getTotalReadBytes();
                int length = in.unpackInt();
                prefixes += in.getTotalReadBytes() - before;
                in.readPayloadAsReference(length);
            }
        }
        return prefixes;
    }

    /** The string as a record packs it: its str8 header (type and length) and its text. */
    @Override
    public int uuidFieldBytes(String uuid) throws IOException {
        try (MessageBufferPacker p = org.msgpack.core.MessagePack.newDefaultBufferPacker()) {
            pack(p, Kind.STRING, uuid);
            return p.toByteArray().length;
        }
    }
}
