package shootout.study.logs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * JSON: each record an object of its present fields by name (json4s's
 * `write`, which leaves a None out and writes a Float as the Double it
 * widens to).
 *
 * <p>As the study's code wrote the file ({@link #asStudyWrote}): that object's
 * text was itself written as a JSON string (`mapper.writeValueAsBytes` of the
 * String: quotes escaped), and those bytes handed to a pretty-printing
 * SequenceWriter, which writes a byte array as a base64 string: the file is
 * `[ "…", "…" ]` of base64, 4/3 of the escaped text. Otherwise: JSON Lines,
 * one object per line, a Float written as a Float.
 */
final class Json extends Format {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private final boolean asStudyWrote;

    private Json(boolean asStudyWrote) {
        super("JSON", asStudyWrote ? "json-base64" : "json-lines", true);
        this.asStudyWrote = asStudyWrote;
    }

    static Json asStudyWrote() {
        return new Json(true);
    }

    static Json lines() {
        return new Json(false);
    }

    /** The record as one JSON object. */
    private byte[] object(Data d, DataSet set, ByteArrayOutputStream buffer) throws IOException {
        buffer.reset();
        try (JsonGenerator g = FACTORY.createGenerator(buffer)) {
            g.writeStartObject();
            for (int i = 0; i < DataSet.FIELDS; i++) {
                Object v = set.get(d, i);
                if (v == null) {
                    continue;
                }
                g.writeFieldName("f" + (i + 1));
                switch (set.kinds[i]) {
                    case STRING -> g.writeString((String) v);
                    case DOUBLE -> g.writeNumber((double) v);
                    case LONG -> g.writeNumber((long) v);
                    case INT -> g.writeNumber((int) v);
                    case FLOAT -> {
                        if (asStudyWrote) {
                            g.writeNumber((double) (float) v);
                        } else {
                            g.writeNumber((float) v);
                        }
                    }
                }
            }
            g.writeEndObject();
        }
        return buffer.toByteArray();
    }

    /** A record from the parser, which stands on the object's START_OBJECT. */
    private static Data record(JsonParser p, DataSet set) throws IOException {
        Data d = set.empty();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            int i = Integer.parseInt(p.currentName().substring(1)) - 1;
            p.nextToken();
            set.set(
                    d,
                    i,
                    switch (set.kinds[i]) {
                        case STRING -> p.getText();
                        case DOUBLE -> p.getDoubleValue();
                        case LONG -> p.getLongValue();
                        case INT -> p.getIntValue();
                        case FLOAT -> (float) p.getDoubleValue();
                    });
        }
        return d;
    }

    @Override
    RecordWriter writer(OutputStream out, DataSet set) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(1024);
        if (!asStudyWrote) {
            OutputStream file = new BufferedOutputStream(out);
            return RecordWriter.of(
                    d -> {
                        file.write(object(d, set, buffer));
                        file.write('\n');
                    },
                    file,
                    file);
        }
        SequenceWriter values = MAPPER.writerWithDefaultPrettyPrinter()
                .writeValues(new BufferedOutputStream(out))
                .init(true);
        return RecordWriter.of(
                d -> values.write(MAPPER.writeValueAsBytes(new String(object(d, set, buffer), StandardCharsets.UTF_8))),
                values,
                values);
    }

    @Override
    RecordReader reader(InputStream in, DataSet set) throws IOException {
        if (!asStudyWrote) {
            JsonParser p = FACTORY.createParser(new BufferedInputStream(in));
            return RecordReader.of(
                    () -> {
                        JsonToken t = p.nextToken();
                        if (t == null) {
                            return null;
                        }
                        if (t != JsonToken.START_OBJECT) {
                            throw new IOException("expected a record's object, found " + t);
                        }
                        return record(p, set);
                    },
                    p);
        }
        MappingIterator<byte[]> values = MAPPER.readerFor(byte[].class).readValues(new BufferedInputStream(in));
        return RecordReader.of(
                () -> {
                    if (!values.hasNextValue()) {
                        return null;
                    }
                    try (JsonParser p = FACTORY.createParser(
                            MAPPER.readTree(values.nextValue()).asText())) {
                        p.nextToken();
                        return record(p, set);
                    }
                },
                values);
    }
}
