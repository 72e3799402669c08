package shootout.study.logs;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * The study's input files as kantan.csv wrote and read them (its `rfc`
 * configuration, without a header): one record per line, CRLF line ends,
 * a present value as its toString, an absent one as an empty cell. No cell
 * the generator makes holds a comma, quote or line break, so none is quoted;
 * the reader refuses a quote rather than read it wrong.
 */
final class Csv {
    private Csv() {}

    /** Writes records generated for set into file; returns the file's bytes. */
    static long write(Path file, DataSet set, int records, Random numbers, Random uuids) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder(1024);
            for (int r = 0; r < records; r++) {
                Data d = set.generate(numbers, uuids);
                line.setLength(0);
                for (int i = 0; i < DataSet.FIELDS; i++) {
                    if (i > 0) {
                        line.append(',');
                    }
                    Object v = set.get(d, i);
                    if (v != null) {
                        line.append(v);
                    }
                }
                out.append(line).append("\r\n");
            }
        }
        return Files.size(file);
    }

    /** The records of a CSV file, one at a time. */
    static final class Reader implements Closeable {
        private final DataSet set;
        private final BufferedReader in;
        private final Path file;
        private long line;

        Reader(Path file, DataSet set) throws IOException {
            this.file = file;
            this.set = set;
            this.in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        }

        /** The next record, or null at the end of the file. */
        Data next() throws IOException {
            String text = in.readLine();
            if (text == null) {
                return null;
            }
            line++;
            Data d = set.empty();
            int start = 0;
            for (int i = 0; i < DataSet.FIELDS; i++) {
                int end = i == DataSet.FIELDS - 1 ? text.length() : text.indexOf(',', start);
                if (end < 0 || (i == DataSet.FIELDS - 1 && text.indexOf(',', start) >= 0)) {
                    throw new IOException(file + ": line " + line + ": expected " + DataSet.FIELDS + " cells");
                }
                if (end > start) {
                    String cell = text.substring(start, end);
                    if (cell.indexOf('"') >= 0) {
                        throw new IOException(file + ": line " + line + ", cell " + (i + 1)
                                + ": a quoted cell, which the generator never writes");
                    }
                    set.set(d, i, set.kinds[i].parse(cell));
                }
                start = end + 1;
            }
            return d;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
